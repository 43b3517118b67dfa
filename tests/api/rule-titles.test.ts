import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Every menu and button rule of the back office reads in both languages: the stored titles
 * (the Chinese of BuildAdmin's data) are Chinese, never a bare action name; in English every menu has a
 * name (the shell's pack, or its schema's `x-menu.title`) and every button action one
 * (`shell.buttons.<action>`), each menu once; group lists describe their rules in the reader's language.
 */

const CHINESE = /[\u4e00-\u9fff]/;
const shell = (JSON.parse(readFileSync(resolve(import.meta.dirname, '../../locales/en/admin/shell.json'), 'utf8')) as { shell: { menus: Record<string, string>; buttons: Record<string, string> } }).shell;

describe('rule titles', () => {
  let server: TestServer;
  let rules: { name: string; title: string; type: string }[];

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    rules = (await server.server.app.db.selectFrom('admin_rule').select(['name', 'title', 'type']).execute()) as typeof rules;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('stores a Chinese title for every rule', () => {
    expect(rules.length).toBeGreaterThan(50);
    expect(rules.filter((rule) => !CHINESE.test(rule.title)).map((rule) => `${rule.name}: ${rule.title}`)).toEqual([]);
  });

  it('has an English name for every menu and every button action, and no two menus share one', () => {
    const titles = server.server.app.ruleTitles;
    const menus = rules.filter((rule) => rule.type !== 'button');
    const names = menus.map((rule) => titles.titleIn('en', 'admin_rule', rule));
    expect(menus.filter((rule, index) => CHINESE.test(names[index])).map((rule) => rule.name)).toEqual([]);
    const actions = [...new Set(rules.filter((rule) => rule.type === 'button').map((rule) => rule.name.slice(rule.name.lastIndexOf('/') + 1)))];
    expect(actions.filter((action) => !shell.buttons[action])).toEqual([]);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('describes a group\'s rules in the reader\'s language', async () => {
    const { token } = await server.loginAdmin();
    const ids = (await server.server.app.db.selectFrom('admin_rule').select('id').where('name', 'in', ['auth', 'auth/admin', 'auth/admin/index']).execute()).map((row) => Number(row.id));
    const added = await server.admin('auth.Group/add', { token, body: { pid: 1, name: 'Readers', rules: ids, status: '1' } });
    expect(added.code, added.msg).toBe(1);
    const list = async (lang: 'en' | 'zh-cn') => {
      const answer = await server.admin<{ list: { name: string; rules: string }[] }>('auth.Group/index', { token, lang, query: { quickSearch: 'Readers' } });
      return answer.data.list.find((row) => row.name === 'Readers')?.rules;
    };
    expect(await list('en')).toBe('Permissions and others, 3 rules in total');
    expect(await list('zh-cn')).toMatch(/^权限管理等 ?3 ?项/);
  });
});
