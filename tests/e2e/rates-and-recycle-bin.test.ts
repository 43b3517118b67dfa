import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoViolations, sweep } from './axe.js';
import { ADMIN_PASSWORD } from '../support/test-server.js';
import { ADMIN_BASE, adminPath, loginForm, newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * A team's commission rate and the recycle bin as an operator reads them, in Chromium at 1440 and 390 px in
 * zh-cn and en: the teams list shows the rate as a percentage ("15.5%", never the stored 1550), the edit form
 * holds "15.5", refuses 150 with a translated message and saves 12.25 as 1225 basis points; the recycle bin
 * names a deleted provider's screen in the reader's language, not its table, and the admin who deleted it.
 * Axe-clean. Screenshots go to `$E2E_SCREENSHOTS`.
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-rates-and-recycle-bin');
const TEXTS = {
  'zh-cn': { save: '保存', tooHigh: '佣金比例不能大于 100%', provider: '问卷渠道' },
  en: { save: 'Save', tooHigh: 'Commission rate must not be more than 100%', provider: 'Provider' },
} as const;
const CASES = [
  { language: 'en', phone: false },
  { language: 'zh-cn', phone: false },
  { language: 'en', phone: true },
  { language: 'zh-cn', phone: true },
] as const;

let rig: E2eRig;
let token = '';
let teamId = 0;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  token = (await rig.server.loginAdmin()).token;
  expect((await rig.server.admin('team.Team/add', { token, body: { name: 'Rate team', commission_rate_bp: 1550 } })).code).toBe(1);
  teamId = Number((await rig.server.server.app.db.selectFrom('team').select('id').where('name', '=', 'Rate team').executeTakeFirstOrThrow()).id);
  expect((await rig.server.admin('survey.Provider/add', { token, body: { code: 'gone', name: 'Gone provider', secret: 'gone-secret' } })).code).toBe(1);
  const provider = await rig.server.server.app.db.selectFrom('survey_provider').select('id').where('code', '=', 'gone').executeTakeFirstOrThrow();
  expect((await rig.server.admin('survey.Provider/del', { token, method: 'DELETE', query: { ids: [provider.id] } })).code).toBe(1);
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

describe('rates and the recycle bin', () => {
  CASES.forEach(({ language, phone }) => {
    const width = phone ? 390 : 1440;
    it(`a commission rate reads and is typed as a percentage; the recycle bin names the screen and the admin (${language}, ${width} px)`, { timeout: 180_000 }, async () => {
      const texts = TEXTS[language];
      await rig.server.server.app.db.updateTable('team').set({ commission_rate_bp: 1550 }).where('id', '=', teamId).execute();
      const { page, context, errors } = await newPage(rig.browser, { language, phone });
      try {
        await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
        const login = loginForm(page, language);
        await login.username.fill('admin');
        await login.password.fill(ADMIN_PASSWORD);
        await login.submit.click();
        await page.waitForURL(adminPath('/dashboard'));

        await page.goto(url(rig.server, `${ADMIN_BASE}/team/team`));
        const main = page.getByRole('main');
        const row = main.getByRole('row').filter({ hasText: 'Rate team' });
        await row.getByText('15.5%', { exact: true }).waitFor();
        expect(await main.getByText('1550', { exact: true }).count()).toBe(0);
        expectNoViolations(await sweep(page, `teams ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-teams.png`), fullPage: true });

        await page.goto(url(rig.server, `${ADMIN_BASE}/team/team/${teamId}`));
        const dialog = page.getByRole('dialog');
        const rate = dialog.locator('input[data-widget="percent"]');
        await rate.waitFor();
        expect(await rate.inputValue()).toBe('15.5');
        await rate.fill('150');
        await rate.blur();
        await dialog.getByText(texts.tooHigh, { exact: true }).waitFor();
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-rate-refused.png`) });
        // Typed digit by digit: "12.2" on its way to "12.25" stays as typed.
        await rate.fill('');
        await rate.pressSequentially('12.25');
        expect(await rate.inputValue()).toBe('12.25');
        await dialog.getByRole('button', { name: texts.save, exact: true }).click();
        await row.getByText('12.25%', { exact: true }).waitFor();
        expect(await rig.server.server.app.db.selectFrom('team').select('commission_rate_bp').where('id', '=', teamId).executeTakeFirstOrThrow()).toEqual({ commission_rate_bp: 1225 });

        await page.goto(url(rig.server, `${ADMIN_BASE}/security/dataRecycleLog`));
        const entry = main.getByRole('row').filter({ hasText: texts.provider });
        // The screen it came from, beside the recycle rule (seeded under the same name), where the table's name was.
        await entry.getByText(texts.provider, { exact: true }).first().waitFor();
        expect(await entry.getByText(texts.provider, { exact: true }).count()).toBe(2);
        await entry.getByText('Admin', { exact: true }).waitFor();
        expect(await main.getByText('survey_provider', { exact: true }).count()).toBe(0);
        if (phone) expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(page, `recycle bin ${language} ${width}`));
        await page.screenshot({ path: join(SHOTS, `${language}-${width}-recycle-bin.png`), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
