import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enSurvey from '../../locales/en/common/survey.json';
import zhSurvey from '../../locales/zh-cn/common/survey.json';
import enPages from '../../locales/en/common/pages.json';
import zhPages from '../../locales/zh-cn/common/pages.json';
import { newPage, startRig, url, WAIT_MS, type E2eRig } from './helpers.js';

/**
 * The standalone survey pages on a phone, in Chromium at 390×844 (then 360 and 430 wide), in both
 * languages: every outcome a return can record, produced through the real return flow (a member starts
 * surveys, the browser lands on the outcome page with the provider's signed query, an administrator
 * reverses a complete), plus /interface, /tracking and /quicktask. Each page must fit the screen with
 * no sideways scroll, keep its card off the screen's edges, use MUI controls only, and head with what
 * was recorded.
 */

const SECRET = 'phone-secret-7';
const PASSWORD = 'Member_pass1';
const WIDTHS = [390, 360, 430];
const MESSAGES = { 'zh-cn': zhSurvey.survey, en: enSurvey.survey };
const PAGE_WORDS = { 'zh-cn': zhPages.pages, en: enPages.pages };
/** The participation schema's label of a security result, as the tracking page's chip must read. */
const SECURITY_LABEL = { 'zh-cn': '安全终止', en: 'Security terminated' };
type Language = keyof typeof MESSAGES;
type Kind = keyof typeof MESSAGES.en.outcome.headline;

let rig: E2eRig;
let adminToken: string;
const surveys: Record<'complete' | 'terminate' | 'overquota' | 'security', number> = { complete: 0, terminate: 0, overquota: 0, security: 0 };

function signed(page: string, rid: string, secret = SECRET): string {
  const unsigned = `rid=${rid}`;
  return `/${page}?${unsigned}&sig=${createHmac('sha256', secret).update(`/${page}?${unsigned}`).digest('hex')}`;
}

async function ok<T>(answer: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
  const { code, msg, data } = await answer;
  expect({ code, msg }).toMatchObject({ code: 1 });
  return data;
}

beforeAll(async () => {
  rig = await startRig();
  adminToken = (await rig.server.loginAdmin()).token;
  const admin = <T>(path: string, body: Record<string, unknown>) => ok<T>(rig.server.admin<T>(path, { token: adminToken, body }));
  await admin('survey.Provider/add', { code: 'phonepanel', name: 'Phone panel', secret: SECRET });
  const provider = (await rig.server.server.app.db.selectFrom('survey_provider').select('id').where('code', '=', 'phonepanel').executeTakeFirstOrThrow()) as { id: number };
  for (const kind of Object.keys(surveys) as (keyof typeof surveys)[]) {
    // Long titles: the page must wrap them, not widen.
    const title = `Household appliances and everyday kitchen habits (${kind})`;
    await admin('survey.Survey/add', {
      provider_id: provider.id, title, entry_url: 'https://panel.example/s?r={rid}', reward_money: '1.50', reward_score: 10,
      consolation_money: '0.10', loi_minutes: 1, hold_speeders: 0, status: 'active',
    });
    surveys[kind] = Number(((await rig.server.server.app.db.selectFrom('survey').select('id').where('title', '=', title).executeTakeFirstOrThrow()) as { id: number }).id);
  }
  await admin('survey.QuickTask/add', {
    title: 'Rate the new shopping app after a week of everyday use', reward_money: '0.80', reward_score: 5, status: 'active',
    // One field of each member widget, so the open form is checked control by control.
    form: JSON.stringify({
      type: 'object', required: ['name', 'platform'],
      properties: {
        name: { type: 'string', title: 'Your name', maxLength: 20 },
        email: { type: 'string', title: 'Your email address for the reward notification', format: 'email', maxLength: 100 },
        review: { type: 'string', title: 'What did you like and dislike', maxLength: 500, 'x-ui': { widget: 'textarea' } },
        days: { type: 'integer', title: 'Days used' },
        platform: { type: 'string', title: 'Platform', enum: ['ios', 'android'], 'x-ui': { widget: 'radio', options: { ios: 'iPhone', android: 'Android' } } },
        store: { type: 'string', title: 'Where you installed it from', enum: ['app_store', 'google_play', 'huawei', 'xiaomi', 'other'], 'x-ui': { widget: 'select' } },
        recommend: { type: 'boolean', title: 'I would recommend it to a friend' },
        installed: { type: 'string', title: 'Installed on', format: 'date' },
        proof: { type: 'string', title: 'Screenshot', 'x-ui': { widget: 'image' } },
      },
    }),
  });
});

