import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_BASE, adminPath, errorToasts, fillLogin, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * Managing the back office's own data through its screens: administrators (create, edit, delete),
 * the order of menu rules (drag and drop), and what an administrator with few rights gets to see.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

interface AdminRow {
  id: number;
  username: string;
  nickname: string;
}

async function adminRow(username: string): Promise<AdminRow | undefined> {
  const row = (await rig.server.server.app.db.selectFrom('admin').select(['id', 'username', 'nickname']).where('username', '=', username).executeTakeFirst()) as
    | AdminRow
    | undefined;
  return row ? { ...row, id: Number(row.id) } : undefined;
}

async function ruleIds(names: string[]): Promise<number[]> {
  const rows = (await rig.server.server.app.db.selectFrom('admin_rule').select(['id', 'name']).where('name', 'in', names).execute()) as { id: number; name: string }[];
  expect(rows.map((row) => row.name).sort()).toEqual([...names].sort());
  return rows.map((row) => Number(row.id));
}

async function weighOf(name: string): Promise<number> {
  const row = (await rig.server.server.app.db.selectFrom('admin_rule').select('weigh').where('name', '=', name).executeTakeFirstOrThrow()) as { weigh: number };
  return Number(row.weigh);
}

/** The table row showing `text` as one cell's whole text. */
function rowWith(page: Page, text: string) {
  return page.getByRole('main').getByRole('row').filter({ has: page.getByText(text, { exact: true }) });
}

