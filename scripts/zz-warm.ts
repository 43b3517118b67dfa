import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { createServer } from '../src/server/boot.js';
import { settingsFromEnv } from '../src/server/settings.js';
const work = mkdtempSync(join(tmpdir(), 'warm-'));
const settings = settingsFromEnv({ DATABASE_URL: `sqlite:${join(work, 'app.db')}`, ADMIN_PASSWORD: 'Bench_pass1', STORAGE_DIR: join(work, 'storage'), ADMIN_LOGIN_CAPTCHA: 'false', USER_LOGIN_CAPTCHA: 'false', API_GET_RATE_LIMIT: '0', AUTH_RATE_LIMIT: '0' }, process.cwd());
const server = await createServer(settings, { clientDir: process.env.DIR! });
const origin = (await server.http.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
async function journey(page: Page) {
  await page.locator('input[type="password"]').waitFor({ state: 'visible' });
  await page.locator('input[name="username"]').click(); await page.keyboard.type('admin');
  await page.locator('input[type="password"]').click(); await page.keyboard.type('Bench_pass1');
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const clicked = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.locator('main table tbody tr').first().waitFor({ state: 'visible' });
  return (await page.evaluate(() => performance.now())) - clicked;
}
for (let run = 0; run < 4; run++) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${origin}/chidaoadminstator/login?to=%2Fauth%2Fadmin`);
  const cold = await journey(page);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => { localStorage.removeItem('adminInfo'); history.pushState({}, '', '/chidaoadminstator/login?to=%2Fauth%2Fadmin'); dispatchEvent(new PopStateEvent('popstate')); });
  const warm = await journey(page);
  console.log(`cold ${cold.toFixed(0)}  warm ${warm.toFixed(0)}`);
  await page.context().close();
}
await browser.close(); await server.close();
