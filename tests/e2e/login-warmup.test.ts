import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPath, ADMIN_BASE, loginForm, newPage, startRig, url, WAIT_MS, type E2eRig } from './helpers.js';
import { ADMIN_PASSWORD } from '../support/test-server.js';

/**
 * The admin login paints without the back office's code, and fetches it once the person starts on the
 * form, so that after the password (and captcha) the dashboard does not wait for it.
 */

let rig: E2eRig;

beforeAll(async () => {
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

describe('admin login', () => {
  it('fetches the back office when the person starts on the form, not with the page', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      const backOffice: string[] = [];
      page.on('request', (request) => /\/assets\/AdminApp-[^/]*\.js$/.test(request.url()) && backOffice.push(request.url()));
      await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
      const form = loginForm(page);
      await form.password.waitFor();
      await page.waitForLoadState('networkidle');
      expect(backOffice).toEqual([]);

      const fetched = page.waitForRequest(/\/assets\/AdminApp-[^/]*\.js$/, { timeout: WAIT_MS });
      await form.username.click();
      await page.keyboard.type('admin');
      await fetched;
      await form.password.fill(ADMIN_PASSWORD);
      await form.submit.click();
      await page.waitForURL(adminPath('/dashboard'));
      expect(backOffice).toHaveLength(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('admin login with a list as the target', () => {
  it('opens the list straight after the click: no loading screen, the menus with the login, the rows asked for once', async () => {
    const { page, context, errors } = await newPage(rig.browser);
    try {
      const calls: string[] = [];
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (/\/Index\/(?:index|login)$|\/auth\.Admin\/index$/.test(path)) calls.push(`${request.method()} ${path.slice(path.lastIndexOf('/', path.lastIndexOf('/') - 1) + 1)}`);
      });
      await page.goto(url(rig.server, `${ADMIN_BASE}/login?to=${encodeURIComponent('/auth/admin')}`));
      const form = loginForm(page);
      await form.username.click();
      await page.keyboard.type('admin');
      await form.password.fill(ADMIN_PASSWORD);
      await page.waitForLoadState('networkidle');
      calls.length = 0;
      // Whatever is drawn between the click and the list: never the loading screen's spinner.
      await page.evaluate(() => {
        (window as unknown as { loadingSeen: boolean }).loadingSeen = false;
        new MutationObserver(() => {
          if (document.querySelector('[aria-busy="true"]')) (window as unknown as { loadingSeen: boolean }).loadingSeen = true;
        }).observe(document, { subtree: true, childList: true, attributes: true });
      });
      await form.submit.click();
      await page.locator('main table tbody tr').first().waitFor({ timeout: WAIT_MS });
      expect(page.url()).toMatch(adminPath('/auth/admin'));
      expect(await page.evaluate(() => (window as unknown as { loadingSeen: boolean }).loadingSeen)).toBe(false);
      await page.waitForLoadState('networkidle');
      expect(calls).toEqual(['POST Index/login', 'GET auth.Admin/index']);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