describe('administrators', () => {
  it('are added, edited, deleted, and restored from the recycle bin through the screens', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/admin`));
      const main = page.getByRole('main');
      await rowWith(page, 'admin').waitFor();

      // Create: username, nickname, password and a group picked from the server's list.
      await main.getByRole('link', { name: '新建' }).first().click();
      await page.waitForURL(adminPath('/auth/admin/create'));
      const form = page.getByRole('dialog', { name: '添加管理员' });
      await form.getByRole('textbox', { name: '用户名', exact: true }).fill('editor1');
      await form.getByRole('textbox', { name: '昵称', exact: true }).fill('Editor One');
      await form.getByRole('textbox', { name: '密码', exact: true }).fill('Editor_pass1');
      await form.getByRole('combobox', { name: '分组' }).click();
      await page.getByRole('listbox', { name: '分组' }).getByRole('option', { name: '二级管理员' }).click();
      await form.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(adminPath('/auth/admin'));
      const created = rowWith(page, 'editor1');
      await created.getByRole('cell', { name: 'Editor One', exact: true }).waitFor();
      await created.getByRole('cell', { name: '二级管理员', exact: true }).waitFor();
      const stored = await adminRow('editor1');
      expect(stored).toMatchObject({ username: 'editor1', nickname: 'Editor One' });
      const groups = (await rig.server.server.app.db.selectFrom('admin_group_access').select('group_id').where('uid', '=', stored?.id ?? 0).execute()) as { group_id: number }[];
      expect(groups.map((row) => Number(row.group_id))).toEqual([3]);
      // The new administrator can log in with the password typed in the form.
      await expect(rig.server.loginAdmin('editor1', 'Editor_pass1')).resolves.toMatchObject({ token: expect.any(String) });

      // Edit the nickname.
      await created.getByRole('link', { name: '编辑' }).click();
      await page.waitForURL(adminPath(`/auth/admin/${stored?.id}`));
      const editForm = page.getByRole('dialog', { name: '编辑管理员' });
      const nickname = editForm.getByRole('textbox', { name: '昵称', exact: true });
      await poll(() => nickname.inputValue()).toBe('Editor One');
      await nickname.fill('Chief Editor');
      await editForm.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(adminPath('/auth/admin'));
      await rowWith(page, 'editor1').getByRole('cell', { name: 'Chief Editor', exact: true }).waitFor();
      expect(await main.getByRole('cell', { name: 'Editor One', exact: true }).count()).toBe(0);
      expect((await adminRow('editor1'))?.nickname).toBe('Chief Editor');

      // Delete, confirming in the dialog.
      await rowWith(page, 'editor1').getByRole('button', { name: '删除' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: '确认' }).click();
      // The dialog closes once the server answered (pessimistic); while it is open the list is hidden from
      // the accessibility tree, so its rows would count as gone before the delete happened.
      await dialog.waitFor({ state: 'hidden' });
      await poll(() => rowWith(page, 'editor1').count()).toBe(0);
      expect(await adminRow('editor1')).toBeUndefined();
      await rowWith(page, 'admin').waitFor();

      // The recycle bin kept it: restore it from there, with its password and its group.
      await page.goto(url(rig.server, `${ADMIN_BASE}/security/dataRecycleLog`));
      const entry = page.getByRole('main').getByRole('row').filter({ hasText: 'admin' }).first();
      await entry.getByRole('button', { name: '还原' }).click();
      await page.getByRole('dialog').getByRole('button', { name: '确认' }).click();
      await page.getByText('还原成功').waitFor();
      await poll(async () => (await adminRow('editor1'))?.nickname).toBe('Chief Editor');
      const restoredGroups = (await rig.server.server.app.db.selectFrom('admin_group_access').select('group_id').where('uid', '=', stored?.id ?? 0).execute()) as { group_id: number }[];
      expect(restoredGroups.map((row) => Number(row.group_id))).toEqual([3]);
      await expect(rig.server.loginAdmin('editor1', 'Editor_pass1')).resolves.toMatchObject({ token: expect.any(String) });
      expect(await errorToasts(page).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('own profile', () => {
  it('loads its messages only when opened, and saves a new nickname', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      // The page's own message file is a chunk named after it (locales/<lang>/admin/profile.json).
      const chunks: string[] = [];
      page.on('request', (request) => /\/assets\/(dashboard|profile)-[^/]*\.js$/.test(request.url()) && chunks.push(new URL(request.url()).pathname.split('/').pop() ?? ''));
      await loginAs(page, rig.server);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(chunks.some((name) => name.startsWith('dashboard-'))).toBe(true);
      expect(chunks.some((name) => name.startsWith('profile-'))).toBe(false);

      await page.getByRole('button', { name: '账户' }).click();
      await page.getByRole('menuitem', { name: '个人资料' }).click();
      await page.waitForURL(adminPath('/routine/adminInfo'));
      const main = page.getByRole('main');
      await main.getByText('编辑资料', { exact: true }).waitFor();
      expect(chunks.some((name) => name.startsWith('profile-'))).toBe(true);

      const nickname = main.getByRole('textbox', { name: '昵称', exact: true });
      await poll(() => nickname.inputValue()).toBe('Admin');
      await nickname.fill('Site Keeper');
      await main.getByRole('button', { name: '保存' }).click();
      await poll(async () => (await adminRow('admin'))?.nickname).toBe('Site Keeper');
      await poll(() => page.getByRole('button', { name: '账户' }).textContent()).toContain('Site Keeper');
      expect(await errorToasts(page).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await rig.server.server.app.db.updateTable('admin').set({ nickname: 'Admin' }).where('username', '=', 'admin').execute();
      await context.close();
    }
  });
});

describe('system configuration', () => {
  it('is edited group by group; a refused value shows on its field and nothing is saved', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    const value = async (name: string) =>
      ((await rig.server.server.app.db.selectFrom('config').select('value').where('name', '=', name).executeTakeFirst()) as { value: string }).value;
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/routine/config`));
      const main = page.getByRole('main');
      await main.getByRole('tab', { name: '基础配置' }).waitFor();

      // An unknown time zone is refused on its field; the site name typed with it is not saved either.
      const siteName = main.getByRole('textbox', { name: '站点名称' });
      await poll(() => siteName.inputValue()).toBe('Chidao Survey');
      await siteName.fill('Panel Desk');
      await main.getByRole('textbox', { name: '时区' }).fill('Mars/Olympus');
      await main.getByRole('button', { name: '保存' }).click();
      await main.getByText('未知的时区：Mars/Olympus').waitFor();
      expect(await value('site_name')).toBe('Chidao Survey');

      await main.getByRole('textbox', { name: '时区' }).fill('Asia/Shanghai');
      await main.getByRole('button', { name: '保存' }).click();
      await page.getByText('配置已保存').waitFor();
      expect(await value('site_name')).toBe('Panel Desk');

      // Another group, with a choice from the item's dictionary.
      await main.getByRole('tab', { name: '邮件配置' }).click();
      await main.getByRole('combobox', { name: 'SMTP 验证方式' }).click();
      await page.getByRole('option', { name: 'TLS' }).click();
      await main.getByRole('button', { name: '保存' }).click();
      await poll(() => value('smtp_verification')).toBe('TLS');
      expect(await errorToasts(page).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await rig.server.server.app.config.set('site_name', 'Chidao Survey');
      await rig.server.server.app.config.set('smtp_verification', 'SSL');
      await context.close();
    }
  });
});

