import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enHome from '../../locales/en/member/home.json';
import enLogin from '../../locales/en/member/login.json';
import enShell from '../../locales/en/member/shell.json';
import enSurvey from '../../locales/en/common/survey.json';
import zhHome from '../../locales/zh-cn/member/home.json';
import zhLogin from '../../locales/zh-cn/member/login.json';
import zhShell from '../../locales/zh-cn/member/shell.json';
import zhSurvey from '../../locales/zh-cn/common/survey.json';
import { expectNoViolations, sweep } from './axe.js';
import { PHONE, poll, startRig, url, WAIT_MS, type E2eRig } from './helpers.js';

/**
 * A member whose browser prefers English or Chinese and who never chose a language, in Chromium at 1440
 * and 390 px: the login page arrives in that language from the server's first paint, the API is asked in
 * it; the task hall lists the quick task while no survey is open; in dark mode the quick task page (a
 * standalone page) is dark too and offers the member menu back into the centre; an image answer is
 * removed before submitting; the overview's chart switches to 30 days. Axe-clean throughout.
 * Screenshots go to `$E2E_SCREENSHOTS` (default a temporary folder).
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-member-hall');
const PASSWORD = 'Member_pass1';
type Language = 'zh-cn' | 'en';
const TEXTS = {
  'zh-cn': { locale: 'zh-CN', accept: 'zh-CN,zh;q=0.9', login: zhLogin.login, shell: zhShell.memberShell, survey: zhSurvey.survey, home: zhHome.memberHome },
  en: { locale: 'en-US', accept: 'en-US,en;q=0.9', login: enLogin.login, shell: enShell.memberShell, survey: enSurvey.survey, home: enHome.memberHome },
} as const;
const CASES: { language: Language; phone: boolean }[] = [
  { language: 'en', phone: false },
  { language: 'zh-cn', phone: false },
  { language: 'en', phone: true },
  { language: 'zh-cn', phone: true },
];
const TASK_TITLE = 'Photograph the shelf of a nearby shop';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let rig: E2eRig;
let adminToken = '';

async function addMember(username: string): Promise<void> {
  expect((await rig.server.admin('user.User/add', { token: adminToken, body: { username, nickname: username, group_id: 1, password: PASSWORD } })).code).toBe(1);
}

/** A browser that prefers `language` and has stored no choice: no `storeConfig_v2`, no cookie. */
async function browserPreferring(language: Language, phone: boolean): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await rig.browser.newContext({
    viewport: phone ? PHONE : { width: 1440, height: 900 },
    locale: TEXTS[language].locale,
    extraHTTPHeaders: { 'accept-language': TEXTS[language].accept },
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** The page's background, as the browser paints it: dark when each channel is below a third. */
async function paintsDark(page: Page): Promise<boolean> {
  const colour = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const channels = (colour.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  return channels.length === 3 && channels.every((channel) => channel < 85);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  adminToken = (await rig.server.loginAdmin()).token;
  const added = await rig.server.admin('survey.QuickTask/add', {
    token: adminToken,
    body: {
      title: TASK_TITLE, reward_money: '0.60', reward_score: 5, status: 'active',
      form: JSON.stringify({ type: 'object', required: ['proof'], properties: { proof: { type: 'string', title: 'Shelf photo', 'x-ui': { widget: 'image' } } } }),
    },
  });
  expect(added.code).toBe(1);
});

afterAll(async () => {
  await rig?.close();
});

describe('the member centre for a first-time member', () => {
  CASES.forEach(({ language, phone }, index) => {
    const width = phone ? 390 : 1440;
    it(`speaks the browser's ${language}, lists the quick task in the hall, and keeps dark mode and the menu on its own pages at ${width} px`, async () => {
      const texts = TEXTS[language];
      const username = `hall${index}`;
      await addMember(username);
      const { page, context, errors } = await browserPreferring(language, phone);
      try {
        // The server's first paint is already in the browser's language, before any code ran.
        const response = await page.goto(url(rig.server, '/user/login'));
        const html = (await response?.text()) ?? '';
        expect(html).toContain(`lang="${language === 'en' ? 'en' : 'zh-CN'}"`);
        expect(html).toContain(texts.login.title);
        const asked = page.waitForRequest((request) => request.url().includes('/api/user/checkIn') && request.method() === 'POST');
        await page.getByRole('textbox', { name: texts.login.username }).fill(username);
        await page.getByLabel(texts.login.password, { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: texts.login.submit, exact: true }).click();
        // the API is asked in that language too, so its messages speak it
        expect((await asked).headers()['think-lang']).toBe(language);
        await page.waitForURL(/\/user\/(?!login)/);

        // The hall: no survey is open, the quick task is listed under its heading.
        await page.goto(url(rig.server, '/user/survey/tasks'));
        const quick = page.getByRole('region', { name: texts.survey.tracking.quickTasks });
        await quick.getByText(TASK_TITLE).waitFor();
        await quick.getByRole('heading', { name: texts.survey.tracking.quickTasks }).waitFor();
        expect(await page.getByText(texts.survey.tasks.nothingOpen).count()).toBe(0);
        expect(await page.getByText(texts.survey.tasks.empty).count()).toBe(0);
        if (phone) expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(page, `task hall ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-hall.png`), fullPage: true });

        // Dark mode chosen in the centre carries over to the quick task page, which offers the member menu.
        await page.getByRole('button', { name: texts.shell.dark }).click();
        await poll(() => paintsDark(page)).toBe(true);
        await quick.getByRole('link', { name: texts.survey.quickTask.open }).click();
        await page.waitForURL(/\/quicktask\?id=\d+$/);
        await page.getByRole('heading', { name: TASK_TITLE }).waitFor();
        await poll(() => paintsDark(page)).toBe(true);

        // An image answer can be removed before submitting.
        await page.getByLabel(/^Shelf photo/).setInputFiles({ name: 'shelf.png', mimeType: 'image/png', buffer: PNG });
        const preview = page.getByRole('img', { name: 'Shelf photo' });
        await preview.waitFor();
        await page.getByRole('button', { name: texts.survey.quickTask.removeImageOf.replace('%{name}', 'Shelf photo') }).click();
        await preview.waitFor({ state: 'detached' });
        await page.getByRole('button', { name: texts.survey.quickTask.submit, exact: true }).click();
        await page.getByRole('alert').filter({ hasText: texts.survey.quickTask.fix.replace('%{count}', '1') }).waitFor();
        const submitted = await rig.server.server.app.db.selectFrom('quick_task_submission').select('id').execute();
        expect(submitted).toEqual([]);
        if (phone) expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(page, `quick task page dark ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-quicktask-dark.png`), fullPage: true });

        // The member menu leads back into the centre.
        await page.getByRole('button', { name: texts.shell.menu }).click();
        const menu = page.getByRole('menu', { name: texts.shell.menu });
        await menu.getByRole('menuitem', { name: texts.shell.menus['account/overview'] }).click();
        await page.waitForURL(/\/user\/account\/overview$/);

        // The overview's chart: 7 days, then 30 days, each asked of the server.
        const chart7 = page.getByRole('img', { name: texts.home.figures.chartOf.replace('%{days}', '7') });
        await chart7.waitFor();
        const thirty = page.waitForRequest((request) => request.url().includes('/api/account/getUserCharts') && request.url().includes('period=30'));
        await page.getByRole('button', { name: texts.home.figures.lastDays.replace('%{days}', '30') }).click();
        await thirty;
        await page.getByRole('img', { name: texts.home.figures.chartOf.replace('%{days}', '30') }).waitFor();
        // one unit per axis: yuan on an axis of their own
        await poll(() => page.locator('.recharts-yAxis').count()).toBe(2);
        // the completes' axis counts, without yuan (a new member's yuan axis has no ticks to read yet)
        expect(await page.locator('.recharts-yAxis').first().textContent()).not.toContain('¥');
        expectNoViolations(await sweep(page, `overview dark ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-overview-dark.png`), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
