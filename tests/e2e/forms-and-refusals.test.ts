import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ADMIN_BASE, adminPath, errorToasts, loginForm, newPage, poll, startRig, url, type E2eRig } from './helpers.js';
import { expectNoViolations, settled, sweep, type Finding } from './axe.js';
import { ADMIN_PASSWORD } from '../support/test-server.js';

/**
 * In Chromium, in Chinese and English at 1440 and 390 px: a form that is a page of its own heads with
 * its title and goes back to its list; a radio group's label sits in the label column; buttons keep
 * their case; a delete confirmation says whether the rows can be restored; the recycle bin's details
 * read as the list did (labels, dates, "Not set"); a recycle rule covers a screen picked from a list;
 * and a page an admin may not open, or one that does not exist, says which inside the back office.
 * axe finds no critical or serious violation on any of them.
 */

let rig: E2eRig;
let superToken: string;
const LIMITED = { username: 'deskonly', password: 'Deskonly_pass1' };

beforeAll(async () => {
  rig = await startRig();
  superToken = (await rig.server.loginAdmin()).token;
  // An admin whose one group grants the dashboard and nothing else.
  const rules = await rig.server.server.app.db.selectFrom('admin_rule').select('id').where('name', 'in', ['dashboard', 'dashboard/index']).execute();
  expect((await rig.server.admin('auth.Group/add', { token: superToken, body: { pid: 1, name: 'Desk only', rules: rules.map((row) => row.id), status: '1' } })).code).toBe(1);
  const group = await rig.server.server.app.db.selectFrom('admin_group').select('id').where('name', '=', 'Desk only').executeTakeFirstOrThrow();
  const added = await rig.server.admin('auth.Admin/add', { token: superToken, body: { username: LIMITED.username, nickname: 'Desk', password: LIMITED.password, group_arr: [group.id], status: '1' } });
  expect(added.code, added.msg).toBe(1);
});

afterAll(async () => {
  await rig?.close();
});

const WORDS = {
  'zh-cn': {
    back: '返回列表', add: /^添加/, save: '保存', create: '新建', remove: '删除', confirm: '确认', cancel: '取消', details: '详情', close: '关闭',
    status: '状态', enable: '启用', notSet: '未设置', recycled: '删除的记录会保存在数据回收站，可从那里恢复。', gone: '此页面没有数据回收规则：删除后无法恢复。',
    screen: '适用页面', ruleName: '规则名称', denied: '无权访问此页面', missing: '页面不存在', mainMenu: '主菜单', home: '打开首页', team: '团队',
  },
  en: {
    back: 'Back to the list', add: /^Add /, save: 'Save', create: 'Create', remove: 'Delete', confirm: 'Confirm', cancel: 'Cancel', details: 'Details', close: 'Close',
    status: 'Status', enable: 'Enable', notSet: 'Not set', recycled: 'Deleted rows are kept in the recycle bin and can be restored from there.', gone: 'There is no recycle rule for this screen: deleted rows cannot be restored.',
    screen: 'Screen covered', ruleName: 'Rule name', denied: 'You may not open this page', missing: 'Page not found', mainMenu: 'Main menu', home: 'Go to the first page', team: 'Team',
  },
} as const;

type Language = keyof typeof WORDS;

/** The screen each run's recycle rule covers, picked by its controller file (each may have one rule; never the admin groups', whose deletes the runs expect to be for good). */
const SCREENS = ['survey/QuickTask.php', 'routine/MailTemplate.php', 'routine/SmsTemplate.php', 'user/Group.php'];

async function signIn(page: Page, language: Language, username: string, password: string): Promise<void> {
  await page.goto(url(rig.server, `${ADMIN_BASE}/login`));
  const form = loginForm(page, language);
  await form.username.fill(username);
  await form.password.fill(password);
  await form.submit.click();
  await page.waitForURL(adminPath('/dashboard'));
}

const rowWith = (page: Page, text: string): Locator => page.getByRole('main').getByRole('row').filter({ hasText: text });

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not drawn');
  return found;
}

