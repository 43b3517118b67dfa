import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AREA_AUTH, IdentityCache } from '../../src/server/auth/identity.js';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Permissions are resolved once per account and kept while nothing they depend on changed.
 * Whatever changes them takes effect at the next request, in this process and in another one serving the
 * same database: a group losing a rule, a group or an admin disabled, a token revoked, a member moved to
 * another group, a menu's remark. Each change is made by one server (or straight in the database) and
 * seen by the other.
 */

const PASSWORD = 'Cache_pass1';

describe.each(DATABASES)('cached permissions on %s', (kind) => {
  let first: TestServer;
  let second: TestServer;
  let groupId: number;
  let adminId: number;
  let indexRuleId: number;
  let superToken: string;
  const db = () => first.server.app.db;

  async function ruleId(name: string): Promise<number> {
    const row = (await db().selectFrom('admin_rule').select('id').where('name', '=', name).executeTakeFirstOrThrow()) as { id: number };
    return Number(row.id);
  }

  async function login(server: TestServer): Promise<string> {
    return (await server.loginAdmin('cacheadmin', PASSWORD)).token;
  }

  /** The admin list as the limited admin sees it from `server`: its business code. */
  async function listCode(server: TestServer, token: string): Promise<number> {
    return (await server.admin('auth.Admin/index', { token })).code;
  }

  beforeAll(async () => {
    first = await startTestServer(kind);
    second = await startTestServer(kind, { databaseUrl: first.databaseUrl });
    superToken = (await first.loginAdmin()).token;
    indexRuleId = await ruleId('auth/admin/index');
    const rules = [await ruleId('auth'), await ruleId('auth/admin'), indexRuleId].join(',');
    const now = Math.floor(Date.now() / 1000);
    const group = await db().insertInto('admin_group').values({ pid: 0, name: 'Cache group', rules, status: '1', create_time: now, update_time: now }).returning('id').executeTakeFirstOrThrow();
    groupId = Number(group.id);
    const admin = await db()
      .insertInto('admin')
      .values({ username: 'cacheadmin', nickname: 'Cache', password: await hashPassword(PASSWORD), salt: '', email: '', mobile: '', status: '1', create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    adminId = Number(admin.id);
    await db().insertInto('admin_group_access').values({ uid: adminId, group_id: groupId }).execute();
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  beforeEach(async () => {
    const rules = [await ruleId('auth'), await ruleId('auth/admin'), indexRuleId].join(',');
    await db().updateTable('admin_group').set({ rules, status: '1' }).where('id', '=', groupId).execute();
    await db().updateTable('admin').set({ status: '1' }).where('id', '=', adminId).execute();
  });

  it('refuses the next request once the group loses the rule, changed through the other server', async () => {
    const token = await login(first);
    // Both servers have resolved and kept the admin's permissions.
    expect(await listCode(first, token)).toBe(1);
    expect(await listCode(second, token)).toBe(1);
    const remaining = [await ruleId('auth'), await ruleId('auth/admin')];
    const edited = await second.admin('auth.Group/edit', { token: superToken, body: { id: groupId, pid: 0, name: 'Cache group', rules: remaining, status: '1' } });
    expect(edited.code, edited.msg).toBe(1);
    expect(await listCode(first, token)).toBe(401);
    expect(await listCode(second, token)).toBe(401);
  });

  it('refuses the next request once the group is disabled in the database by hand', async () => {
    const token = await login(first);
    expect(await listCode(first, token)).toBe(1);
    await sql`UPDATE admin_group SET status = '0' WHERE id = ${groupId}`.execute(db());
    expect(await listCode(first, token)).toBe(401);
    expect(await listCode(second, token)).toBe(401);
  });

  it('asks a disabled admin to log in again at the next request', async () => {
    const token = await login(second);
    expect(await listCode(first, token)).toBe(1);
    await db().updateTable('admin').set({ status: '0' }).where('id', '=', adminId).execute();
    expect(await listCode(first, token)).toBe(303);
    expect(await listCode(second, token)).toBe(303);
  });

  it('forgets a token at once when it is revoked by logging out on the other server', async () => {
    const token = await login(first);
    expect(await listCode(first, token)).toBe(1);
    const logout = await second.admin('Index/logout', { token, body: {} });
    expect(logout.code, logout.msg).toBe(1);
    expect(await listCode(first, token)).toBe(303);
  });

  it('gives a rule added to the group at the next request', async () => {
    const token = await login(first);
    expect((await first.admin('auth.Admin/add', { token, body: {} })).code).toBe(401);
    const rules = [await ruleId('auth'), await ruleId('auth/admin'), indexRuleId, await ruleId('auth/admin/add')].join(',');
    await db().updateTable('admin_group').set({ rules }).where('id', '=', groupId).execute();
    // Allowed now: the add is refused for its empty form, not for permission.
    const add = await second.admin('auth.Admin/add', { token, body: {} });
    expect(add.code).toBe(0);
  });

  it('moves a member to another group at the next request', async () => {
    const now = Math.floor(Date.now() / 1000);
    const bare = await db().insertInto('user_group').values({ name: 'No rules', rules: '', status: '1', create_time: now, update_time: now }).returning('id').executeTakeFirstOrThrow();
    await db()
      .insertInto('user')
      .values({ group_id: 1, username: 'cachemember', nickname: 'M', email: '', mobile: '', password: await hashPassword(PASSWORD), salt: '', status: 'enable', join_time: now, create_time: now, update_time: now })
      .execute();
    const signedIn = await first.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: 'cachemember', password: PASSWORD } });
    expect(signedIn.code, signedIn.msg).toBe(1);
    const userToken = signedIn.data.userInfo.token;
    const rulesOf = async (server: TestServer) => {
      const answer = await server.api<{ menus: unknown[]; rules: unknown[] }>('index/index', { userToken });
      expect(answer.code, answer.msg).toBe(1);
      return answer.data.menus.length + answer.data.rules.length;
    };
    expect(await rulesOf(first)).toBeGreaterThan(0);
    expect(await rulesOf(second)).toBeGreaterThan(0);
    await db().updateTable('user').set({ group_id: Number(bare.id) }).where('username', '=', 'cachemember').execute();
    expect(await rulesOf(first)).toBe(0);
    expect(await rulesOf(second)).toBe(0);
  });

  it('serves members of one group one shared set of rights, and moving one member changes only theirs', async () => {
    const now = Math.floor(Date.now() / 1000);
    const bare = await db().insertInto('user_group').values({ name: 'Bare', rules: '', status: '1', create_time: now, update_time: now }).returning('id').executeTakeFirstOrThrow();
    const tokens: string[] = [];
    for (const username of ['sharedone', 'sharedtwo']) {
      await db()
        .insertInto('user')
        .values({ group_id: 1, username, nickname: username, email: '', mobile: '', password: await hashPassword(PASSWORD), salt: '', status: 'enable', join_time: now, create_time: now, update_time: now })
        .execute();
      const signedIn = await first.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
      expect(signedIn.code, signedIn.msg).toBe(1);
      tokens.push(signedIn.data.userInfo.token);
    }
    const rulesOf = async (userToken: string) => {
      const answer = await first.api<{ menus: unknown[]; rules: unknown[] }>('index/index', { userToken });
      expect(answer.code, answer.msg).toBe(1);
      return answer.data.menus.length + answer.data.rules.length;
    };
    const granted = await rulesOf(tokens[0]);
    expect(granted).toBeGreaterThan(0);
    expect(await rulesOf(tokens[1])).toBe(granted);
    await db().updateTable('user').set({ group_id: Number(bare.id) }).where('username', '=', 'sharedone').execute();
    expect(await rulesOf(tokens[0])).toBe(0);
    expect(await rulesOf(tokens[1])).toBe(granted);
  });

  it('keeps the rights of a bounded number of accounts, one object for all the accounts of one group', async () => {
    const cache = new IdentityCache({ accounts: 3 });
    const now = Math.floor(Date.now() / 1000);
    const rules = (await db().selectFrom('user_rule').select('id').where('status', '=', '1').orderBy('id').limit(3).execute()).map((rule) => Number(rule.id));
    const group = await db().insertInto('user_group').values({ name: 'Bounded', rules: rules.join(','), status: '1', create_time: now, update_time: now }).returning('id').executeTakeFirstOrThrow();
    const members: Record<string, unknown>[] = [];
    for (let index = 0; index < 6; index++) {
      const values = { group_id: Number(group.id), username: `bounded${index}`, nickname: 'B', email: '', mobile: '', password: '', salt: '', status: 'enable' as const, join_time: now, create_time: now, update_time: now };
      const { id } = await db().insertInto('user').values(values).returning('id').executeTakeFirstOrThrow();
      members.push({ ...values, id });
    }
    const revision = 1;
    const grants = await Promise.all(members.map((member) => cache.grantsOf(db(), AREA_AUTH.user, member, revision)));
    expect(new Set(grants).size).toBe(1);
    expect([...grants[0].ruleIds].sort()).toEqual([...rules].sort());
    expect(cache.sizes()).toEqual({ accounts: 3, grants: 1, tokens: 0 });
    // Under another revision the rights are resolved again, not taken from the old one's.
    const later = await cache.grantsOf(db(), AREA_AUTH.user, members[0], revision + 1);
    expect(later).not.toBe(grants[0]);
    expect([...later.ruleNames]).toEqual([...grants[0].ruleNames]);
  });

  it('shows a menu remark changed on the other server at the next list request, kept between changes', async () => {
    const remark = async (server: TestServer) => (await server.admin<{ remark: string }>('auth.Admin/index', { token: superToken })).data.remark;
    expect(await remark(first)).toBe('');
    await second.admin('auth.Rule/edit', { token: (await second.loginAdmin()).token, body: { id: await ruleId('auth/admin'), remark: 'Cached note' } });
    expect(await remark(first)).toBe('Cached note');
    // by hand in the database too: the revision moves with it
    await db().updateTable('admin_rule').set({ remark: 'Hand note' }).where('name', '=', 'auth/admin').execute();
    expect(await remark(first)).toBe('Hand note');
    expect(await remark(second)).toBe('Hand note');
    await db().updateTable('admin_rule').set({ remark: '' }).where('name', '=', 'auth/admin').execute();
    expect(await remark(first)).toBe('');
  });

  it('does not count a balance change as a change of permissions', async () => {
    const revision = async () => Number(((await db().selectFrom('auth_revision').select('revision').where('area', '=', 'user').executeTakeFirstOrThrow()) as { revision: number }).revision);
    const before = await revision();
    await db().updateTable('user').set({ money: 100 }).where('username', '=', 'cachemember').execute();
    expect(await revision()).toBe(before);
    await db().updateTable('user').set({ status: 'enable' }).where('username', '=', 'cachemember').execute();
    expect(await revision()).toBe(before + 1);
  });
});
