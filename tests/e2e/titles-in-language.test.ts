import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enLogin from '../../locales/en/member/login.json';
import zhLogin from '../../locales/zh-cn/member/login.json';
import { expectNoViolations, sweep } from './axe.js';
import { newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * A member reads survey and quick-task titles in their language, in Chromium at 1440 and 390 px in zh-cn
 * and en: the task list of the member centre and the standalone quick-task page show the English title and
 * description to an English reader, the Chinese ones to a Chinese reader, and a survey with no English
 * title in Chinese to both. Screenshots go to `$E2E_SCREENSHOTS` (default a temporary folder).
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-titles-in-language');
const PASSWORD = 'Member_pass1';
type Language = 'zh-cn' | 'en';
const LOGIN = { 'zh-cn': zhLogin.login, en: enLogin.login } as const;
const SURVEY = { 'zh-cn': { title: '生活习惯调查', description: '关于日常生活的十个问题' }, en: { title: 'Daily habits survey', description: 'Ten questions about daily life' } } as const;
const CHINESE_ONLY = { title: '出行方式调查', description: '您如何上班' };
const TASK = { 'zh-cn': { title: '关注公众号', description: '关注后告诉我们平台' }, en: { title: 'Follow our account', description: 'Follow it and tell us the platform' } } as const;
const FORM = JSON.stringify({ type: 'object', required: ['platform'], properties: { platform: { type: 'string', title: { 'zh-cn': '平台', en: 'Platform' }, enum: ['ios', 'android'], 'x-ui': { widget: 'radio', options: { ios: { 'zh-cn': '苹果', en: 'iPhone' }, android: { 'zh-cn': '安卓', en: 'Android' } } } } } });
const CASES: { language: Language; phone: boolean }[] = [
  { language: 'zh-cn', phone: false },
  { language: 'en', phone: false },
  { language: 'zh-cn', phone: true },
  { language: 'en', phone: true },
];

let rig: E2eRig;
let adminToken = '';
let taskId = 0;

async function ok(answer: Promise<{ code: number; msg: string }>): Promise<void> {
  const { code, msg } = await answer;
  expect({ code, msg }).toMatchObject({ code: 1 });
}

async function login(page: Page, language: Language, username: string): Promise<void> {
  await page.goto(url(rig.server, '/user/login'));
  await page.getByRole('textbox', { name: LOGIN[language].username }).fill(username);
  await page.getByLabel(LOGIN[language].password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: LOGIN[language].submit, exact: true }).click();
  await page.waitForURL(/\/user\/(?!login)/);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  adminToken = (await rig.server.loginAdmin()).token;
  const admin = (path: string, body: Record<string, unknown>) => rig.server.admin(path, { token: adminToken, body });
  await ok(admin('survey.Provider/add', { code: 'lang', name: 'Language panel', secret: 'provider-secret-1' }));
  const provider = await rig.server.server.app.db.selectFrom('survey_provider').select('id').where('code', '=', 'lang').executeTakeFirstOrThrow();
  const survey = { provider_id: provider.id, entry_url: 'https://panel.example/s?r={rid}', reward_money: '1.00', loi_minutes: 5, status: 'active' };
  await ok(admin('survey.Survey/add', { ...survey, ...SURVEY['zh-cn'], title_en: SURVEY.en.title, description_en: SURVEY.en.description, weigh: 2 }));
  await ok(admin('survey.Survey/add', { ...survey, ...CHINESE_ONLY, weigh: 1 }));
  await ok(admin('survey.QuickTask/add', { ...TASK['zh-cn'], title_en: TASK.en.title, description_en: TASK.en.description, form: FORM, reward_money: '0.10', status: 'active' }));
  taskId = Number((await rig.server.server.app.db.selectFrom('quick_task').select('id').where('title', '=', TASK['zh-cn'].title).executeTakeFirstOrThrow()).id);
});

afterAll(async () => {
  await rig?.close();
});

describe("survey and quick-task titles in the member's language", () => {
  CASES.forEach(({ language, phone }, index) => {
    const width = phone ? 390 : 1440;
    const other: Language = language === 'en' ? 'zh-cn' : 'en';
    it(`shows them in ${language} at ${width} px, the Chinese one where no English was written`, async () => {
      const username = `reader${index}`;
      await ok(rig.server.admin('user.User/add', { token: adminToken, body: { username, nickname: username, group_id: 1, password: PASSWORD } }));
      const { page, context, errors } = await newPage(rig.browser, { language, phone });
      try {
        await login(page, language, username);
        await page.goto(url(rig.server, '/user/survey/tasks'));
        const list = page.locator('.ba-tasks__list');
        await list.getByText(SURVEY[language].title, { exact: true }).waitFor();
        await list.getByText(SURVEY[language].description, { exact: true }).waitFor();
        await list.getByText(CHINESE_ONLY.title, { exact: true }).waitFor();
        expect(await list.getByText(SURVEY[other].title, { exact: true }).count()).toBe(0);
        if (phone) expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(page, `task list ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-tasks.png`), fullPage: true });

        await page.goto(url(rig.server, `/quicktask?id=${taskId}`));
        await page.getByRole('heading', { level: 1, name: TASK[language].title }).waitFor();
        await page.getByText(TASK[language].description, { exact: true }).waitFor();
        expect(await page.getByText(TASK[other].title, { exact: true }).count()).toBe(0);
        if (phone) expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(page, `quick task ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-quick-task.png`), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
