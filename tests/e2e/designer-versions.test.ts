import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/test-server.js';
import { expectNoViolations, sweep } from './axe.js';
import { ADMIN_BASE, loginAs, newPage, startRig, url, type E2eRig } from './helpers.js';
import { designOf, newField, requestBodyOf, scratchDesign } from '../../src/client/admin/pages/crud/design-model.js';

/**
 * The designer's versions and menu directory as an admin meets them (issue 40, item 16), in Chinese and
 * English at 1440 and 390 px: the new directory the module went under shows the title typed in the
 * designer, the log names the module by its title, its versions read as a list of changes, and "restore
 * this version" goes through the generate step (the data it would lose named and held back until
 * confirmed), ending in a new version that lists what came back. axe finds nothing serious on either dialog.
 */

type Row = Record<string, unknown>;

/** Two back-office walks with two dialogs each, on two busy cores. */
const WALK_TIMEOUT_MS = 120_000;

const WORDS = {
  'zh-cn': {
    openMenu: '打开菜单',
    mainMenu: '主菜单',
    directory: '商城',
    log: '生成记录',
    versions: '版本',
    dialog: (title: string) => `${title} 的版本`,
    version: (n: number) => `版本 ${n}`,
    changesOf: (n: number) => `版本 ${n} 的变更`,
    restore: (n: number) => `恢复此版本（版本 ${n}）`,
    restoreTitle: (title: string, n: number) => `恢复 ${title} 的版本 ${n}`,
    removed: '删除了字段“上架日期 (released)”',
    added: '新增了字段“备注 (note)”',
    back: '新增了字段“上架日期 (released)”',
    loses: '以下变更会丢失数据：',
    noteLost: '字段“备注 (note)”将被删除：其中的数据一并删除',
    confirm: '我已了解，仍然执行',
    apply: '立即生成',
    recycle: '删除的记录保存在数据回收站',
    noRule: '此模块还没有数据回收规则：删除的记录无法还原。',
    table: (name: string) => `数据表 ${name}`,
  },
  en: {
    openMenu: 'Open menu',
    mainMenu: 'Main menu',
    directory: 'Shop',
    log: 'Log',
    versions: 'Versions',
    dialog: (title: string) => `Versions of ${title}`,
    version: (n: number) => `Version ${n}`,
    changesOf: (n: number) => `Changes of version ${n}`,
    restore: (n: number) => `Restore this version (version ${n})`,
    restoreTitle: (title: string, n: number) => `Restore version ${n} of ${title}`,
    removed: 'Field Released (released) was removed',
    added: 'Field Note (note) was added',
    back: 'Field Released (released) was added',
    loses: 'These changes lose data:',
    noteLost: 'Field Note (note) is removed: the values it holds are deleted',
    confirm: 'I understand; apply them anyway',
    apply: 'Generate now',
    recycle: 'Keep deleted rows in the recycle bin',
    noRule: 'No recycle rule covers this module yet: its deleted rows cannot be restored.',
    table: (name: string) => `Table ${name}`,
  },
} as const;

/** One module per walk, all under the directory `shop` (titled by the first). */
const MODULES = [
  { table: 'shop_books', 'zh-cn': '图书', en: 'Books' },
  { table: 'shop_toys', 'zh-cn': '玩具', en: 'Toys' },
  { table: 'shop_games', 'zh-cn': '游戏', en: 'Games' },
  { table: 'shop_tools', 'zh-cn': '工具', en: 'Tools' },
] as const;

let rig: E2eRig;
let dir: string;

/** Version 1: a name and a release date; version 2: the date gone, a note added. */
async function designModule(token: string, module: (typeof MODULES)[number]): Promise<void> {
  const design = scratchDesign();
  design.table = {
    ...design.table,
    name: module.table,
    title: { 'zh-cn': module['zh-cn'], en: module.en },
    menuDirTitle: { 'zh-cn': '商城', en: 'Shop' },
  };
  design.fields.splice(
    1,
    0,
    newField('string', 'name', { 'zh-cn': '名称', en: 'Name' }),
    newField('date', 'released', { 'zh-cn': '上架日期', en: 'Released' }),
  );
  const first = await rig.server.admin('crud.Crud/generate', { token, body: requestBodyOf(design) });
  expect(first.code, first.msg).toBe(1);
  const log = (await rig.server.admin<{ list: Row[] }>('crud.Log/index', { token })).data.list;
  const start = await rig.server.admin<{ table: Row; fields: Row[] }>('crud.Crud/logStart', {
    token,
    body: { id: log[0].id },
  });
  const edited = designOf('log', start.data.table, start.data.fields, true);
  edited.fields = edited.fields.filter((field) => field.name !== 'released');
  edited.fields.splice(2, 0, newField('textarea', 'note', { 'zh-cn': '备注', en: 'Note' }));
  const second = await rig.server.admin('crud.Crud/generate', { token, body: requestBodyOf(edited, true) });
  expect(second.code, second.msg).toBe(1);
}

