import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import enPages from '../../locales/en/common/pages.json';
import zhPages from '../../locales/zh-cn/common/pages.json';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { ADMIN_BASE, adminPath, newPage, poll, startRig, url, type E2eRig } from './helpers.js';
import { ADMIN_PASSWORD } from '../support/test-server.js';
import { proveSms } from '../support/code-channels.js';

/**
 * The back office and the member centre with the keyboard alone (no mouse click in these flows):
 * logging in, finding a page in the menu, adding a row in the dialog and leaving dialogs with Escape.
 * Focus must always be where the person is: on the page's heading after a page change, on the control
 * that opened a dialog once it closed, on the main content after the skip link.
 */

const MEMBER = { username: 'keyboarder', password: 'Member_pass1' };
let rig: E2eRig;
let memberId = 0;

beforeAll(async () => {
  rig = await startRig();
  const token = (await rig.server.loginAdmin()).token;
  // the profile offers binding a mobile only once an SMS code channel has delivered
  await proveSms(rig.server, token);
  expect((await rig.server.admin('user.User/add', { token, body: { username: MEMBER.username, nickname: 'Keys', group_id: 1, password: MEMBER.password } })).code).toBe(1);
  memberId = Number(((await rig.server.server.app.db.selectFrom('user').select('id').where('username', '=', MEMBER.username).executeTakeFirstOrThrow()) as { id: number }).id);
  await recordLedgerEntry(rig.server.server.app.db, rig.server.server.app.handle.dialect, { kind: 'money', userId: memberId, amount: 5000, memo: 'Survey rewards' });
});

afterAll(async () => {
  await rig?.close();
});

/** Whether `target` holds the keyboard focus. */
function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}

/** Presses Tab (Shift+Tab backwards) until `target` has focus, as a person would; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, { limit = 60, back = false } = {}): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses < limit; presses += 1) {
    if (await hasFocus(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  expect(await hasFocus(target), `reached by Tab within ${limit} presses`).toBe(true);
}

/** What has focus: its tag, its text (or label) and whether it sits inside `<main>`. */
function focused(page: Page): Promise<{ tag: string; text: string; inMain: boolean; inDialog: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement ?? document.body;
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
      inMain: Boolean(element.closest('main')),
      inDialog: Boolean(element.closest('[role="dialog"], [role="alertdialog"]')),
    };
  });
}

async function adminRow(username: string): Promise<{ nickname: string } | undefined> {
  return (await rig.server.server.app.db.selectFrom('admin').select(['nickname']).where('username', '=', username).executeTakeFirst()) as { nickname: string } | undefined;
}

