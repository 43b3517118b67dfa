import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/test-server.js';
import { ADMIN_BASE, adminPath, loginAs, newPage, startRig, url, type E2eRig } from './helpers.js';
import { dynamicDb } from '../../src/server/db/connection.js';

/**
 * The CRUD designer in the back office, as an admin uses it, in Chinese and in English: design a module
 * with five field types (watching the live preview draw its form), generate it (the migration shown
 * first), open its screen from the menu that appears, add a row and find it in the list. Another admin's
 * back office, open all along and never reloaded, shows the new menu within 5 s.
 */

type Language = 'zh-cn' | 'en';

/** Two back offices, a design typed field by field and a generate: about 45 s on two busy cores, room to spare. */
const DESIGN_TIMEOUT_MS = 150_000;

const TEXTS = {
  'zh-cn': {
    start: '开始设计', tableName: '数据表名', titleZh: '标题（中文）', titleEn: '标题（英文）', newType: '新字段类型', add: '添加字段',
    fieldName: '字段名', labelZh: '名称（中文）', labelEn: '名称（英文）', generate: '生成', apply: '立即生成', live: '已上线', create: '新建', save: '保存',
    types: { string: '字符串（单行）', number: '整数', switch: '开关', select: '下拉选择（枚举）', date: '日期' }, steps: '数据库变更',
    choiceZh: '选项 1 的中文名称', choiceEn: '选项 1 的英文名称', color: '颜色', green: '绿色',
  },
  en: {
    start: 'Start designing', tableName: 'Table name', titleZh: 'Title (Chinese)', titleEn: 'Title (English)', newType: 'Type of the new field', add: 'Add field',
    fieldName: 'Field name', labelZh: 'Label (Chinese)', labelEn: 'Label (English)', generate: 'Generate', apply: 'Generate now', live: 'is live', create: 'Create', save: 'Save',
    types: { string: 'Text (one line)', number: 'Whole number', switch: 'Switch', select: 'Select (enum)', date: 'Date' }, steps: 'Changes to the database',
    choiceZh: 'Chinese label of choice 1', choiceEn: 'English label of choice 1', color: 'Colour', green: 'Green',
  },
} as const;


/** Pick an option of an MUI select. */
async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

let rig: E2eRig;

