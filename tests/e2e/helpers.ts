import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { ClickCaptchaService } from '../../src/server/captcha/captcha-service.js';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { TEST_CLIENT_DIR } from '../support/build-client.js';
import { launchBrowser } from '../support/browser.js';
import { SmsSink } from '../support/sms-sink.js';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Shared steps of the back-office browser tests: one server (SQLite) and one Chromium per file,
 * a fresh context per scenario, logging in the way a person does.
 */

export const ADMIN_BASE = '/chidaoadminstator';
/** Playwright's waits (auto-waiting locators, navigations): generous for a 2-core machine, but bounded. */
export const WAIT_MS = 15_000;

/** The phone the member pages must fit. */
export const PHONE = { width: 390, height: 844 };

export interface E2eRig {
  server: TestServer;
  browser: Browser;
  /** the texts the server sent, codes included */
  sms: SmsSink;
  close(): Promise<void>;
}

/** A server on a fresh SQLite database serving the built client (with other schemas when given), and a Chromium; started side by side. */
export async function startRig(env: Record<string, string> = {}, schemasDir?: string): Promise<E2eRig> {
  const sms = new SmsSink();
  const [started, launched] = await Promise.allSettled([startTestServer('sqlite', { clientDir: TEST_CLIENT_DIR, env, schemasDir, sms }), launchBrowser()]);
  if (started.status === 'rejected' || launched.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.close();
    if (launched.status === 'fulfilled') await launched.value.close();
    throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
  }
  const [server, browser] = [started.value, launched.value];
  return {
    server,
    browser,
    sms,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * A fresh context (own localStorage) with a desktop viewport; the page collects uncaught script
 * errors. `E2E_DEBUG=1` prints the page's console and its requests.
 */
export async function newPage(
  browser: Browser,
  { language, phone = false }: { language?: 'zh-cn' | 'en'; phone?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: phone ? PHONE : { width: 1440, height: 900 },
    locale: language === 'en' ? 'en-US' : 'zh-CN',
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  // A language given speaks from the first page on, as if the visitor had chosen it before.
  if (language) {
    await context.addInitScript((lang) => {
      if (!localStorage.getItem('storeConfig_v2')) localStorage.setItem('storeConfig_v2', JSON.stringify({ layout: {}, lang: { defaultLang: lang, fallbackLang: 'en' } }));
    }, language);
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  if (process.env.E2E_DEBUG) {
    page.on('console', (message) => console.log('console', message.type(), message.text().slice(0, 300)));
    page.on('request', (request) => !request.url().includes('/assets/') && console.log('request', request.method(), request.url().slice(0, 160), request.postData()?.slice(0, 200) ?? ''));
  }
  return { context, page, errors };
}

/** `expect.poll` with the generous bound of these tests (vitest's default is one second). */
export function poll<T>(read: () => Promise<T> | T, message?: string) {
  return expect.poll(read, { timeout: WAIT_MS, interval: 100, message });
}

export function url(server: TestServer, path: string): string {
  return `${server.url}${path}`;
}

/** Matches an admin page URL exactly (path only, any query). */
export function adminPath(path: string): RegExp {
  const escaped = `${ADMIN_BASE}${path}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^[^?#]*//[^/]+${escaped}(?:[?#].*)?$`);
}

/** The login form (zh-cn texts: the browser starts with no stored language). */
export function loginForm(page: Page, language: 'zh-cn' | 'en' = 'zh-cn') {
  const zh = language === 'zh-cn';
  return {
    username: page.getByRole('textbox', { name: zh ? '用户名' : 'Username' }),
    password: page.getByLabel(zh ? '密码' : 'Password', { exact: true }),
    remember: page.getByRole('checkbox', { name: zh ? '保持会话' : 'Remember me' }),
    submit: page.getByRole('button', { name: zh ? '登录' : 'Login', exact: true }),
  };
}

/** How a test signs in: the account (the seeded admin by default) and the language the page is in. */
export interface LoginOptions {
  username?: string;
  password?: string;
  /** the language of the page's login form (a fresh browser starts in zh-cn) */
  language?: 'zh-cn' | 'en';
  /** ticks "Remember me" */
  keep?: boolean;
}

/** Fills the open login form and submits it (the server does not ask for the captcha here). */
export async function fillLogin(page: Page, { username = 'admin', password = ADMIN_PASSWORD, language = 'zh-cn', keep = false }: LoginOptions = {}): Promise<void> {
  const form = loginForm(page, language);
  await form.username.fill(username);
  await form.password.fill(password);
  if (keep) await form.remember.check();
  await form.submit.click();
}

/** Opens the back office's login page and logs in through the form (captcha off), landing on the dashboard. */
export async function loginAs(page: Page, server: TestServer, options: LoginOptions = {}): Promise<void> {
  await page.goto(url(server, `${ADMIN_BASE}/login`));
  await fillLogin(page, options);
  await page.waitForURL(adminPath('/dashboard'));
}

/**
 * Answers the open click captcha like a person: the puzzle (the answer) is read from the database,
 * each target is clicked at its box centre, scaled to the size the image is rendered at.
 */
export async function solveClickCaptcha(page: Page, server: TestServer, puzzleRequest: Request): Promise<void> {
  const id = new URL(puzzleRequest.url()).searchParams.get('id');
  expect(id, 'captcha id in the clickCaptcha request').toBeTruthy();
  const puzzle = await new ClickCaptchaService(server.server.app.db).puzzleOf(id ?? '');
  expect(puzzle, 'stored puzzle').toBeDefined();
  if (!puzzle) return;
  const dialog = page.getByRole('dialog');
  const image = dialog.getByRole('img');
  await poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  const box = await image.boundingBox();
  expect(box).not.toBeNull();
  if (!box) return;
  const scaleX = box.width / puzzle.width;
  const scaleY = box.height / puzzle.height;
  for (const target of puzzle.targets) {
    await page.mouse.click(box.x + (target.x + target.width / 2) * scaleX, box.y + (target.y + target.height / 2) * scaleY);
  }
}

/** react-admin's error notifications (warnings and successes are not errors). */
export function errorToasts(page: Page): Locator {
  return page.locator('.RaNotification-error');
}

/** The localStorage entry `key`, parsed. */
export async function stored<T>(page: Page, key: string): Promise<T | null> {
  const text = await page.evaluate((name) => localStorage.getItem(name), key);
  return text === null ? null : (JSON.parse(text) as T);
}

/** The token table's row for a token the browser holds. */
export async function tokenRow(server: TestServer, token: string): Promise<{ type: string; user_id: number; expire_time: number } | undefined> {
  return (await server.server.app.db
    .selectFrom('token')
    .select(['type', 'user_id', 'expire_time'])
    .where('token', '=', server.server.app.tokens.digest(token))
    .executeTakeFirst()) as { type: string; user_id: number; expire_time: number } | undefined;
}

interface MenuRule {
  name: string;
  path: string;
  type: string;
  menu_type?: string | null;
  children?: MenuRule[];
}

/** Each page the admin's menus open inside the shell, as paths in the back office (iframes and external links show another site). */
export async function menuPages(server: TestServer, token: string): Promise<string[]> {
  const pagesOf = (rules: readonly MenuRule[]): string[] =>
    rules.flatMap((rule) => [
      ...(rule.type === 'menu' && rule.menu_type !== 'iframe' && rule.menu_type !== 'link' ? [`/${(rule.path || rule.name).replace(/^\/+/, '')}`] : []),
      ...pagesOf(rule.children ?? []),
    ]);
  return pagesOf((await server.admin<{ menus: MenuRule[] }>('Index/index', { token })).data.menus);
}

/** A member with a balance and a pending bank payout, so the members' and payouts' lists have a row with its actions. */
export async function memberWithPendingPayout(server: TestServer, token: string, username: string, password: string): Promise<void> {
  expect((await server.admin('user.User/add', { token, body: { username, nickname: `${username} member`, group_id: 1, password, email: `${username}@example.com`, mobile: '13800000000' } })).code).toBe(1);
  const member = (await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password } })).data.userInfo;
  await recordLedgerEntry(server.server.app.db, server.server.app.handle.dialect, { kind: 'money', userId: member.id, amount: 123456, memo: 'Survey rewards' });
  expect((await server.api('paymentuser/payment', { userToken: member.token, body: { payment: 'bank', bank: 'Amy Li', bank_name: 'ICBC', bank_address: 'Shanghai branch', bank_num: '6222 0000 1111 2222', password } })).code).toBe(1);
  expect((await server.api('paymentuser/payout', { userToken: member.token, body: { amount: '1000.00' } })).code).toBe(1);
}
