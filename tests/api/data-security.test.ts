import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type ApiRequest, type ApiResponse, type TestServer } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { toJson } from '../../src/server/db/values.js';

/**
 * The recycle bin and the sensitive-data log (docs/wire-contract.md#recycle-bin, #sensitive-data-log): `info`, `restore` and
 * `rollback` through HTTP, checked in the database — including snapshots that cannot come back,
 * forged log rows, hostile bodies and admins without the permission nodes.
 */

type Row = Record<string, unknown>;
interface ListData {
  list: Row[];
  total: number;
}

const PASSWORD = 'Secure_pass1';

describe.each(DATABASES)('data security logs on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let serial = 0;

  const db = () => server.server.app.db;
  const call = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });
  const zh = (key: string) => server.server.app.messages.translator('zh-cn')(key, []);

  async function ok<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
    const response = await call<T>(path, request);
    expect(response.status, path).toBe(200);
    expect(`${response.code} ${response.msg} ${JSON.stringify(response.data)}`, path).toMatch(/^1 /);
    return response.data;
  }

  function expectFailure(response: ApiResponse, msg: string, context = ''): void {
    expect(response.status, context).toBe(200);
    expect({ code: response.code, msg: response.msg }, context).toEqual({ code: 0, msg });
  }

  async function count(table: string): Promise<number> {
    const row = (await dynamicDb(db()).selectFrom(table).select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()) as { total: number | string };
    return Number(row.total);
  }

  async function one(table: string, column: string, value: unknown): Promise<Row | undefined> {
    return (await dynamicDb(db()).selectFrom(table).selectAll().where(column, '=', value).executeTakeFirst()) as Row | undefined;
  }

  async function canLogin(username: string, password: string): Promise<boolean> {
    return (await server.admin('Index/login', { body: { username, password } })).code === 1;
  }

  async function addAdmin(username: string, groups: number[] = [2]): Promise<number> {
    serial += 1;
    const mobile = `137${String(10_000_000 + serial).slice(-8)}`;
    await ok('auth.Admin/add', { body: { username, nickname: `Nick ${username}`, password: PASSWORD, email: `${username}.${serial}@example.com`, mobile, group_arr: groups, status: '1' } });
    return Number((await one('admin', 'username', username))?.id);
  }

  /** Delete an admin through the API; returns the id of its recycle-bin entry. */
  async function deleteAdmin(id: number): Promise<number> {
    await ok('auth.Admin/del', { method: 'DELETE', query: { ids: [id] } });
    const entry = (await db().selectFrom('security_data_recycle_log').select('id').where('data_table', '=', 'admin').orderBy('id', 'desc').executeTakeFirstOrThrow()) as { id: number };
    return Number(entry.id);
  }

  /** Insert a recycle-bin entry by hand (forged or legacy rows). */
  async function insertRecycleLog(values: Row): Promise<number> {
    await db()
      .insertInto('security_data_recycle_log')
      .values({ admin_id: 1, recycle_id: 1, data: '{}', data_table: 'admin', connection: '', primary_key: 'id', is_restore: 0, ip: '127.0.0.1', useragent: 'test', create_time: 1_700_000_000, ...values })
      .execute();
    const row = (await db().selectFrom('security_data_recycle_log').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()) as { id: number };
    return Number(row.id);
  }

  async function insertSensitiveLog(values: Row): Promise<number> {
    await db()
      .insertInto('security_sensitive_data_log')
      .values({ admin_id: 1, sensitive_id: 1, data_table: 'admin', connection: '', primary_key: 'id', data_field: 'nickname', data_comment: 'x', id_value: 1, before: '', after: '', ip: '127.0.0.1', useragent: 'test', is_rollback: 0, create_time: 1_700_000_000, ...values })
      .execute();
    const row = (await db().selectFrom('security_sensitive_data_log').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()) as { id: number };
    return Number(row.id);
  }

  async function sensitiveLogs(table: string, idValue: number, field: string): Promise<Row[]> {
    return (await db().selectFrom('security_sensitive_data_log').selectAll().where('data_table', '=', table).where('id_value', '=', idValue).where('data_field', '=', field).orderBy('id').execute()) as Row[];
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ token } = await server.loginAdmin());
  });

  afterAll(async () => {
    await server?.close();
  });

  // ---------------------------------------------------------------------------------------------
  describe('security.DataRecycleLog', () => {
    it('restores a deleted admin with its key, username, password hash and groups; the log row is deleted', async () => {
      const id = await addAdmin('restored1');
      const stored = (await one('admin', 'id', id)) as Row;
      const groupsBefore = ((await db().selectFrom('admin_group_access').select('group_id').where('uid', '=', id).execute()) as { group_id: number }[]).map((row) => Number(row.group_id));
      const logId = await deleteAdmin(id);
      expect(await one('admin', 'id', id)).toBeUndefined();
      expect(await canLogin('restored1', PASSWORD)).toBe(false);

      const response = await call('security.DataRecycleLog/restore', { body: { ids: [logId] } });
      expect({ code: response.code, msg: response.msg, data: response.data }).toEqual({ code: 1, msg: '', data: null });
      const back = (await one('admin', 'id', id)) as Row;
      expect(back).toEqual(stored);
      expect(back).toMatchObject({ id, username: 'restored1', nickname: 'Nick restored1' });
      expect(String(back.password).length).toBeGreaterThan(20);
      expect(await one('security_data_recycle_log', 'id', logId)).toBeUndefined();
      expect(await canLogin('restored1', PASSWORD)).toBe(true);
      // and with the groups it had, so it can work again
      const groups = (await db().selectFrom('admin_group_access').select('group_id').where('uid', '=', id).execute()) as { group_id: number }[];
      expect(groups.map((row) => Number(row.group_id))).toEqual(groupsBefore);
      expect(groupsBefore.length).toBeGreaterThan(0);

      // Restoring again: nothing left to restore, in English and in Chinese.
      expectFailure(await call('security.DataRecycleLog/restore', { body: { ids: [logId] } }), 'No rows were restore');
      const chinese = await call('security.DataRecycleLog/restore', { body: { ids: [logId] }, lang: 'zh-cn' });
      expectFailure(chinese, zh('No rows were restore'));
      expect(chinese.msg).toBe('没有记录被还原');
      expectFailure(await call('security.DataRecycleLog/restore', { body: { ids: [987654321] } }), 'No rows were restore');
    });

    it('restores several entries in one request and new rows get fresh keys afterwards', async () => {
      const first = await addAdmin('restored2');
      const second = await addAdmin('restored3');
      const firstLog = await deleteAdmin(first);
      const secondLog = await deleteAdmin(second);
      await ok('security.DataRecycleLog/restore', { body: { ids: [String(firstLog), secondLog] } });
      expect(Number((await one('admin', 'username', 'restored2'))?.id)).toBe(first);
      expect(Number((await one('admin', 'username', 'restored3'))?.id)).toBe(second);
      expect(await one('security_data_recycle_log', 'id', firstLog)).toBeUndefined();
      expect(await one('security_data_recycle_log', 'id', secondLog)).toBeUndefined();
      const fresh = await addAdmin('restored4');
      expect(fresh).toBeGreaterThan(second);
    });

    it('restores a member with its balance in cents as stored', async () => {
      await ok('user.User/add', { body: { username: 'richmember', nickname: 'Rich', password: 'Member_pass1', group_id: 1, gender: 0, status: 'enable' } });
      const member = (await one('user', 'username', 'richmember')) as Row;
      await db().updateTable('user').set({ money: 1250, score: 7 }).where('id', '=', Number(member.id)).execute();
      const stored = (await one('user', 'id', member.id)) as Row;
      await ok('user.User/del', { method: 'DELETE', query: { ids: [member.id] } });
      const entry = (await db().selectFrom('security_data_recycle_log').select('id').where('data_table', '=', 'user').orderBy('id', 'desc').executeTakeFirstOrThrow()) as Row;
      await ok('security.DataRecycleLog/restore', { body: { ids: [entry.id] } });
      expect(await one('user', 'id', member.id)).toEqual(stored);
      const edit = await ok<{ row: Row }>('user.User/edit', { query: { id: member.id } });
      expect(edit.row).toMatchObject({ username: 'richmember', money: '12.50', score: 7 });
    });

    it('skips a snapshot whose key or unique username is taken again, keeping its log row', async () => {
      const keyTaken = await addAdmin('keytaken1');
      const keyLog = await deleteAdmin(keyTaken);
      const snapshot = JSON.parse(String((await one('security_data_recycle_log', 'id', keyLog))?.data)) as Row;
      // the snapshot also holds the admin's groups (`group_arr`), which are not a column
      const { group_arr: groups, ...columns } = snapshot;
      expect(groups).toEqual([2]);
      await db().insertInto('admin').values({ ...columns, username: 'keytaken1b', email: '', mobile: '' }).execute();

      const nameTaken = await addAdmin('nametaken1');
      const nameLog = await deleteAdmin(nameTaken);
      const newcomer = await addAdmin('nametaken1');
      expect(newcomer).not.toBe(nameTaken);

      const admins = await count('admin');
      expectFailure(await call('security.DataRecycleLog/restore', { body: { ids: [keyLog, nameLog] } }), 'No rows were restore');
      expect(await count('admin')).toBe(admins);
      expect(await one('admin', 'id', nameTaken)).toBeUndefined();
      expect((await one('admin', 'id', keyTaken))?.username).toBe('keytaken1b');
      expect(await one('security_data_recycle_log', 'id', keyLog)).toBeDefined();
      expect(await one('security_data_recycle_log', 'id', nameLog)).toBeDefined();

      // A good entry next to skipped ones is restored alone.
      const good = await addAdmin('restored5');
      const goodLog = await deleteAdmin(good);
      await ok('security.DataRecycleLog/restore', { body: { ids: [keyLog, nameLog, goodLog] } });
      expect((await one('admin', 'id', good))?.username).toBe('restored5');
      expect(await one('security_data_recycle_log', 'id', goodLog)).toBeUndefined();
      expect(await one('security_data_recycle_log', 'id', keyLog)).toBeDefined();
      expect(await one('security_data_recycle_log', 'id', nameLog)).toBeDefined();
    });

    it('never restores into a table no schema declares, or with a forged key or snapshot', async () => {
      const forged = [
        await insertRecycleLog({ data_table: 'not_a_table', data: JSON.stringify({ id: 500, name: 'x' }) }),
        await insertRecycleLog({ data_table: 'admin; DROP TABLE admin', data: JSON.stringify({ id: 501, username: 'forged1' }) }),
        await insertRecycleLog({ data_table: 'admin', primary_key: 'username', data: JSON.stringify({ id: 502, username: 'forged2' }) }),
        await insertRecycleLog({ data_table: 'admin', data: JSON.stringify({ username: 'forged3' }) }),
        await insertRecycleLog({ data_table: 'admin', data: JSON.stringify({ id: 'abc', username: 'forged4' }) }),
        await insertRecycleLog({ data_table: 'admin', data: JSON.stringify({ id: 503, username: { nested: true } }) }),
        await insertRecycleLog({ data_table: 'admin', data: 'not json' }),
        await insertRecycleLog({ data_table: 'admin', data: '[1,2]' }),
      ];
      const admins = await count('admin');
      expectFailure(await call('security.DataRecycleLog/restore', { body: { ids: forged } }), 'No rows were restore');
      expect(await count('admin')).toBe(admins);
      for (const id of forged) expect(await one('security_data_recycle_log', 'id', id)).toBeDefined();

      // Columns the resource does not store are dropped; missing ones take their defaults.
      const extra = await insertRecycleLog({ data_table: 'admin', data: JSON.stringify({ id: 504, username: 'forged5', nickname: 'Forged', not_a_column: 'x', group_arr: [1] }) });
      await ok('security.DataRecycleLog/restore', { body: { ids: [extra] } });
      expect(await one('admin', 'id', 504)).toMatchObject({ username: 'forged5', nickname: 'Forged', status: '1' });
    });

    it('answers hostile bodies with code 0 and changes nothing', async () => {
      const id = await addAdmin('hostile1');
      const logId = await deleteAdmin(id);
      const logs = await count('security_data_recycle_log');
      const bodies: unknown[] = [
        {},
        { ids: String(logId) },
        { ids: logId },
        { ids: [] },
        { ids: { 0: logId } },
        { ids: [{ id: logId }] },
        { ids: [null] },
        { ids: [`${logId} OR 1=1`] },
        { ids: ["1); DELETE FROM admin; --"] },
        { ids: [logId, 'x'] },
        { ids: [-1] },
        { ids: [1.5] },
        { ids: Array.from({ length: 1001 }, (_, index) => index + 1) },
      ];
      for (const body of bodies) {
        expectFailure(await call('security.DataRecycleLog/restore', { body }), 'Parameter error', JSON.stringify(body).slice(0, 80));
      }
      expectFailure(await call('security.DataRecycleLog/restore', { body: '"just a string"' }), 'Parameter error', 'string body');
      expectFailure(await call('security.DataRecycleLog/restore', { query: { ids: [logId] } }), 'Parameter error', 'GET');
      expect(await count('security_data_recycle_log')).toBe(logs);
      expect(await one('admin', 'id', id)).toBeUndefined();
    });

    it('info decodes the snapshot, masks write-only fields and carries the relations; index masks them too', async () => {
      const id = await addAdmin('info1');
      const stored = (await one('admin', 'id', id)) as Row;
      const hash = String(stored.password);
      const logId = await deleteAdmin(id);
      const rule = (await one('security_data_recycle', 'controller_as', 'auth/admin')) as Row;

      const { row } = await ok<{ row: Row }>('security.DataRecycleLog/info', { query: { id: logId } });
      expect(row).toMatchObject({ id: logId, data_table: 'admin', primary_key: 'id', recycle: { id: Number(rule.id), name: 'Administrator' }, admin: { id: 1, nickname: 'Admin' } });
      expect(rule.name).toBe('管理员'); // a seeded name, read in the reader's language (English here)
      expect(row.data).toMatchObject({ id, username: 'info1', nickname: 'Nick info1', email: stored.email, mobile: stored.mobile, password: '******', salt: '' });
      expect(JSON.stringify(row)).not.toContain(hash);
      expect(row.admin).not.toHaveProperty('password');

      const list = await ok<ListData>('security.DataRecycleLog/index', { query: { initValue: [logId] } });
      expect(typeof list.list[0].data).toBe('string');
      expect(JSON.parse(String(list.list[0].data))).toMatchObject({ username: 'info1', password: '******' });
      expect(JSON.stringify(list)).not.toContain(hash);
      // the stored snapshot keeps the hash, so a restore brings it back
      expect(String((await one('security_data_recycle_log', 'id', logId))?.data)).toContain(hash);

      // Values holding non-empty JSON are decoded; other text stays text.
      const jsonLog = await insertRecycleLog({ data_table: 'admin_group', data: JSON.stringify({ id: 900, name: 'G', meta: '{"a":1,"b":[2]}', list: '[1,2]', empty: '{}', mobile: '13800000000', text: '{broken' }) });
      const decoded = await ok<{ row: { data: Row } }>('security.DataRecycleLog/info', { query: { id: jsonLog } });
      expect(decoded.row.data).toEqual({ id: 900, name: 'G', meta: { a: 1, b: [2] }, list: [1, 2], empty: '{}', mobile: '13800000000', text: '{broken' });

      expectFailure(await call('security.DataRecycleLog/info', { query: { id: 987654321 } }), 'Record not found');
      expectFailure(await call('security.DataRecycleLog/info', { query: { id: '1 OR 1=1' } }), 'Record not found');
      expectFailure(await call('security.DataRecycleLog/info'), 'Parameter id can not be empty');
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('security.SensitiveDataLog', () => {
    it('lists id_value as "<key>=<value>", info keeps it raw, rollback restores the old value and deletes the log', async () => {
      const id = await addAdmin('watched1');
      const original = String((await one('admin', 'id', id))?.mobile);
      await ok('auth.Admin/edit', { body: { id, mobile: '13900000001' } });
      const [entry] = await sensitiveLogs('admin', id, 'mobile');
      expect(entry).toMatchObject({ before: original, after: '13900000001' });
      const logId = Number(entry.id);

      const list = await ok<ListData>('security.SensitiveDataLog/index', { query: { initValue: [logId] } });
      expect(list.list[0]).toMatchObject({ id: logId, id_value: `id=${id}`, data_field: 'mobile', before: original, after: '13900000001' });
      const { row } = await ok<{ row: Row }>('security.SensitiveDataLog/info', { query: { id: logId } });
      expect(row).toMatchObject({ id: logId, id_value: id, data_table: 'admin', data_field: 'mobile', admin: { id: 1, nickname: 'Admin' } });
      // the seeded rule's name, stored in Chinese, read in the reader's language (English here)
      expect((await one('security_sensitive_data', 'controller_as', 'auth/admin'))?.name).toBe('管理员数据');
      expect((row.sensitive as Row).name).toBe('Administrator data');

      const response = await call('security.SensitiveDataLog/rollback', { body: { ids: [logId] } });
      expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: '' });
      expect((await one('admin', 'id', id))?.mobile).toBe(original);
      expect(await one('security_sensitive_data_log', 'id', logId)).toBeUndefined();

      expectFailure(await call('security.SensitiveDataLog/rollback', { body: { ids: [logId] } }), 'No rows were rollback');
      const chinese = await call('security.SensitiveDataLog/rollback', { body: { ids: [logId] }, lang: 'zh-cn' });
      expectFailure(chinese, zh('No rows were rollback'));
      expect(chinese.msg).toBe('没有记录被回滚');
    });

    it('rolls several changes of one field back to the oldest value', async () => {
      const id = await addAdmin('watched2');
      const original = String((await one('admin', 'id', id))?.mobile);
      await ok('auth.Admin/edit', { body: { id, mobile: '13900000011' } });
      await ok('auth.Admin/edit', { body: { id, mobile: '13900000012' } });
      const entries = await sensitiveLogs('admin', id, 'mobile');
      expect(entries).toHaveLength(2);
      await ok('security.SensitiveDataLog/rollback', { body: { ids: entries.map((entry) => entry.id) } });
      expect((await one('admin', 'id', id))?.mobile).toBe(original);
      expect(await sensitiveLogs('admin', id, 'mobile')).toHaveLength(0);
    });

    it('works for a rule created on another resource and converts logged text to the column type', async () => {
      // A rule on member groups, and the seeded member rule extended to an integer column.
      await db()
        .insertInto('security_sensitive_data')
        .values({ name: 'Member groups', controller: 'user/Group.php', controller_as: 'user/group', connection: '', data_table: 'user_group', primary_key: 'id', data_fields: toJson({ name: 'Group name' }), status: '1', create_time: 1_700_000_000, update_time: 1_700_000_000 })
        .execute();
      await db().updateTable('security_sensitive_data').set({ data_fields: toJson({ gender: 'Gender', status: 'Status' }) }).where('controller_as', '=', 'user/user').execute();

      const group = (await db().selectFrom('user_group').selectAll().orderBy('id').executeTakeFirstOrThrow()) as Row;
      await ok('user.Group/edit', { body: { id: group.id, name: 'Renamed group' } });
      const [groupLog] = await sensitiveLogs('user_group', Number(group.id), 'name');
      expect(groupLog).toMatchObject({ before: group.name, after: 'Renamed group', data_comment: 'Group name' });
      const list = await ok<ListData>('security.SensitiveDataLog/index', { query: { initValue: [groupLog.id] } });
      expect(list.list[0].id_value).toBe(`id=${String(group.id)}`);
      await ok('security.SensitiveDataLog/rollback', { body: { ids: [groupLog.id] } });
      expect((await one('user_group', 'id', group.id))?.name).toBe(group.name);

      await ok('user.User/add', { body: { username: 'member1', nickname: 'Member', password: 'Member_pass1', group_id: group.id, gender: 1, status: 'enable' } });
      const member = (await one('user', 'username', 'member1')) as Row;
      await ok('user.User/edit', { body: { id: member.id, gender: 2 } });
      const [genderLog] = await sensitiveLogs('user', Number(member.id), 'gender');
      expect(genderLog).toMatchObject({ before: '1', after: '2' });
      await ok('security.SensitiveDataLog/rollback', { body: { ids: [genderLog.id] } });
      const after = (await one('user', 'id', member.id)) as Row;
      expect(after.gender).toBe(1);
      const edit = await ok<{ row: Row }>('user.User/edit', { query: { id: member.id } });
      expect(edit.row.gender).toBe(1);
    });

    it('skips masked secrets, forged tables and fields, taken unique values and rows that are gone', async () => {
      const id = await addAdmin('secret1');
      await ok('auth.Admin/edit', { body: { id, password: 'Changed_pass2' } });
      const [passwordLog] = await sensitiveLogs('admin', id, 'password');
      expect(passwordLog).toMatchObject({ before: '******', after: '******' });

      // username u1 → u2, then somebody else takes u1
      await ok('auth.Admin/edit', { body: { id, username: 'secret1b' } });
      const [usernameLog] = await sensitiveLogs('admin', id, 'username');
      await addAdmin('secret1');

      const gone = await addAdmin('gone1');
      await ok('auth.Admin/edit', { body: { id: gone, mobile: '13900000021' } });
      const [goneLog] = await sensitiveLogs('admin', gone, 'mobile');
      await deleteAdmin(gone);

      const forged = [
        await insertSensitiveLog({ data_table: 'not_a_table', data_field: 'name', id_value: 1, before: 'x' }),
        await insertSensitiveLog({ data_table: 'admin', data_field: 'not_a_column', id_value: id, before: 'x' }),
        await insertSensitiveLog({ data_table: 'admin', data_field: 'group_arr', id_value: id, before: '1' }),
        await insertSensitiveLog({ data_table: 'admin', data_field: 'id', id_value: id, before: '1' }),
        await insertSensitiveLog({ data_table: 'admin', data_field: 'salt', id_value: id, before: 'abc' }),
        await insertSensitiveLog({ data_table: 'admin', primary_key: 'username', data_field: 'nickname', id_value: id, before: 'x' }),
        await insertSensitiveLog({ data_table: 'admin', data_field: 'login_failure', id_value: id, before: 'lots' }),
        await insertSensitiveLog({ data_table: 'admin', data_field: 'mobile', id_value: id, before: 'x'.repeat(300) }),
      ];
      const ids = [passwordLog.id, usernameLog.id, goneLog.id, ...forged];
      const before = (await one('admin', 'id', id)) as Row;
      expectFailure(await call('security.SensitiveDataLog/rollback', { body: { ids } }), 'No rows were rollback');
      expect(await one('admin', 'id', id)).toEqual(before);
      for (const logId of ids) expect(await one('security_sensitive_data_log', 'id', logId)).toBeDefined();
      expect(await canLogin('secret1b', 'Changed_pass2')).toBe(true);
    });

    it('answers hostile bodies with code 0 and changes nothing', async () => {
      const id = await addAdmin('hostile2');
      await ok('auth.Admin/edit', { body: { id, mobile: '13900000031' } });
      const [entry] = await sensitiveLogs('admin', id, 'mobile');
      const bodies: unknown[] = [{}, { ids: String(entry.id) }, { ids: { a: entry.id } }, { ids: [[entry.id]] }, { ids: [`${String(entry.id)}; DROP TABLE admin`] }, { ids: [] }];
      for (const body of bodies) {
        expectFailure(await call('security.SensitiveDataLog/rollback', { body }), 'Parameter error', JSON.stringify(body));
      }
      expectFailure(await call('security.SensitiveDataLog/rollback', { query: { ids: [entry.id] } }), 'Parameter error', 'GET');
      expect((await one('admin', 'id', id))?.mobile).toBe('13900000031');
      expect(await one('security_sensitive_data_log', 'id', entry.id)).toBeDefined();
      expectFailure(await call('security.SensitiveDataLog/info', { query: { id: 'x' } }), 'Record not found');
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('permissions', () => {
    it('names the screen a row came from in the reader\'s language, and the admin who deleted it only to a reader who may list administrators', async () => {
      const logId = await deleteAdmin(await addAdmin('named1'));
      const legacy = await insertRecycleLog({ admin_id: 0, data_table: 'survey_provider', data: JSON.stringify({ id: 901, name: 'Old provider' }) });
      const gone = await insertRecycleLog({ admin_id: 987654, data_table: 'no_such_table' });
      const binRules = ['security', 'security/dataRecycleLog', 'security/dataRecycleLog/index', 'security/dataRecycleLog/info'];
      const reader = await limitedToken('BinReaders', binRules);
      const adminReader = await limitedToken('AdminBin', [...binRules, 'auth', 'auth/admin', 'auth/admin/index']);
      const shown = async (token: string, lang: 'en' | 'zh-cn', id: number) => {
        const list = await ok<ListData>('security.DataRecycleLog/index', { token, lang, query: { initValue: [id] } });
        const { row } = await ok<{ row: Row }>('security.DataRecycleLog/info', { token, lang, query: { id } });
        expect(row.admin).toEqual(list.list[0].admin);
        expect(row.data_title).toBe(list.list[0].data_title);
        return { title: list.list[0].data_title, by: list.list[0].admin, table: list.list[0].data_table };
      };
      const deleter = Number((await one('security_data_recycle_log', 'id', logId))?.admin_id);

      expect(await shown(adminReader, 'en', logId)).toEqual({ title: 'Administrator', by: { id: deleter, nickname: 'Admin' }, table: 'admin' });
      expect(await shown(adminReader, 'zh-cn', logId)).toEqual({ title: '管理员', by: { id: deleter, nickname: 'Admin' }, table: 'admin' });
      // An administrator's name is the admins list's data: a reader of the bin alone gets the id.
      expect(await shown(reader, 'en', logId)).toEqual({ title: 'Administrator', by: { id: deleter }, table: 'admin' });
      const provider = server.server.app.resources.get('survey/provider')?.title;
      for (const token of [reader, adminReader]) {
        expect(await shown(token, 'en', legacy)).toEqual({ title: provider?.en, by: { id: 0, nickname: 'Unknown admin' }, table: 'survey_provider' });
        expect(await shown(token, 'zh-cn', legacy)).toEqual({ title: provider?.['zh-cn'], by: { id: 0, nickname: '未知管理员' }, table: 'survey_provider' });
        expect(await shown(token, 'en', gone)).toEqual({ title: 'no_such_table', by: { id: 987654, nickname: 'Unknown admin' }, table: 'no_such_table' });
      }
      expect(provider?.en).not.toBe('survey_provider');
    });

    async function limitedToken(name: string, ruleNames: string[]): Promise<string> {
      const rules = (await db().selectFrom('admin_rule').select(['id', 'name']).where('name', 'in', ruleNames).execute()) as { id: number; name: string }[];
      expect(rules.map((rule) => rule.name).sort()).toEqual([...ruleNames].sort());
      await ok('auth.Group/add', { body: { pid: 1, name, rules: rules.map((rule) => Number(rule.id)), status: '1' } });
      const group = (await one('admin_group', 'name', name)) as Row;
      const username = `${name.toLowerCase()}admin`;
      await addAdmin(username, [Number(group.id)]);
      return (await server.loginAdmin(username, PASSWORD)).token;
    }

    it('refuses restore, rollback and info without their nodes (code 401), allows them with', async () => {
      const viewer = await limitedToken('Viewers', ['security', 'security/dataRecycleLog', 'security/dataRecycleLog/index', 'security/sensitiveDataLog', 'security/sensitiveDataLog/index']);
      const id = await addAdmin('permission1');
      await ok('auth.Admin/edit', { body: { id, mobile: '13900000041' } });
      const [sensitive] = await sensitiveLogs('admin', id, 'mobile');
      const recycle = await deleteAdmin(id);

      expect((await call('security.DataRecycleLog/index', { token: viewer })).code).toBe(1);
      expect((await call('security.SensitiveDataLog/index', { token: viewer })).code).toBe(1);
      for (const [path, request] of [
        ['security.DataRecycleLog/restore', { body: { ids: [recycle] } }],
        ['security.DataRecycleLog/info', { query: { id: recycle } }],
        ['security.SensitiveDataLog/rollback', { body: { ids: [sensitive.id] } }],
        ['security.SensitiveDataLog/info', { query: { id: sensitive.id } }],
      ] as const) {
        const response = await call(path, { ...request, token: viewer });
        expect({ code: response.code, data: response.data }, path).toEqual({ code: 401, data: [] });
      }
      expect(await one('admin', 'id', id)).toBeUndefined();
      expect(await one('security_data_recycle_log', 'id', recycle)).toBeDefined();
      expect(await one('security_sensitive_data_log', 'id', sensitive.id)).toBeDefined();

      const operator = await limitedToken('Restorers', ['security', 'security/dataRecycleLog', 'security/dataRecycleLog/restore', 'security/dataRecycleLog/info', 'security/sensitiveDataLog', 'security/sensitiveDataLog/rollback']);
      expect((await call('security.DataRecycleLog/info', { token: operator, query: { id: recycle } })).code).toBe(1);
      expect((await call('security.DataRecycleLog/restore', { token: operator, body: { ids: [recycle] } })).code).toBe(1);
      expect((await one('admin', 'id', id))?.username).toBe('permission1');
      expect((await call('security.SensitiveDataLog/rollback', { token: operator, body: { ids: [sensitive.id] } })).code).toBe(1);
      expect((await call('security.SensitiveDataLog/info', { token: operator, query: { id: sensitive.id } })).code).toBe(401);
    });
  });
});