afterAll(async () => {
  await rig?.close();
});

/** A member logged in through the API, and one started attempt per survey (its rid). */
async function memberWithAttempts(username: string) {
  await ok(rig.server.admin('user.User/add', { token: adminToken, body: { username, nickname: username, group_id: 1, password: PASSWORD } }));
  const login = await ok(rig.server.api<{ userInfo: Record<string, unknown> & { token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } }));
  const rids = {} as Record<keyof typeof surveys, string>;
  for (const [kind, id] of Object.entries(surveys) as [keyof typeof surveys, number][]) {
    const started = await ok(rig.server.api<{ url: string }>('survey/start', { body: { id }, userToken: login.userInfo.token }));
    rids[kind] = new URL(started.url).searchParams.get('r') ?? '';
  }
  return { userInfo: login.userInfo, rids };
}

/** Everything on the page that would make a phone scroll sideways, sit outside the screen, or not be MUI. */
async function layoutProblems(page: Page, card = true): Promise<string[]> {
  return page.evaluate((card) => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const name = (element: Element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 2).join('.')} "${(element.textContent ?? '').trim().slice(0, 30)}"`;
    if (document.documentElement.scrollWidth > width) problems.push(`the page is ${document.documentElement.scrollWidth}px wide on a ${width}px screen`);
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue;
      if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${name(element)} spans ${Math.round(box.left)}..${Math.round(box.right)} px`);
    }
    for (const control of document.body.querySelectorAll('button, input, select, textarea')) {
      if (!control.closest('.MuiButtonBase-root, .MuiInputBase-root')) problems.push(`bare browser control ${name(control)}`);
    }
    const paper = document.querySelector('main > .MuiPaper-root');
    if (card && !paper) problems.push('no card in main');
    else if (paper) {
      const box = paper.getBoundingClientRect();
      if (box.left < 8 || box.right > width - 8) problems.push(`the card touches the screen edge (${Math.round(box.left)}..${Math.round(box.right)} of ${width})`);
    }
    return problems;
  }, card);
}

/** Checks the page at each phone width (the first one, 390, is where it was loaded). */
async function expectFits(page: Page, what: string, card = true): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await layoutProblems(page, card), `${what} at ${width}px`).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

