import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The recycle-bin and sensitive-data rules as BuildAdmin's screens use them: `add` asked with
 * GET answers the controllers (as BuildAdmin's files) and tables to choose from, less those it leaves
 * out; a rule saved with BuildAdmin's request gets `controller_as` from its controller and takes effect.
 * A sensitive-data rule's fields travel as BuildAdmin's form and list have them.
 */

type Row = Record<string, unknown>;

describe.each(DATABASES)('data rules on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const admin = <T = Row>(path: string, request: Parameters<TestServer['admin']>[1] = {}) => server.admin<T>(path, { token, ...request });

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists the controllers and tables a recycle rule may name', async () => {
    const answer = await admin<{ controllers: Record<string, string>; tables: Record<string, string> }>('security.DataRecycle/add');
    expect(answer.code, answer.msg).toBe(1);
    const controllers = Object.values(answer.data.controllers);
    expect(controllers).toEqual(expect.arrayContaining(['auth/Admin.php', 'team/Team.php', 'survey/Survey.php', 'routine/Config.php']));
    // keyed by file: BuildAdmin's select posts the key of the choice as the rule's controller
    for (const [key, file] of Object.entries(answer.data.controllers)) expect(key).toBe(file);
    const lower = controllers.map((file) => file.toLowerCase());
    for (const left of ['routine/AdminInfo.php', 'user/MoneyLog.php', 'user/ScoreLog.php', 'Index.php', 'Ajax.php', 'Dashboard.php', 'Module.php', 'Terminal.php']) expect(lower).not.toContain(left.toLowerCase());
    expect(Object.keys(answer.data.tables)).toEqual(expect.arrayContaining(['admin', 'team']));
    expect(Object.keys(answer.data.tables)).not.toContain('token');
  });

  it('lists fewer for a sensitive-data rule, also beside the row being edited', async () => {
    const answer = await admin<{ controllers: Record<string, string> }>('security.SensitiveData/add');
    expect(answer.code, answer.msg).toBe(1);
    const controllers = Object.values(answer.data.controllers);
    for (const [key, file] of Object.entries(answer.data.controllers)) expect(key).toBe(file);
    expect(controllers).toContain('auth/Admin.php');
    expect(controllers).not.toContain('auth/AdminLog.php');
    expect(controllers).not.toContain('routine/Config.php');
    const first = (await server.server.app.db.selectFrom('security_sensitive_data').select('id').orderBy('id').executeTakeFirstOrThrow()) as { id: number };
    const edit = await admin<{ row: Row; controllers: Record<string, string> }>('security.SensitiveData/edit', { query: { id: first.id } });
    expect(edit.code, edit.msg).toBe(1);
    expect(edit.data.row.id).toBe(first.id);
    expect(Object.values(edit.data.controllers)).toContain('auth/Admin.php');
  });

  it('takes a sensitive-data rule\'s fields as BuildAdmin\'s form sends them, and answers them as its screens read them', async () => {
    // BuildAdmin's form: the chosen names in data_fields, the names with their notes in fields
    const added = await admin('security.SensitiveData/add', {
      body: {
        name: 'Team names', controller: 'team/Team.php', data_table: 'team', connection: '', primary_key: 'id', status: '1',
        data_fields: ['name', 'remark'], fields: [{ name: 'name', value: '团队名称' }, { name: 'remark', value: '' }],
      },
    });
    expect(added.code, added.msg).toBe(1);
    const rule = (await server.server.app.db.selectFrom('security_sensitive_data').select('id').where('name', '=', 'Team names').executeTakeFirstOrThrow()) as { id: number };
    // edit (GET): an object, name → note, which the form walks with for…in
    const edit = await admin<{ row: { data_fields: Record<string, string> } }>('security.SensitiveData/edit', { query: { id: rule.id } });
    expect(edit.data.row.data_fields).toEqual({ name: '团队名称', remark: '' });
    // the list: the notes, or the names where there is none
    const list = await admin<{ list: { id: number; data_fields: string[] }[] }>('security.SensitiveData/index', { query: { quickSearch: 'Team' } });
    expect(list.data.list.find((row) => row.id === rule.id)?.data_fields).toEqual(['团队名称', 'remark']);
    // saved back unchanged from the edit form, as the stock screen does: data_fields as the names
    const saved = await admin('security.SensitiveData/edit', {
      body: { id: rule.id, name: 'Team names', controller: 'team/Team.php', data_table: 'team', primary_key: 'id', status: '1', data_fields: ['name', 'remark'], fields: [{ name: 'name', value: '团队名称' }, { name: 'remark', value: '' }] },
    });
    expect(saved.code, saved.msg).toBe(1);
    // the rule takes effect: a changed team name is logged
    expect((await admin('team.Team/add', { body: { name: 'Day shift' } })).code).toBe(1);
    const team = (await server.server.app.db.selectFrom('team').select('id').where('name', '=', 'Day shift').executeTakeFirstOrThrow()) as { id: number };
    expect((await admin('team.Team/edit', { body: { id: team.id, name: 'Early shift' } })).code).toBe(1);
    const logged = (await server.server.app.db.selectFrom('security_sensitive_data_log').select(['data_field', 'before', 'after']).where('data_table', '=', 'team').execute()) as Row[];
    expect(logged).toEqual([expect.objectContaining({ data_field: 'name', before: 'Day shift', after: 'Early shift' })]);
  });

  it('derives controller_as from the controller and recycles what its controller deletes', async () => {
    // the controller as the stock form posts it: the key of the choice picked
    const added = await admin('security.DataRecycle/add', { body: { name: 'Teams', controller: 'team/Team.php', data_table: 'team', primary_key: 'id', status: '1' } });
    expect(added.code, added.msg).toBe(1);
    const rule = (await server.server.app.db.selectFrom('security_data_recycle').select(['id', 'controller_as']).where('name', '=', 'Teams').executeTakeFirstOrThrow()) as { id: number; controller_as: string };
    expect(rule.controller_as).toBe('team/team');

    expect((await admin('team.Team/add', { body: { name: 'Night shift' } })).code).toBe(1);
    const team = (await server.server.app.db.selectFrom('team').select('id').where('name', '=', 'Night shift').executeTakeFirstOrThrow()) as { id: number };
    expect((await admin('team.Team/del', { method: 'DELETE', query: { ids: [team.id] } })).code).toBe(1);
    const log = (await server.server.app.db.selectFrom('security_data_recycle_log').select(['recycle_id', 'data']).where('data_table', '=', 'team').executeTakeFirstOrThrow()) as { recycle_id: number; data: string };
    expect(Number(log.recycle_id)).toBe(Number(rule.id));
    expect(JSON.parse(log.data)).toMatchObject({ name: 'Night shift' });

    // Edited to another controller, the derived name follows.
    const edited = await admin('security.DataRecycle/edit', { body: { id: rule.id, name: 'Teams', controller: 'survey\\Provider.php', data_table: 'survey_provider', primary_key: 'id', status: '1' } });
    expect(edited.code, edited.msg).toBe(1);
    expect(((await server.server.app.db.selectFrom('security_data_recycle').select('controller_as').where('id', '=', rule.id).executeTakeFirstOrThrow()) as { controller_as: string }).controller_as).toBe('survey/provider');
  });
});
