import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enConfig from '../../locales/en/admin/config.json';
import zhConfig from '../../locales/zh-cn/admin/config.json';
import zhServer from '../../locales/zh-cn/server/config.json';
import { expectNoViolations, settled, sweep } from './axe.js';
import { ADMIN_BASE, loginAs, newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * The config screen as a person reads it, in Chromium at 1440 and 390 px in zh-cn and en: every group
 * shows labels and help, never an item's raw name; the groups' editor shows each group by its title in
 * the page's language; a token lifetime reads and is entered in days, hours or minutes (2 hours saved is
 * 7200 seconds stored), and a lifetime out of bounds is refused on its field, changing nothing; a
 * switch's label sits in the label column with the other labels, on the config screen and in a generated
 * form. axe finds nothing serious. Screenshots of every group go to `$E2E_SCREENSHOTS`.
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-config-screen');
type Language = 'zh-cn' | 'en';
/** The server's English texts are the keys of its Chinese ones. */
const server = (language: Language, text: keyof typeof zhServer) => (language === 'zh-cn' ? zhServer[text] : text);
const WORDS = {
  'zh-cn': { ui: zhConfig.config, save: '保存', groups: '配置分组', status: '状态', subject: '主题' },
  en: { ui: enConfig.config, save: 'Save', groups: 'Config groups', status: 'Status', subject: 'Subject' },
} as const;

let rig: E2eRig;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
});

afterAll(async () => {
  await rig?.close();
});

async function stored(name: string): Promise<string | null | undefined> {
  const row = (await rig.server.server.app.db.selectFrom('config').select('value').where('name', '=', name).executeTakeFirst()) as { value: string | null } | undefined;
  return row?.value;
}

/** The items of each group as stored, and the stored group keys and titles. */
async function storedItems(): Promise<{ name: string; group: string }[]> {
  return (await rig.server.server.app.db.selectFrom('config').select(['name', 'group']).execute()) as { name: string; group: string }[];
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not drawn');
  return found;
}

/** Everything the card shows a person, line by line: its text and the values in its boxes. */
async function shownLines(card: Locator): Promise<string[]> {
  const lines = await card.evaluate((element) => {
    const values = [...element.querySelectorAll('input, textarea, select')].map((control) =>
      control instanceof HTMLSelectElement ? (control.selectedOptions[0]?.textContent ?? '') : control instanceof HTMLInputElement && ['checkbox', 'radio'].includes(control.type) ? '' : (control as HTMLInputElement).value,
    );
    return [...(element as HTMLElement).innerText.split('\n'), ...values];
  });
  return lines.map((line) => line.trim()).filter(Boolean);
}

/**
 * The raw names among the lines: a name with an underscore anywhere (`payout_min`), any name or group key
 * as a line of its own (`basics` in a box); "version" or "mail" inside a sentence is English, not a key.
 */
function rawNamesIn(lines: readonly string[], names: readonly string[]): string[] {
  return names.filter((name) => lines.some((line) => line === name || (name.includes('_') && line.includes(name))));
}

