import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * What a fresh install seeded reads in the reader's language: the member and admin rules' titles, the
 * recycle and sensitive-data rules' names (and the notes of the fields a seeded rule watches), and the
 * rule a recycle-bin entry names. A title or name an administrator wrote shows as they wrote it, and the
 * edit form always gets the stored value.
 */

type Row = Record<string, unknown>;
const CHINESE = /[\u4e00-\u9fff]/;

describe.each(DATABASES)('seeded texts on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const admin = <T = Row>(path: string, request: Parameters<TestServer['admin']>[1] = {}) => server.admin<T>(path, { token, ...request });
  const list = async (path: string, lang: 'en' | 'zh-cn', query: Row = {}) =>
    (await admin<{ list: Row[] }>(path, { lang, query: { limit: 100, ...query } })).data.list;
  const flat = (rows: Row[]): Row[] => rows.flatMap((row) => [row, ...flat((row.children as Row[] | undefined) ?? [])]);

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('titles the seeded member rules in the reader\'s language, and a renamed one as written', async () => {
    const byName = async (lang: 'en' | 'zh-cn') => Object.fromEntries(flat(await list('user.Rule/index', lang)).map((row) => [row.name, row.title]));
    expect(await byName('en')).toMatchObject({ survey: 'Surveys', 'account/overview': 'Overview', 'account/payout': 'Payouts', team: 'My team' });
    expect(await byName('zh-cn')).toMatchObject({ survey: '问卷任务', 'account/overview': '账户概览', 'account/payout': '提现' });
    const rule = (await server.server.app.db.selectFrom('user_rule').select('id').where('name', '=', 'team').executeTakeFirstOrThrow()) as { id: number };
    expect((await admin('user.Rule/edit', { body: { id: rule.id, title: '我们的团队' } })).code).toBe(1);
    expect((await byName('en')).team).toBe('我们的团队');
    // the form edits what is stored, in any language
    expect((await admin<{ row: Row }>('user.Rule/edit', { lang: 'en', query: { id: 1 } })).data.row.title).toBe('我的账户');
  });

  it('titles the seeded menu rules and their buttons in the reader\'s language', async () => {
    const rows = flat(await list('auth.Rule/index', 'en'));
    const titles = Object.fromEntries(rows.map((row) => [row.name, row.title]));
    expect(titles).toMatchObject({ dashboard: 'Dashboard', auth: 'Permissions', 'auth/admin/add': 'Add', 'crud/crud/generate': 'Generate' });
    expect(rows.filter((row) => CHINESE.test(String(row.title))).map((row) => row.name)).toEqual([]);
    expect(flat(await list('auth.Rule/index', 'zh-cn')).find((row) => row.name === 'dashboard')?.title).toBe('控制台');
  });

  it('names the seeded recycle and sensitive-data rules, and the watched fields\' notes, in the reader\'s language', async () => {
    const recycle = await list('security.DataRecycle/index', 'en');
    expect(recycle.map((row) => row.name).filter((name) => CHINESE.test(String(name)))).toEqual([]);
    expect(recycle.find((row) => row.data_table === 'team')?.name).toBe('Team');
    expect((await list('security.DataRecycle/index', 'zh-cn')).find((row) => row.data_table === 'team')?.name).toBe('团队');
    const sensitive = await list('security.SensitiveData/index', 'en');
    const admins = sensitive.find((row) => row.data_table === 'admin');
    expect(admins).toMatchObject({ name: 'Administrator data', data_fields: ['Username', 'Mobile number', 'Password', 'Status'] });
    expect(sensitive.map((row) => row.name).filter((name) => CHINESE.test(String(name)))).toEqual([]);
    const zh = (await list('security.SensitiveData/index', 'zh-cn')).find((row) => row.data_table === 'admin');
    expect(zh).toMatchObject({ name: '管理员数据', data_fields: ['用户名', '手机', '密码', '状态'] });
    // the edit form keeps the stored name
    expect((await admin<{ row: Row }>('security.SensitiveData/edit', { lang: 'en', query: { id: admins?.id } })).data.row.name).toBe('管理员数据');
  });

  it('names a recycle-bin entry\'s rule in the reader\'s language, in the list and the details', async () => {
    expect((await admin('team.Team/add', { body: { name: 'Night shift' } })).code).toBe(1);
    const team = (await server.server.app.db.selectFrom('team').select('id').where('name', '=', 'Night shift').executeTakeFirstOrThrow()) as { id: number };
    expect((await admin('team.Team/del', { method: 'DELETE', query: { ids: [team.id] } })).code).toBe(1);
    const entry = (await list('security.DataRecycleLog/index', 'en')).find((row) => row.data_table === 'team');
    expect(entry?.recycle).toMatchObject({ name: 'Team' });
    const zh = (await list('security.DataRecycleLog/index', 'zh-cn')).find((row) => row.data_table === 'team');
    expect(zh?.recycle).toMatchObject({ name: '团队' });
    const info = await admin<{ row: Row }>('security.DataRecycleLog/info', { lang: 'en', query: { id: entry?.id } });
    expect(info.data.row.recycle).toMatchObject({ name: 'Team' });
  });
});