describe('forms, delete confirmations, the recycle bin and refusals', () => {
  let run = 0;
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      const width = phone ? 390 : 1440;
      it(`reads as a person expects (${language}, ${width} px)`, async () => {
        const words = WORDS[language];
        const suffix = `${language} ${width}`;
        const screen = SCREENS[run++];
        const findings: Finding[] = [];
        // A team and an admin group to delete, made as an operator would have.
        const teamName = `Night shift ${suffix}`;
        expect((await rig.server.admin('team.Team/add', { token: superToken, body: { name: teamName, status: 'enable' } })).code).toBe(1);
        const groupName = `Auditors ${suffix}`;
        expect((await rig.server.admin('auth.Group/add', { token: superToken, body: { pid: 1, name: groupName, rules: [], status: '1' } })).code).toBe(1);

        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await signIn(page, language, 'admin', ADMIN_PASSWORD);
          const main = page.getByRole('main');

          // A full-page form: its title heads it, and a way back leads to its list.
          await page.goto(url(rig.server, `${ADMIN_BASE}/auth/group/create`));
          const heading = main.getByRole('heading', { level: 2, name: words.add });
          await heading.waitFor();
          const save = main.getByRole('button', { name: words.save });
          await save.waitFor();
          // Buttons keep the case they are written in ("Save", not "SAVE").
          expect(await save.evaluate((element) => getComputedStyle(element).textTransform)).toBe('none');
          await settled(page);
          findings.push(...(await sweep(page, `admin group form ${suffix}`)));
          await main.getByRole('button', { name: words.back }).click();
          await page.waitForURL(adminPath('/auth/group'));

          // A delete where no recycle rule applies says the rows cannot be restored.
          await rowWith(page, groupName).getByRole('button', { name: words.remove }).click();
          const goneDialog = page.getByRole('dialog');
          await goneDialog.getByText(words.gone).waitFor();
          await goneDialog.getByRole('button', { name: words.cancel }).click();
          await goneDialog.waitFor({ state: 'hidden' });
          await rowWith(page, groupName).waitFor();

          // The teams' form: the status radio group's label in the label column (above the options on a phone).
          await page.goto(url(rig.server, `${ADMIN_BASE}/team/team/create`));
          const form = page.getByRole('dialog');
          const legend = form.locator('legend').filter({ hasText: words.status });
          const option = form.getByRole('radio', { name: words.enable });
          await option.waitFor();
          const [label, choice, field] = [await box(legend), await box(option), await box(form.getByRole('textbox').first())];
          if (phone) {
            expect(label.y + label.height).toBeLessThanOrEqual(choice.y + 1);
          } else {
            expect(label.x + label.width).toBeLessThanOrEqual(choice.x);
            expect(Math.abs(label.y + label.height / 2 - (choice.y + choice.height / 2))).toBeLessThan(16);
            // the same column as the inputs above it: the options start where the text inputs do
            expect(Math.abs(choice.x - field.x)).toBeLessThan(12);
          }
          await page.keyboard.press('Escape');
          await form.waitFor({ state: 'hidden' });

          // A delete the teams' rule covers says the rows go to the recycle bin, and they do.
          await rowWith(page, teamName).getByRole('button', { name: words.remove }).click();
          const keptDialog = page.getByRole('dialog');
          await keptDialog.getByText(words.recycled).waitFor();
          findings.push(...(await sweep(page, `delete confirmation ${suffix}`)));
          await keptDialog.getByRole('button', { name: words.confirm }).click();
          await keptDialog.waitFor({ state: 'hidden' });
          await poll(() => rowWith(page, teamName).count()).toBe(0);

          // Its details in the bin (whose entry names the teams' screen): the status by its label, the missing leader as "Not set", dates as dates.
          await page.goto(url(rig.server, `${ADMIN_BASE}/security/dataRecycleLog`));
          await rowWith(page, words.team).first().getByRole('button', { name: words.details }).click();
          const details = page.getByRole('dialog', { name: words.details });
          await details.getByText(teamName).waitFor();
          await details.getByText(words.enable, { exact: true }).waitFor();
          await details.getByText(words.notSet, { exact: true }).first().waitFor();
          const text = (await details.textContent()) ?? '';
          expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
          expect(text).not.toMatch(/\b1\d{9}\b/);
          expect(text).not.toContain('enable');
          await settled(page);
          findings.push(...(await sweep(page, `recycle bin details ${suffix}`)));
          await details.getByRole('button', { name: words.close }).click();
          await details.waitFor({ state: 'hidden' });

          // A recycle rule covers a screen picked from a list, which fills its name, table and key.
          await page.goto(url(rig.server, `${ADMIN_BASE}/security/dataRecycle/create`));
          const ruleForm = page.getByRole('dialog');
          const picker = ruleForm.getByRole('combobox', { name: words.screen });
          await picker.fill(screen);
          await page.getByRole('listbox').getByRole('option', { name: screen }).click();
          const name = ruleForm.getByRole('textbox', { name: words.ruleName });
          await poll(() => name.inputValue()).not.toBe('');
          const ruleTitle = await name.inputValue();
          // no box to type a table or a key into
          expect(await ruleForm.getByRole('textbox').count()).toBe(1);
          await settled(page);
          findings.push(...(await sweep(page, `recycle rule form ${suffix}`)));
          await ruleForm.getByRole('button', { name: words.save }).click();
          await page.waitForURL(adminPath('/security/dataRecycle'));
          await rowWith(page, ruleTitle).waitFor();
          const rule = await rig.server.server.app.db.selectFrom('security_data_recycle').select(['controller', 'data_table', 'primary_key']).where('controller', '=', screen).executeTakeFirstOrThrow();
          expect(rule.data_table).not.toBe('');
          expect(rule.primary_key).toBe('id');
          expect(await errorToasts(page).count()).toBe(0);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }

        // An admin who may open only the dashboard: a page they lack says so inside the back office.
        const limited = await newPage(rig.browser, { language, phone });
        try {
          await signIn(limited.page, language, LIMITED.username, LIMITED.password);
          const main = limited.page.getByRole('main');
          await limited.page.goto(url(rig.server, `${ADMIN_BASE}/auth/rule`));
          await main.getByRole('heading', { name: words.denied }).waitFor();
          expect(new URL(limited.page.url()).pathname).toBe(`${ADMIN_BASE}/auth/rule`);
          await main.getByRole('link', { name: words.home }).waitFor();
          // the frame is still there: the menu (behind its button on a phone) and the tabs
          if (!phone) await limited.page.getByRole('navigation', { name: words.mainMenu }).waitFor();
          await limited.page.getByTestId('page-tabs').waitFor();
          await settled(limited.page);
          findings.push(...(await sweep(limited.page, `no permission ${suffix}`)));
          await limited.page.goto(url(rig.server, `${ADMIN_BASE}/no/such/page`));
          await main.getByRole('heading', { name: words.missing }).waitFor();
          expect(await main.getByRole('heading', { name: words.denied }).count()).toBe(0);
          await settled(limited.page);
          findings.push(...(await sweep(limited.page, `not found ${suffix}`)));
          await main.getByRole('link', { name: words.home }).click();
          await limited.page.waitForURL(adminPath('/dashboard'));
          expect(limited.errors).toEqual([]);
        } finally {
          await limited.context.close();
        }
        expectNoViolations(findings);
      }, 240_000);
    }
  }
});