describe('the config screen', () => {
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      const width = phone ? 390 : 1440;
      it(`shows labels, titles and lifetimes as a person reads them (${language}, ${width} px)`, async () => {
        const { ui, save, groups: groupsName, status, subject } = WORDS[language];
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await loginAs(page, rig.server, { language });
          await page.goto(url(rig.server, `${ADMIN_BASE}/routine/config`));
          const tabs = page.getByRole('tablist', { name: groupsName }).getByRole('tab');
          await tabs.first().waitFor();
          const card = page.locator('.MuiCard-root').filter({ has: page.getByRole('tablist', { name: groupsName }) });
          const items = await storedItems();
          const keys = [...new Set(items.map((item) => item.group))];

          // Every group: no item's name and no group key anywhere a person reads; axe clean; a screenshot.
          const count = await tabs.count();
          expect(count).toBe(6);
          for (let index = 0; index < count; index += 1) {
            await tabs.nth(index).click();
            await poll(() => tabs.nth(index).getAttribute('aria-selected')).toBe('true');
            await card.locator('[data-config-item]').first().waitFor();
            await settled(page);
            const raw = rawNamesIn(await shownLines(card), [...items.map((item) => item.name), ...keys]);
            expect(raw, `raw names shown in group ${index + 1}`).toEqual([]);
            expectNoViolations(await sweep(page, `config group ${index + 1} (${language}, ${width} px)`, '.MuiCard-root'));
            await page.screenshot({ path: join(SHOTS, `${language}-${width}-group-${index + 1}.png`), fullPage: true });
          }

          await tabs.first().click();
          // The groups' editor: each group by its title in this language, which is what its tab says.
          const editor = card.locator('[data-config-item="config_group"]');
          const titleBoxes = editor.getByRole('textbox');
          await titleBoxes.first().waitFor();
          const titles = await titleBoxes.evaluateAll((boxes) => boxes.map((input) => (input as HTMLInputElement).value));
          const tabTitles = await tabs.allTextContents();
          expect(titles).toEqual(tabTitles);
          expect(titles).toContain(server(language, 'Basics'));
          expect(titles).toContain(server(language, 'Payouts'));

          // A lifetime reads in its unit: three days stored as 259200 seconds.
          const lifetime = card.locator('[data-config-item="admin_token_keep_time"]');
          const amount = lifetime.getByRole('textbox', { name: server(language, 'Admin token lifetime') });
          const unit = lifetime.getByRole('combobox', { name: ui.duration.unit });
          expect(await amount.inputValue()).toBe('3');
          expect(await unit.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe(ui.duration.units.day);

          // Out of bounds (half a minute): refused on the field in words, nothing stored.
          await amount.fill('30');
          await unit.selectOption('second');
          await page.getByRole('button', { name: save, exact: true }).click();
          const range = ui.duration.range.replace('%{min}', language === 'zh-cn' ? '1分钟' : '1 minute').replace('%{max}', language === 'zh-cn' ? '30天' : '30 days');
          await lifetime.getByText(range).waitFor();
          expect(await amount.getAttribute('aria-invalid')).toBe('true');
          // the other lifetime, untouched, is not refused
          expect(await card.locator('[data-config-item="user_token_keep_time"]').getByText(range).count()).toBe(0);
          expect(await stored('admin_token_keep_time')).toBe('259200');

          // Two hours are saved as 7200 seconds, and read back as 2 hours.
          await amount.fill('2');
          await unit.selectOption('hour');
          // the form's "check the fields" notice goes (a pointer resting on it would hold it) before saving again
          await page.mouse.move(1, 1);
          await page.locator('.MuiSnackbar-root').waitFor({ state: 'detached' });
          await page.getByRole('button', { name: save, exact: true }).click();
          await page.getByText(ui.saved).waitFor();
          await poll(() => stored('admin_token_keep_time')).toBe('7200');
          // the group's tabs and titles were sent back as stored: still translatable
          expect(JSON.parse((await stored('config_group')) ?? '[]')).toContainEqual({ key: 'basics', value: 'Basics' });
          await page.reload();
          await amount.waitFor();
          expect(await amount.inputValue()).toBe('2');
          expect(await unit.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe(ui.duration.units.hour);
          await rig.server.server.app.db.updateTable('config').set({ value: '259200' }).where('name', '=', 'admin_token_keep_time').execute();
          rig.server.server.app.config.invalidate();

          // A switch's label sits in the label column with the site name's label (above the switch on a phone).
          const switchLabel = card.locator('[data-config-item="open_member_center"] label').first();
          const siteLabel = card.locator('[data-config-item="site_name"] label').first();
          // named by its label; drawn where its track is (the input itself spans the ripple)
          expect(await card.getByRole('switch', { name: server(language, 'Member center open') }).isChecked()).toBe(true);
          const toggle = card.locator('[data-config-item="open_member_center"] .MuiSwitch-track');
          const siteBox = card.locator('[data-config-item="site_name"] .MuiOutlinedInput-root');
          await expectLabelInColumn(await box(switchLabel), await box(siteLabel), await box(toggle), await box(siteBox), phone);

          // The same in a generated form: the mail template's status switch.
          await page.goto(url(rig.server, `${ADMIN_BASE}/routine/mailTemplate/create`));
          const form = page.getByRole('dialog');
          await form.getByRole('switch', { name: status }).waitFor();
          const statusItem = form.locator('.MuiFormControl-root').filter({ has: page.getByRole('switch', { name: status }) }).last();
          const subjectItem = form.locator('.MuiFormControl-root').filter({ has: page.getByRole('textbox', { name: subject }) }).last();
          await settled(page);
          await expectLabelInColumn(
            await box(statusItem.locator('label').first()),
            await box(subjectItem.locator('label').first()),
            await box(statusItem.locator('.MuiSwitch-track')),
            await box(subjectItem.locator('.MuiOutlinedInput-root')),
            phone,
          );
          expectNoViolations(await sweep(page, `mail template form (${language}, ${width} px)`));
          await page.screenshot({ path: join(SHOTS, `${language}-${width}-mail-template-form.png`), fullPage: true });
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      }, 180_000);
    }
  }
});

/**
 * At 1440 px a switch's label fills the label column as a text box's does (same left and right edges),
 * on the switch's line, and the switch's track starts where the text box does; on a phone the label is
 * above the switch, both starting where the text box does.
 */
async function expectLabelInColumn(
  label: { x: number; y: number; width: number; height: number },
  otherLabel: { x: number; y: number; width: number; height: number },
  control: { x: number; y: number; width: number; height: number },
  otherControl: { x: number; y: number; width: number; height: number },
  phone: boolean,
): Promise<void> {
  if (phone) {
    expect(label.y + label.height).toBeLessThanOrEqual(control.y + 1);
    expect(Math.abs(label.x - otherControl.x)).toBeLessThan(4);
    expect(Math.abs(control.x - otherControl.x)).toBeLessThan(8);
    return;
  }
  expect(Math.abs(label.x - otherLabel.x)).toBeLessThan(1);
  expect(Math.abs(label.x + label.width - (otherLabel.x + otherLabel.width))).toBeLessThan(1);
  expect(label.x + label.width).toBeLessThanOrEqual(control.x);
  expect(Math.abs(label.y + label.height / 2 - (control.y + control.height / 2))).toBeLessThan(16);
  // the switch's track starts where the text box does
  expect(Math.abs(control.x - otherControl.x)).toBeLessThan(8);
}
