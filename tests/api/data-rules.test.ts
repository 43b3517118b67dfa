import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The recycle-bin and sensitive-data rules as BuildAdmin's screens use them: `add` asked with
 * GET answers the controllers (as BuildAdmin's files) and tables to choose from, less those it leaves
 * out, and the screens to pick from; a rule saved with BuildAdmin's request gets `controller_as`, its table
 * and key from its controller and takes effect. A fresh install covers the main screens, and `GET del`
 * tells a confirmation whether the rows would be kept.
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

  it('derives controller_as, the table and the key from the controller and recycles what its controller deletes', async () => {
    // the controller as the stock form posts it: the key of the choice picked
    const added = await admin('security.DataRecycle/add', { body: { name: 'Quick tasks', controller: 'survey/QuickTask.php', data_table: 'quick_task', primary_key: 'id', status: '1' } });
    expect(added.code, added.msg).toBe(1);
    const rule = (await server.server.app.db.selectFrom('security_data_recycle').select(['id', 'controller_as']).where('name', '=', 'Quick tasks').executeTakeFirstOrThrow()) as { id: number; controller_as: string };
    expect(rule.controller_as).toBe('survey/quicktask');
    expect((await admin<{ recycle: boolean }>('survey.QuickTask/del')).data).toEqual({ recycle: true });

    // Edited to another controller (with the old table and key sent along), the derived values follow it.
    const edited = await admin('security.DataRecycle/edit', { body: { id: rule.id, name: 'Quick tasks', controller: 'routine\\MailTemplate.php', data_table: 'quick_task', primary_key: 'uuid', status: '1' } });
    expect(edited.code, edited.msg).toBe(1);
    const stored = (await server.server.app.db.selectFrom('security_data_recycle').select(['controller_as', 'data_table', 'primary_key']).where('id', '=', rule.id).executeTakeFirstOrThrow()) as Row;
    expect(stored).toEqual({ controller_as: 'routine/mailtemplate', data_table: 'mail_template', primary_key: 'id' });
    expect((await admin<{ recycle: boolean }>('survey.QuickTask/del')).data).toEqual({ recycle: false });
  });

  it('offers each screen a recycle rule may cover by its menu title, with its table and key', async () => {
    const answer = await admin<{ resources: { controller: string; title: string; data_table: string; primary_key: string }[] }>('security.DataRecycle/add', { lang: 'en' });
    expect(answer.code, answer.msg).toBe(1);
    const byController = new Map(answer.data.resources.map((screen) => [screen.controller, screen]));
    expect(byController.get('team/Team.php')).toEqual({ controller: 'team/Team.php', title: 'Teams', data_table: 'team', primary_key: 'id' });
    expect(byController.get('survey/Survey.php')).toMatchObject({ title: 'Survey list', data_table: 'survey' });
    // what the bin cannot keep is not offered
    for (const screen of answer.data.resources) expect(['token', 'captcha', 'user_money_log', 'user_score_log']).not.toContain(screen.data_table);
    expect(byController.has('user/MoneyLog.php')).toBe(false);
    const zh = await admin<{ resources: { controller: string; title: string }[] }>('security.DataRecycle/add', { lang: 'zh-cn' });
    expect(zh.data.resources.find((screen) => screen.controller === 'team/Team.php')?.title).toBe('团队管理');
  });

  it('covers surveys, providers, payouts and teams on a fresh install, and says where a delete cannot be restored', async () => {
    const rules = (await server.server.app.db.selectFrom('security_data_recycle').select(['controller_as', 'data_table', 'status']).execute()) as Row[];
    for (const [controller, table] of [['survey/survey', 'survey'], ['survey/provider', 'survey_provider'], ['user/payout', 'payout'], ['team/team', 'team']]) {
      expect(rules, controller).toContainEqual({ controller_as: controller, data_table: table, status: '1' });
    }
    // A confirmation asks first: the teams' deletes are kept, the admin groups' are not.
    expect((await admin<{ recycle: boolean }>('team.Team/del')).data).toEqual({ recycle: true });
    expect((await admin<{ recycle: boolean }>('auth.Group/del')).data).toEqual({ recycle: false });

    // A team deleted goes to the bin under the seeded rule, and the bin's details show it as the list did.
    const leader = (await server.server.app.db.selectFrom('user').select(['id', 'username']).orderBy('id').executeTakeFirstOrThrow()) as { id: number; username: string };
    expect((await admin('team.Team/add', { body: { name: 'Night shift', leader_id: leader.id } })).code).toBe(1);
    const team = (await server.server.app.db.selectFrom('team').select('id').where('name', '=', 'Night shift').executeTakeFirstOrThrow()) as { id: number };
    expect((await admin('team.Team/del', { method: 'DELETE', query: { ids: [team.id] } })).code).toBe(1);
    const log = (await server.server.app.db.selectFrom('security_data_recycle_log').select(['id', 'recycle_id', 'data']).where('data_table', '=', 'team').executeTakeFirstOrThrow()) as { id: number; recycle_id: number; data: string };
    const seeded = (await server.server.app.db.selectFrom('security_data_recycle').select('id').where('controller_as', '=', 'team/team').executeTakeFirstOrThrow()) as { id: number };
    expect(Number(log.recycle_id)).toBe(Number(seeded.id));
    const info = await admin<{ row: { data: Row; record: Row } }>('security.DataRecycleLog/info', { query: { id: log.id } });
    expect(info.code, info.msg).toBe(1);
    expect(info.data.row.data).toMatchObject({ name: 'Night shift', leader_id: leader.id });
    // the record as the teams' list has it: the leader by name, next to the stored key
    expect(info.data.row.record).toMatchObject({ id: team.id, name: 'Night shift', leader_id: leader.id, leader: expect.objectContaining({ username: leader.username }) });

    // Only an admin who may delete there is told: a reader of the teams' list is refused, as their delete is.
    const rows = await server.server.app.db.selectFrom('admin_rule').select('id').where('name', 'in', ['dashboard', 'dashboard/index', 'team', 'team/team', 'team/team/index']).execute();
    expect((await admin('auth.Group/add', { body: { pid: 1, name: 'Team readers', rules: rows.map((row) => row.id), status: '1' } })).code).toBe(1);
    const group = (await server.server.app.db.selectFrom('admin_group').select('id').where('name', '=', 'Team readers').executeTakeFirstOrThrow()) as { id: number };
    expect((await admin('auth.Admin/add', { body: { username: 'teamreader', nickname: 'Team reader', password: 'Reader_pass1', group_arr: [group.id], status: '1' } })).code).toBe(1);
    const reader = (await server.loginAdmin('teamreader', 'Reader_pass1')).token;
    expect((await server.admin('team.Team/index', { token: reader })).code).toBe(1);
    const refused = await server.admin('team.Team/del', { token: reader });
    expect({ code: refused.code, data: refused.data }).toEqual({ code: 401, data: [] });

    // With the teams' rule switched off, a delete there is for good, and the confirmation says so.
    await server.server.app.db.updateTable('security_data_recycle').set({ status: '0' }).where('id', '=', seeded.id).execute();
    expect((await admin<{ recycle: boolean }>('team.Team/del')).data).toEqual({ recycle: false });
  });
});
