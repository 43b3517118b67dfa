import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Every menu and button rule of the back office reads in both languages (issue 10): the stored titles
 * (the Chinese of BuildAdmin's data) are Chinese, never a bare action name, and the English pack names
 * every menu (`shell.menus.<name>`) and every button action (`shell.buttons.<action>`), each menu once.
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
    const menus = rules.filter((rule) => rule.type !== 'button');
    expect(menus.filter((rule) => !shell.menus[rule.name]).map((rule) => rule.name)).toEqual([]);
    const actions = [...new Set(rules.filter((rule) => rule.type === 'button').map((rule) => rule.name.slice(rule.name.lastIndexOf('/') + 1)))];
    expect(actions.filter((action) => !shell.buttons[action])).toEqual([]);
    const names = menus.map((rule) => shell.menus[rule.name]);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});
