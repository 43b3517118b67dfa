import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD } from '../support/test-server.js';
import { ADMIN_BASE, adminPath, loginForm, newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * The web terminal drawer of the back office: a super admin opens it from the header, runs a command and
 * reads its output and exit code as they stream in; the runs stay for the session; on a phone the drawer
 * fits the screen; an administrator who is not a super admin has no terminal button.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

async function logIn(page: Page, language: 'zh-cn' | 'en', username = 'admin'): Promise<void> {
  await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
  const form = loginForm(page, language);
  await form.username.fill(username);
  await form.password.fill(ADMIN_PASSWORD);
  await form.submit.click();
  await page.waitForURL(adminPath('/dashboard'));
}

describe('terminal drawer', () => {
  it('runs a command from the header button and shows its output, status and exit code; the run stays for the session', async () => {
    const { context, page, errors } = await newPage(rig.browser, { language: 'en' });
    try {
      await logIn(page, 'en');
      await page.getByRole('button', { name: 'Terminal' }).click();
      const drawer = page.getByRole('dialog', { name: 'Terminal' });
      await drawer.getByRole('heading', { name: 'Commands' }).waitFor();
      expect(await drawer.getByText('No command has run in this session yet.').isVisible()).toBe(true);

      await drawer.getByRole('button', { name: 'Run: Show the Node.js version' }).click();
      const output = drawer.getByRole('log', { name: 'Output of Show the Node.js version' });
      await expect.poll(() => output.textContent(), { timeout: 15_000 }).toContain(process.version);
      expect(await output.textContent()).toContain('> node -v');
      await expect.poll(() => drawer.getByTestId('terminal-exit-code').first().textContent(), { timeout: 15_000 }).toBe('Exit code 0');
      expect(await drawer.getByTestId('terminal-run-status').first().textContent()).toBe('Succeeded');

      // Escape closes the drawer; the run is still listed when it opens again, and after a reload
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      await page.reload();
      await page.getByRole('button', { name: 'Terminal' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Terminal' }).getByRole('log', { name: 'Output of Show the Node.js version' }).textContent()).toContain(process.version);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a phone, in Chinese: the drawer fits the screen without sideways scrolling and shows the exit code of the run', async () => {
    const { context, page, errors } = await newPage(rig.browser, { language: 'zh-cn', phone: true });
    try {
      await logIn(page, 'zh-cn');
      await page.getByRole('button', { name: '终端' }).click();
      const drawer = page.getByRole('dialog', { name: '终端' });
      await drawer.getByRole('button', { name: '执行：查看 Node.js 版本' }).click();
      await expect.poll(() => drawer.getByTestId('terminal-exit-code').first().textContent(), { timeout: 15_000 }).toBe('退出码 0');
      expect(await drawer.getByTestId('terminal-run-status').first().textContent()).toBe('成功');
      const box = await drawer.boundingBox();
      expect(box?.width).toBeLessThanOrEqual(390);
      const overflow = await drawer.evaluate((element) => {
        const paper = element.querySelector('.MuiDrawer-paper') ?? element;
        return paper.scrollWidth - paper.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is not offered to an administrator who is not a super admin', async () => {
    const server = rig.server;
    const token = (await server.loginAdmin()).token;
    const rule = await server.server.app.db.selectFrom('admin_rule').select('id').where('name', '=', 'dashboard').executeTakeFirstOrThrow();
    expect((await server.admin('auth.Group/add', { token, body: { pid: 1, name: 'Viewers', rules: [Number(rule.id)], status: '1' } })).code).toBe(1);
    const group = await server.server.app.db.selectFrom('admin_group').select('id').where('name', '=', 'Viewers').executeTakeFirstOrThrow();
    const added = await server.admin('auth.Admin/add', { token, body: { username: 'viewer', nickname: 'viewer', password: ADMIN_PASSWORD, group_arr: [Number(group.id)], status: '1' } });
    expect(added.code, added.msg).toBe(1);

    const { context, page } = await newPage(rig.browser, { language: 'en' });
    try {
      await logIn(page, 'en', 'viewer');
      await page.getByRole('button', { name: 'Layout settings' }).waitFor();
      expect(await page.getByRole('button', { name: 'Terminal' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