describe('menu rules', () => {
  it('are reordered within one parent by dragging a row onto another', async () => {
    const { context, page, errors } = await newPage(rig.browser);
    try {
      await loginAs(page, rig.server);
      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/rule`));
      // Under 权限管理: 角色组管理 (weigh 99) comes before 管理员管理 (weigh 98).
      const [groupsBefore, adminsBefore] = [await weighOf('auth/group'), await weighOf('auth/admin')];
      expect(groupsBefore).toBeGreaterThan(adminsBefore);
      const groups = rowWith(page, '角色组管理');
      const admins = rowWith(page, '管理员管理');
      await admins.waitFor();
      const rowIndex = (row: typeof admins) => row.evaluate((element) => (element as HTMLTableRowElement).sectionRowIndex);
      expect(await rowIndex(groups)).toBeLessThan(await rowIndex(admins));

      const sorted = page.waitForResponse((response) => response.url().includes('/auth.Rule/sortable'));
      await admins.getByRole('button', { name: '拖动排序' }).dragTo(groups);
      expect((await (await sorted).json()) as { code: number }).toMatchObject({ code: 1 });

      // The two weights swapped in the database, and the list shows the new order.
      await poll(() => weighOf('auth/admin')).toBe(groupsBefore);
      expect(await weighOf('auth/group')).toBe(adminsBefore);
      await poll(async () => (await rowIndex(admins)) < (await rowIndex(groups))).toBe(true);
      expect(await errorToasts(page).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('an administrator with few rights', () => {
  it('sees the admin list without create, edit or delete, and a forbidden page says so inside the shell', async () => {
    const superToken = (await rig.server.loginAdmin()).token;
    const rules = await ruleIds(['dashboard', 'dashboard/index', 'auth', 'auth/admin', 'auth/admin/index']);
    const group = await rig.server.admin('auth.Group/add', { token: superToken, body: { pid: 1, name: 'Readers', rules, status: '1' } });
    expect(group.code, group.msg).toBe(1);
    const groupId = Number(
      ((await rig.server.server.app.db.selectFrom('admin_group').select('id').where('name', '=', 'Readers').executeTakeFirstOrThrow()) as { id: number }).id,
    );
    const added = await rig.server.admin('auth.Admin/add', {
      token: superToken,
      body: { username: 'reader', nickname: 'Reader', password: 'Reader_pass1', group_arr: [groupId], status: '1' },
    });
    expect(added.code, added.msg).toBe(1);

    const { context, page, errors } = await newPage(rig.browser);
    try {
      // Asking for the list first: the login page sends the reader back there.
      await page.goto(url(rig.server, `${ADMIN_BASE}/auth/admin`));
      await page.waitForURL(adminPath('/login'));
      await fillLogin(page, { username: 'reader', password: 'Reader_pass1' });
      await page.waitForURL(adminPath('/auth/admin'));
      const main = page.getByRole('main');
      await rowWith(page, 'reader').waitFor();

      expect(await main.getByRole('link', { name: '新建' }).count()).toBe(0);
      expect(await main.getByRole('link', { name: '编辑' }).count()).toBe(0);
      expect(await main.getByRole('button', { name: '删除' }).count()).toBe(0);
      expect(await main.getByRole('checkbox', { name: '全选' }).count()).toBe(0);
      // Only the granted menus.
      const menu = page.getByRole('navigation', { name: '主菜单' });
      await poll(() => menu.getByRole('button').allTextContents()).toEqual(['控制台', '权限管理', '管理员管理']);

      // A screen of the system outside the reader's menus, and a form the reader may not use: "no
      // permission", inside the back office (its menu still there).
      for (const forbidden of ['/auth/rule', '/auth/admin/create']) {
        await page.goto(url(rig.server, `${ADMIN_BASE}${forbidden}`));
        await main.getByRole('heading', { name: '无权访问此页面' }).waitFor();
        await main.getByText('您所在的角色组不包含此页面的权限').waitFor();
        expect(new URL(page.url()).pathname.startsWith(ADMIN_BASE)).toBe(true);
        expect(await main.getByRole('heading', { name: '页面不存在' }).count()).toBe(0);
        await menu.getByRole('button', { name: '控制台' }).waitFor();
      }
      // A page that does not exist at all says so instead, in the shell as well.
      await page.goto(url(rig.server, `${ADMIN_BASE}/no/such/page`));
      await main.getByRole('heading', { name: '页面不存在' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`${ADMIN_BASE}/no/such/page`);
      expect(await main.getByRole('heading', { name: '无权访问此页面' }).count()).toBe(0);
      await menu.getByRole('button', { name: '控制台' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
