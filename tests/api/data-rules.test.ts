import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The recycle-bin and sensitive-data rules as BuildAdmin's screens use them (issue 8): `add` asked with
 * GET answers the controllers (as BuildAdmin's files) and tables to choose from, less those it leaves
 * out; a rule saved with BuildAdmin's request gets `controller_as` from its controller and takes effect.
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
    const lower = controllers.map((file) => file.toLowerCase());
    for (const left of ['routine/AdminInfo.php', 'user/MoneyLog.php', 'user/ScoreLog.php', 'Index.php', 'Ajax.php', 'Dashboard.php']) expect(lower).not.toContain(left.toLowerCase());
    expect(Object.keys(answer.data.tables)).toEqual(expect.arrayContaining(['admin', 'team']));
    expect(Object.keys(answer.data.tables)).not.toContain('token');
  });

  it('lists fewer for a sensitive-data rule, also beside the row being edited', async () => {
    const answer = await admin<{ controllers: Record<string, string> }>('security.SensitiveData/add');
    expect(answer.code, answer.msg).toBe(1);
    const controllers = Object.values(answer.data.controllers);
    expect(controllers).toContain('auth/Admin.php');
    expect(controllers).not.toContain('auth/AdminLog.php');
    expect(controllers).not.toContain('routine/Config.php');
    const first = (await server.server.app.db.selectFrom('security_sensitive_data').select('id').orderBy('id').executeTakeFirstOrThrow()) as { id: number };
    const edit = await admin<{ row: Row; controllers: Record<string, string> }>('security.SensitiveData/edit', { query: { id: first.id } });
    expect(edit.code, edit.msg).toBe(1);
    expect(edit.data.row.id).toBe(first.id);
    expect(Object.values(edit.data.controllers)).toContain('auth/Admin.php');
  });

  it('derives controller_as from the controller and recycles what its controller deletes', async () => {
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