describe('keyboard only', () => {
  it('admin: logs in, opens a list from the menu, adds a row in the dialog and deletes it; Escape closes dialogs, asking when input would be lost', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
      await tabTo(page, page.getByRole('textbox', { name: '用户名' }));
      await page.keyboard.type('admin');
      await tabTo(page, page.getByLabel('密码', { exact: true }));
      await page.keyboard.type(ADMIN_PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(adminPath('/dashboard'));
      // After the login focus is on the page's heading, not on <body>.
      await poll(() => focused(page)).toEqual({ tag: 'h1', text: '控制台', inMain: true, inDialog: false });

      // The menu: a directory opens with Enter and says so; its page opens with Enter.
      const menu = page.getByRole('navigation', { name: '主菜单' });
      const directory = menu.getByRole('button', { name: '权限管理', exact: true });
      await tabTo(page, directory, { back: true });
      if ((await directory.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('Enter');
      await poll(() => directory.getAttribute('aria-expanded')).toBe('true');
      const entry = menu.getByRole('button', { name: '管理员管理', exact: true });
      await tabTo(page, entry);
      await page.keyboard.press('Enter');
      await page.waitForURL(adminPath('/auth/admin'));
      await poll(() => focused(page)).toEqual({ tag: 'h1', text: '管理员管理', inMain: true, inDialog: false });
      expect(await entry.getAttribute('aria-current')).toBe('page');
      const main = page.getByRole('main');
      await main.getByRole('row').filter({ hasText: 'admin' }).first().waitFor();
      // The next Tab starts inside the page, not at the top of the document.
      await page.keyboard.press('Tab');
      expect((await focused(page)).inMain).toBe(true);

      const create = main.getByRole('link', { name: '新建' }).first();
      const dialog = page.getByRole('dialog', { name: '添加管理员' });
      const username = dialog.getByRole('textbox', { name: '用户名', exact: true });

      // Escape on an untouched form closes at once; focus goes back to the button that opened it.
      await tabTo(page, create);
      await page.keyboard.press('Enter');
      await page.waitForURL(adminPath('/auth/admin/create'));
      await dialog.waitFor();
      await poll(async () => (await focused(page)).inDialog).toBe(true);
      await page.keyboard.press('Escape');
      await page.waitForURL(adminPath('/auth/admin'));
      await dialog.waitFor({ state: 'detached' });
      await poll(() => hasFocus(create)).toBe(true);

      // Escape with something typed asks first; "keep editing" keeps it, "discard" drops it.
      const ask = page.getByRole('alertdialog', { name: zhPages.a11y.discard.title });
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await tabTo(page, username);
      await page.keyboard.type('draft1');
      await page.keyboard.press('Escape');
      await ask.waitFor();
      expect(await hasFocus(ask.getByRole('button', { name: zhPages.a11y.discard.keep }))).toBe(true);
      await page.keyboard.press('Enter');
      await ask.waitFor({ state: 'detached' });
      expect(await username.inputValue()).toBe('draft1');
      expect(page.url()).toMatch(adminPath('/auth/admin/create'));
      await page.keyboard.press('Escape');
      await ask.waitFor();
      await tabTo(page, ask.getByRole('button', { name: zhPages.a11y.discard.discard }));
      await page.keyboard.press('Enter');
      await page.waitForURL(adminPath('/auth/admin'));
      await poll(() => hasFocus(create)).toBe(true);
      expect(await adminRow('draft1')).toBeUndefined();

      // Add a row: every field by keyboard, the group from the drop-down with the arrows.
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await tabTo(page, username);
      await page.keyboard.type('keyed1');
      await tabTo(page, dialog.getByRole('textbox', { name: '昵称', exact: true }));
      await page.keyboard.type('Keyed One');
      await tabTo(page, dialog.getByRole('textbox', { name: '密码', exact: true }));
      await page.keyboard.type('Keyed_pass1');
      const group = dialog.getByRole('combobox', { name: '分组' });
      await tabTo(page, group);
      await page.keyboard.press('ArrowDown');
      const options = page.getByRole('listbox', { name: '分组' });
      const wanted = options.getByRole('option', { name: '二级管理员' });
      await options.waitFor();
      // The field keeps focus and points at the highlighted option.
      const highlighted = async () => (await group.getAttribute('aria-activedescendant')) === (await wanted.getAttribute('id'));
      for (let presses = 0; presses < 10 && !(await highlighted()); presses += 1) await page.keyboard.press('ArrowDown');
      expect(await highlighted()).toBe(true);
      await page.keyboard.press('Enter');
      // A multiple choice stays open: Escape closes the list only, not the form.
      if (await options.isVisible()) await page.keyboard.press('Escape');
      await options.waitFor({ state: 'detached' });
      expect(page.url()).toMatch(adminPath('/auth/admin/create'));
      await tabTo(page, dialog.getByRole('button', { name: '保存' }));
      await page.keyboard.press('Enter');
      await page.waitForURL(adminPath('/auth/admin'));
      await main.getByRole('row').filter({ hasText: 'keyed1' }).getByRole('cell', { name: 'Keyed One', exact: true }).waitFor();
      expect(await adminRow('keyed1')).toEqual({ nickname: 'Keyed One' });
      // Saved and closed: focus is back on the control that opened the dialog.
      await poll(() => hasFocus(create)).toBe(true);

      // With no row selected the bulk actions are neither shown nor in the Tab order: the stop after
      // "新建" is the select-all box. A selected row brings them, within reach of Shift+Tab.
      const keyedRow = main.getByRole('row').filter({ hasText: 'keyed1' });
      const bulkEdit = main.getByRole('button', { name: '批量编辑' });
      await page.keyboard.press('Tab');
      expect(await hasFocus(main.getByRole('checkbox', { name: '全选' }))).toBe(true);
      expect(await bulkEdit.count()).toBe(0);
      const selectKeyed = keyedRow.getByRole('checkbox', { name: '选择此行' });
      await tabTo(page, selectKeyed);
      await page.keyboard.press('Space');
      await tabTo(page, bulkEdit, { back: true });
      // …and on screen: what is drawn at the button's centre is the button, not the list's own buttons over it.
      await poll(() =>
        bulkEdit.evaluate((button) => {
          const box = button.getBoundingClientRect();
          return button.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
        }),
      ).toBe(true);
      await tabTo(page, selectKeyed);
      await page.keyboard.press('Space');
      await poll(() => bulkEdit.count()).toBe(0);

      // Delete the row by keyboard: its buttons leave with it, and focus goes to the page's heading,
      // not to the document (where the next Tab would start again from the top).
      await tabTo(page, keyedRow.getByRole('button', { name: '删除' }));
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('dialog').getByRole('button', { name: '确认' });
      await confirm.waitFor();
      await tabTo(page, confirm);
      await page.keyboard.press('Enter');
      await keyedRow.waitFor({ state: 'detached' });
      await poll(() => focused(page)).toEqual({ tag: 'h1', text: '管理员管理', inMain: true, inDialog: false });
      expect(await adminRow('keyed1')).toBeUndefined();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('admin: the skip link is the first stop and moves focus to the main content; tabs close with Delete', async () => {
    const { context, page, errors } = await newPage(rig.browser, { language: 'en' });
    try {
      await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
      await tabTo(page, page.getByRole('textbox', { name: 'Username' }));
      await page.keyboard.type('admin');
      await tabTo(page, page.getByLabel('Password', { exact: true }));
      await page.keyboard.type(ADMIN_PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(adminPath('/dashboard'));
      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/adminLog`));
      await page.getByRole('main').getByRole('row').nth(1).waitFor();

      // A page opened by its address starts at the top: the first Tab shows the skip link.
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: enPages.a11y.skipToContent });
      expect(await hasFocus(skip)).toBe(true);
      const box = await skip.boundingBox();
      expect(box && box.y >= 0 && box.height > 0, 'the focused skip link is on screen').toBe(true);
      await page.keyboard.press('Enter');
      expect(await focused(page)).toMatchObject({ tag: 'h1', inMain: true });

      // A second page from the menu: a second tab, focus on its heading.
      await tabTo(page, page.getByRole('navigation', { name: 'Main menu' }).getByRole('button', { name: 'Dashboard', exact: true }), { back: true });
      await page.keyboard.press('Enter');
      await page.waitForURL(adminPath('/dashboard'));
      await poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Dashboard' });

      // The tab strip is one stop: arrows move along it, Enter opens, Delete closes.
      const tabs = page.getByRole('tablist', { name: 'Open pages' });
      const logTab = tabs.getByRole('tab', { name: /Admin logs/ });
      const dashboardTab = tabs.getByRole('tab', { name: /Dashboard/ });
      await tabTo(page, dashboardTab, { back: true });
      await page.keyboard.press('ArrowLeft');
      expect(await hasFocus(logTab)).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL(adminPath('/auth/adminLog'));
      await poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Admin logs' });
      await tabTo(page, logTab, { back: true });
      await page.keyboard.press('ArrowRight');
      expect(await hasFocus(dashboardTab)).toBe(true);
      await page.keyboard.press('Delete');
      await poll(() => tabs.getByRole('tab').count()).toBe(1);
      // The page shown stays; focus stays in the strip, on the tab left.
      expect(page.url()).toMatch(adminPath('/auth/adminLog'));
      await poll(() => hasFocus(logTab)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('member: logs in, reaches the payouts from the menu and asks for a payout', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await page.goto(url(rig.server, '/user/login'));
      await tabTo(page, page.getByRole('textbox', { name: '用户名 / 邮箱 / 手机号' }));
      await page.keyboard.type(MEMBER.username);
      await tabTo(page, page.getByLabel('密码', { exact: true }));
      await page.keyboard.type(MEMBER.password);
      await page.keyboard.press('Enter');
      await page.waitForURL(url(rig.server, '/user/survey/tasks'));
      await poll(() => focused(page)).toEqual({ tag: 'h1', text: '任务大厅', inMain: true, inDialog: false });

      const payouts = page.getByRole('navigation', { name: '会员菜单' }).getByRole('link', { name: '提现' });
      await tabTo(page, payouts, { back: true });
      await page.keyboard.press('Enter');
      await page.waitForURL(url(rig.server, '/user/account/payout'));
      await poll(() => focused(page)).toMatchObject({ tag: 'h1', inMain: true });
      expect(await payouts.getAttribute('aria-current')).toBe('page');

      const wallet = page.getByRole('region', { name: '提现' });
      for (const [label, value] of [['开户人', 'Key Board'], ['开户银行', 'ICBC'], ['开户支行', 'Shanghai'], ['银行卡号', '6222000011113333']] as const) {
        await tabTo(page, wallet.getByLabel(label));
        await page.keyboard.type(value);
      }
      await tabTo(page, wallet.getByRole('button', { name: '保存收款信息' }));
      await page.keyboard.press('Enter');
      await wallet.getByText('收款信息已保存').waitFor();
      await tabTo(page, wallet.getByLabel(/^金额/));
      await page.keyboard.type('20');
      await tabTo(page, wallet.getByRole('button', { name: '申请提现' }));
      await page.keyboard.press('Enter');
      await wallet.getByRole('table', { name: '提现记录' }).getByText('待审核').waitFor();
      expect(Number(((await rig.server.server.app.db.selectFrom('user').select('money').where('id', '=', memberId).executeTakeFirstOrThrow()) as { money: number }).money)).toBe(3000);

      // A member form in a dialog: Escape with something typed asks first; closed, focus is back on its button.
      const profile = page.getByRole('navigation', { name: '会员菜单' }).getByRole('link', { name: '个人资料' });
      await tabTo(page, profile, { back: true });
      await page.keyboard.press('Enter');
      await page.waitForURL(url(rig.server, '/user/account/profile'));
      const bind = page.getByRole('main').getByRole('button', { name: '绑定' }).first();
      await tabTo(page, bind);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: /^绑定/ });
      const field = dialog.getByRole('textbox').first();
      await tabTo(page, field);
      await page.keyboard.type('typed');
      await page.keyboard.press('Escape');
      const ask = page.getByRole('alertdialog', { name: zhPages.a11y.discard.title });
      await ask.waitFor();
      await page.keyboard.press('Enter');
      await ask.waitFor({ state: 'detached' });
      expect(await field.inputValue()).toBe('typed');
      await page.keyboard.press('Escape');
      await tabTo(page, ask.getByRole('button', { name: zhPages.a11y.discard.discard }));
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await poll(() => hasFocus(bind)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