describe('the CRUD designer in the back office', () => {
  let dir: string;

  beforeAll(async () => {
    // Generated modules are written to the schema folder: a copy, never the project's own.
    dir = mkdtempSync(join(tmpdir(), 'chidao-designer-'));
    cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'locales'), join(dir, 'locales'), { recursive: true });
    rig = await startRig({}, join(dir, 'schemas'));
  });

  afterAll(async () => {
    await rig?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const modules: Record<Language, { table: string; zh: string; en: string; row: string }> = {
    'zh-cn': { table: 'book', zh: '图书', en: 'Books', row: '三体' },
    en: { table: 'film', zh: '电影', en: 'Films', row: 'Solaris' },
  };

  for (const language of ['zh-cn', 'en'] as const) {
    it(`designs a module of five field types, generates it and adds a row through its new screen (${language})`, async () => {
      const text = TEXTS[language];
      const module = modules[language];
      const { context, page, errors } = await newPage(rig.browser, { language });
      const other = await newPage(rig.browser, { language });
      try {
        await loginAs(page, rig.server, { language });
        // Another admin's back office, open on the dashboard the whole time: it is never reloaded.
        await loginAs(other.page, rig.server, { language });
        await page.goto(url(rig.server, `${ADMIN_BASE}/crud/crud`));
        const main = page.getByRole('main');
        await main.getByRole('button', { name: text.start }).click();

        await main.getByRole('textbox', { name: text.tableName }).fill(module.table);
        await main.getByRole('textbox', { name: text.titleZh }).fill(module.zh);
        await main.getByRole('textbox', { name: text.titleEn }).fill(module.en);

        // Five fields: the type picked for each new field, then its name and both labels.
        const fields: [keyof typeof text.types, string, string, string][] = [
          ['string', 'title', '书名', 'Title'],
          ['number', 'pages', '页数', 'Pages'],
          ['switch', 'on_sale', '在售', 'On sale'],
          ['select', 'genre', '类别', 'Genre'],
          ['date', 'published', '出版日期', 'Published'],
        ];
        for (const [type, name, zh, en] of fields) {
          await choose(page, main.getByRole('combobox', { name: text.newType }), text.types[type]);
          await main.getByRole('button', { name: text.add }).click();
          await main.getByRole('textbox', { name: text.fieldName, exact: true }).fill(name);
          await main.getByRole('textbox', { name: text.labelZh, exact: true }).fill(zh);
          await main.getByRole('textbox', { name: text.labelEn, exact: true }).fill(en);
          if (type !== 'select') continue;
          // The enum's first choice gets its labels in both languages and a colour.
          await main.getByRole('textbox', { name: text.choiceZh }).fill('小说');
          await main.getByRole('textbox', { name: text.choiceEn }).fill('Novel');
          await choose(page, main.getByRole('combobox', { name: text.color }).first(), text.green);
        }

        // The live preview draws the add form the module will have, in the admin's language.
        const preview = main.getByTestId('crud-preview-form');
        const titleLabel = language === 'en' ? 'Title' : '书名';
        await preview.getByRole('textbox', { name: titleLabel }).waitFor();
        await preview.getByRole('spinbutton', { name: language === 'en' ? 'Pages' : '页数' }).waitFor();

        // Generate: the migration first, then live.
        await main.getByRole('button', { name: text.generate, exact: true }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('list', { name: text.steps }).getByText(new RegExp(`^create table ${module.table} \\(id, title, pages, on_sale, genre, published, create_time, update_time\\)$`)).waitFor();
        const started = Date.now();
        await dialog.getByRole('button', { name: text.apply }).click();
        await main.getByRole('alert').filter({ hasText: text.live }).waitFor();
        const menuTitle = language === 'en' ? module.en : module.zh;
        const menuEntry = page.getByRole('navigation', { name: language === 'en' ? 'Main menu' : '主菜单' }).getByRole('button', { name: menuTitle });
        await menuEntry.waitFor();
        console.log(`[${language}] generate → menu in the designing back office in ${Date.now() - started} ms`);
        await other.page.getByRole('navigation', { name: language === 'en' ? 'Main menu' : '主菜单' }).getByRole('button', { name: menuTitle }).waitFor({ timeout: 5_000 });
        console.log(`[${language}] generate → menu in another admin's open back office in ${Date.now() - started} ms`);

        // Its screen from the menu: add a row, find it in the list.
        await menuEntry.click();
        await page.waitForURL(adminPath(`/${module.table}`));
        await main.getByRole('link', { name: text.create }).first().click();
        const add = page.getByRole('dialog');
        await add.getByRole('textbox', { name: titleLabel }).fill(module.row);
        await add.getByRole('spinbutton', { name: language === 'en' ? 'Pages' : '页数' }).fill('302');
        await add.getByRole('button', { name: text.save }).click();
        await page.waitForURL(adminPath(`/${module.table}`));
        const row = main.getByRole('row').filter({ hasText: module.row });
        await row.getByRole('cell', { name: '302', exact: true }).waitFor();
        const stored = await dynamicDb(rig.server.server.app.db).selectFrom(module.table).select(['title', 'pages']).execute();
        expect(stored).toEqual([{ title: module.row, pages: 302 }]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
        await other.context.close();
      }
    }, DESIGN_TIMEOUT_MS);
  }

  it('edits the module from the log: a renamed field keeps its rows, a removed one waits for confirmation, the versions list the changes (zh-cn)', async () => {
    const { context, page, errors } = await newPage(rig.browser, { language: 'zh-cn' });
    try {
      await loginAs(page, rig.server, { language: 'zh-cn' });
      await page.goto(url(rig.server, `${ADMIN_BASE}/crud/crud`));
      const main = page.getByRole('main');
      await main.getByRole('tab', { name: '生成记录' }).click();
      await main.getByRole('button', { name: /^编辑: 图书 #/ }).click();
      await main.getByRole('heading', { name: '编辑模块 book' }).waitFor();

      await main.getByRole('button', { name: /\(pages\)/ }).click();
      await main.getByRole('textbox', { name: '字段名', exact: true }).fill('page_count');
      await main.getByText('由 pages 改名：数据保留').waitFor();
      await main.getByRole('button', { name: '删除字段: on_sale' }).click();

      await main.getByRole('button', { name: '生成', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('list', { name: '数据库变更' }).getByText('rename column book.pages → page_count').waitFor();
      await dialog.getByRole('list', { name: '以下变更会丢失数据：' }).getByText('字段“在售 (on_sale)”将被删除：其中的数据一并删除', { exact: true }).waitFor();
      const apply = dialog.getByRole('button', { name: '立即生成' });
      expect(await apply.isDisabled()).toBe(true);
      await dialog.getByRole('checkbox', { name: '我已了解，仍然执行' }).check();
      await apply.click();
      await main.getByRole('alert').filter({ hasText: '已上线' }).waitFor();
      expect(await dynamicDb(rig.server.server.app.db).selectFrom('book').selectAll().execute()).toEqual([expect.objectContaining({ title: '三体', page_count: 302 })]);

      await main.getByRole('tab', { name: '生成记录' }).click();
      await main.getByRole('button', { name: '版本: 图书' }).click();
      const versions = page.getByRole('dialog', { name: '图书 的版本' });
      const between = versions.getByRole('list', { name: '两个版本之间的变更' });
      await between.getByText('删除了字段“在售 (on_sale)”', { exact: true }).waitFor();
      await between.getByText('字段“页数 (pages)”改名为 page_count：数据保留', { exact: true }).waitFor();
      await versions.getByRole('region', { name: '版本 2' }).getByText('字段“页数 (pages)”改名为 page_count：数据保留', { exact: true }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, DESIGN_TIMEOUT_MS);
});