beforeAll(async () => {
  // Designed modules are written to the schema folder: a copy, never the project's own.
  dir = mkdtempSync(join(tmpdir(), 'chidao-versions-e2e-'));
  cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'locales'), join(dir, 'locales'), { recursive: true });
  rig = await startRig({}, join(dir, 'schemas'));
  const { token } = await rig.server.loginAdmin();
  for (const module of MODULES) await designModule(token, module);
}, WALK_TIMEOUT_MS);

afterAll(async () => {
  await rig?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the designer’s versions and menu directory', () => {
  const walks = [
    ['zh-cn', false],
    ['zh-cn', true],
    ['en', false],
    ['en', true],
  ] as const;
  for (const [index, [language, phone]] of walks.entries()) {
    const module = MODULES[index];
    it(
      `shows the directory's title, the log's titles, the versions as changes, and restores one (${language}, ${phone ? 390 : 1440} px)`,
      async () => {
        const words = WORDS[language];
        const title = module[language];
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await loginAs(page, rig.server, { language });
          // the menu directory made for `shop_` carries the title typed in the designer, its module beneath it
          if (phone) await page.getByRole('button', { name: words.openMenu }).click();
          const menu = page.getByRole('navigation', { name: words.mainMenu });
          const folder = menu.getByRole('button', { name: words.directory, exact: true }).first();
          if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
          await folder
            .locator('xpath=following-sibling::div[1]')
            .getByRole('button', { name: title, exact: true })
            .waitFor();
          expect(await menu.getByRole('button', { name: 'shop', exact: true }).count()).toBe(0);
          if (phone) await page.keyboard.press('Escape');

          await page.goto(url(rig.server, `${ADMIN_BASE}/crud/crud`));
          const main = page.getByRole('main');
          await main.getByRole('tab', { name: words.log }).click();
          // the log names the module by its title, the table beneath it
          const row = main
            .getByRole('row')
            .filter({ hasText: words.table(module.table) })
            .first();
          await row.getByRole('cell').first().getByText(title, { exact: true }).waitFor();
          await main.getByRole('button', { name: `${words.versions}: ${title}` }).click();

          const versions = page.getByRole('dialog', { name: words.dialog(title) });
          await versions
            .getByRole('region', { name: words.version(2) })
            .getByRole('list', { name: words.changesOf(2) })
            .getByText(words.removed, { exact: true })
            .waitFor();
          await versions
            .getByRole('region', { name: words.version(2) })
            .getByText(words.added, { exact: true })
            .waitFor();
          expect(await versions.getByText(/[{}]|x-ui|properties/).count()).toBe(0);
          expectNoViolations(await sweep(page, `versions of ${module.table} ${language} ${phone ? 390 : 1440}`));

          // restore version 1: the generate step names the note it would lose and waits for the confirmation
          await versions.getByRole('button', { name: words.restore(1) }).click();
          const restore = page.getByRole('dialog', { name: words.restoreTitle(title, 1) });
          await restore.getByRole('list', { name: words.loses }).getByText(words.noteLost, { exact: true }).waitFor();
          const apply = restore.getByRole('button', { name: words.apply });
          expect(await apply.isDisabled()).toBe(true);
          // the module was generated without a recycle rule: the checkbox says so and starts unticked
          const keep = restore.getByRole('checkbox', { name: words.recycle });
          expect(await keep.isChecked()).toBe(false);
          expect(await keep.getAttribute('aria-describedby').then((id) => page.locator(`#${id}`).textContent())).toBe(
            words.noRule,
          );
          expectNoViolations(await sweep(page, `restore ${module.table} ${language} ${phone ? 390 : 1440}`));
          await restore.getByRole('checkbox', { name: words.confirm }).check();
          await apply.click();
          await restore.waitFor({ state: 'detached' });

          // a new version, equal to the first, saying what came back; the history kept
          await main.getByRole('button', { name: `${words.versions}: ${title}` }).click();
          const after = page.getByRole('dialog', { name: words.dialog(title) });
          await after
            .getByRole('region', { name: words.version(3) })
            .getByText(words.back, { exact: true })
            .waitFor();
          await after.getByRole('region', { name: words.version(1) }).waitFor();
          expect(
            rig.server.server.app.resources.get(`crud/${module.table}`)?.fields.map((field) => field.name),
          ).toEqual(['id', 'name', 'released', 'create_time', 'update_time']);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      WALK_TIMEOUT_MS,
    );
  }
});
