import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enLogin from '../../locales/en/member/login.json';
import zhLogin from '../../locales/zh-cn/member/login.json';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { expectNoViolations, openInApp, settled, sweep, useScheme, type Finding, type Language, type Scheme } from './axe.js';
import { newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * The member centre and the standalone pages against WCAG 2.1 AA with axe-core, in Chinese and English,
 * light and dark: the member login, register and password-reset forms; every page of the member's menu
 * (as the server reports it), with a balance, a ledger and a payout to show; the survey outcome pages,
 * `/tracking`, `/interface`, `/quicktask`, `/404` and `/401`. No critical or serious violation may remain.
 * The back office is swept by the accessibility-admin files.
 */

const MEMBER = { username: 'sweeper', password: 'Member_pass1' };
const LOGIN_WORDS = { 'zh-cn': zhLogin.login, en: enLogin.login };
const STANDALONE = ['/success', '/terminate', '/overquota', '/security', '/tracking', '/interface', '/quicktask', '/404', '/401'];
const LOGIN_TABS = ['', '?tab=register', '?tab=retrieve'];

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
  const token = (await rig.server.loginAdmin()).token;
  expect((await rig.server.admin('user.User/add', { token, body: { username: MEMBER.username, nickname: 'Sweeper', group_id: 1, password: MEMBER.password } })).code).toBe(1);
  const db = rig.server.server.app.db;
  const member = (await db.selectFrom('user').select('id').where('username', '=', MEMBER.username).executeTakeFirstOrThrow()) as { id: number };
  await recordLedgerEntry(db, rig.server.server.app.handle.dialect, { kind: 'money', userId: Number(member.id), amount: 5000, memo: 'Survey rewards' });
});

afterAll(async () => {
  await rig?.close();
});

async function logIn(page: Page, language: Language): Promise<void> {
  const text = LOGIN_WORDS[language];
  await page.getByRole('textbox', { name: text.username }).fill(MEMBER.username);
  await page.getByLabel(text.password, { exact: true }).fill(MEMBER.password);
  await page.getByRole('button', { name: text.submit, exact: true }).click();
  await page.waitForURL(/\/user\/(?!login)/);
  await settled(page);
}

async function sweepMemberSide(language: Language, scheme: Scheme): Promise<void> {
  const { context, page } = await newPage(rig.browser, { language });
  const findings: Finding[] = [];
  const tag = `(${language}, ${scheme})`;
  try {
    await useScheme(context, page, scheme);
    for (const path of STANDALONE) {
      await page.goto(url(rig.server, path));
      await page.getByRole('heading').first().waitFor();
      await page.waitForLoadState('networkidle');
      findings.push(...(await sweep(page, `${path} ${tag}`)));
    }
    for (const tab of LOGIN_TABS) {
      await page.goto(url(rig.server, `/user/login${tab}`));
      // a form, or (password reset on an install with no working code channel) the notice that stands for it
      await page.getByRole('form').or(page.locator('.ba-login__alert[role="alert"]')).first().waitFor();
      findings.push(...(await sweep(page, `/user/login${tab} ${tag}`)));
    }
    await page.goto(url(rig.server, '/user/login'));
    await logIn(page, language);
    // Every page the member's menu links to, as the server reported the menu.
    const paths = await page.locator('nav a[href^="/user/"]').evaluateAll((links) => [...new Set(links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))]);
    expect(paths.length, 'member menu pages').toBeGreaterThan(5);
    for (const [index, path] of paths.entries()) {
      await openInApp(page, path);
      await page.waitForLoadState('networkidle');
      findings.push(...(await sweep(page, `${path} ${tag}`, index === 0 ? undefined : 'main')));
    }
  } finally {
    await context.close();
  }
  expectNoViolations(findings);
}

describe('member centre and standalone pages accessibility', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`has no critical or serious violation in ${language}, ${scheme}`, () => sweepMemberSide(language, scheme), 120_000);
    }
  }
});