async function headline(page: Page): Promise<string> {
  return (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
}

describe.each(['zh-cn', 'en'] as const)('survey pages on a phone in %s', (language: Language) => {
  it('head each recorded outcome with what was recorded and fit 360–430 px, as do /interface, /tracking and /quicktask', { timeout: 180_000 }, async () => {
    const { userInfo, rids } = await memberWithAttempts(`phone${language.replace('-', '')}`);
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await context.addInitScript(
        ({ info, lang }) => {
          localStorage.setItem('userInfo', JSON.stringify(info));
          localStorage.setItem('storeConfig_v2', JSON.stringify({ layout: {}, lang: { defaultLang: lang } }));
        },
        { info: userInfo, lang: language },
      );
      await page.setViewportSize({ width: 390, height: 844 });
      const words = MESSAGES[language].outcome.headline;
      const expectOutcome = async (path: string, kind: Kind, tone: string) => {
        await page.goto(url(rig.server, path));
        await page.locator(`[data-outcome="${kind}"]`).waitFor({ timeout: WAIT_MS });
        expect(await headline(page), path).toBe(words[kind]);
        expect(await page.locator('main > [data-tone]').getAttribute('data-tone'), path).toBe(tone);
        await expectFits(page, `${path} (${kind})`);
      };

      await expectOutcome(signed('success', rids.complete), 'complete', 'success');
      expect(await page.getByTestId('reward').isVisible()).toBe(true);
      // Coming back with the same return records nothing new.
      await expectOutcome(signed('success', rids.complete), 'already', 'info');
      await expectOutcome(signed('terminate', rids.terminate), 'terminate', 'warning');
      await expectOutcome(signed('overquota', rids.overquota), 'overquota', 'warning');
      // A wrong signature on the success page records nothing and says the result was not recorded, never "complete".
      await expectOutcome(signed('success', rids.security, 'not-the-secret'), 'failed', 'error');
      expect(await page.getByRole('alert').textContent()).toContain(language === 'en' ? 'The signature of this survey return is invalid' : '问卷回传的签名无效');
      // The provider's signed security exit records a security result, and says so.
      await expectOutcome(signed('security', rids.security), 'security', 'error');
      expect(await headline(page)).not.toBe(words.complete);
      // The administrator reverses the complete; the member's return now reads reversed.
      await ok(rig.server.admin('survey.Participation/reconcile', { token: adminToken, body: { action: 'reverse', rids: [rids.complete], reason: 'Client rejected' } }));
      await expectOutcome(signed('success', rids.complete), 'reversed', 'error');

      // A survey that cannot be started: the interface page shows the refusal.
      await page.goto(url(rig.server, '/interface?id=999999'));
      await page.getByRole('alert').waitFor();
      await expectFits(page, '/interface');

      await page.goto(url(rig.server, '/tracking'));
      await page.getByText('Household appliances and everyday kitchen habits (security)').first().waitFor();
      // The member has submitted no quick task, and the page says so in its own words.
      await page.getByText(MESSAGES[language].tracking.quickTasksEmpty).waitFor();
      // Each status chip reads and colours as the participation schema declares it: a security result is red.
      const security = page.getByRole('listitem').filter({ hasText: '(security)' }).locator('.MuiChip-root');
      expect(await security.innerText()).toBe(SECURITY_LABEL[language]);
      expect(await security.getAttribute('class')).toContain('MuiChip-colorError');
      await expectFits(page, '/tracking');
      if (language === 'en') {
        // On a wide screen the tables' headings and short cells break only between words ("Reason", not "Reas/on").
        await page.setViewportSize({ width: 1440, height: 900 });
        const table = page.getByRole('table', { name: MESSAGES.en.tracking.title });
        await table.waitFor();
        const broken = await table.evaluate((element) => {
          const found: string[] = [];
          for (const cell of element.querySelectorAll('th, td')) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const text = node.textContent ?? '';
              // a line may end after a hyphen (2026-12-/07): its parts count as words
              for (const word of text.matchAll(/[^\s-]+/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                // a word split over two lines has a box on each
                if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) found.push(word[0]);
              }
            }
          }
          return found;
        });
        expect(broken).toEqual([]);
        await page.setViewportSize({ width: 390, height: 844 });
      }

      await page.goto(url(rig.server, '/quicktask'));
      await page.getByText('Rate the new shopping app after a week of everyday use').waitFor();
      await expectFits(page, '/quicktask');
      // The member opens the task: its form, every field an MUI control, fits the phone too, blank and with every error shown.
      await page.getByRole('link', { name: MESSAGES[language].quickTask.open }).click();
      await page.getByRole('button', { name: MESSAGES[language].quickTask.submit }).waitFor({ timeout: WAIT_MS });
      expect(await page.getByRole('group', { name: /Platform/ }).getByRole('radio').count()).toBe(2);
      expect(await page.getByLabel('Installed on').getAttribute('placeholder')).toBe('YYYY-MM-DD');
      await expectFits(page, '/quicktask?id= (form)');
      // A long question wraps at 360 px instead of being cut short.
      await page.setViewportSize({ width: 360, height: 844 });
      const question = page.locator('label', { hasText: 'Your email address for the reward notification' }).first();
      expect(await question.evaluate((label) => label.scrollWidth <= label.clientWidth && !getComputedStyle(label).textOverflow.includes('ellipsis'))).toBe(true);
      await page.getByRole('button', { name: MESSAGES[language].quickTask.submit }).click();
      await page.getByRole('alert').waitFor();
      await expectFits(page, '/quicktask?id= (form with errors)');

      // The 404 and 401 pages: translated MUI buttons that fit the phone.
      for (const [path, title] of [['/404', PAGE_WORDS[language].notFound.title], ['/401', PAGE_WORDS[language].noPermission.title]]) {
        await page.goto(url(rig.server, path));
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        await page.getByRole('button', { name: PAGE_WORDS[language].back }).waitFor();
        expect(await page.getByRole('link', { name: PAGE_WORDS[language].home }).getAttribute('class')).toContain('MuiButton-contained');
        await expectFits(page, path, false);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
