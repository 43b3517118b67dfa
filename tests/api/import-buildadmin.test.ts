import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadResourceDefinitions } from '../../src/schema/load-files.js';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.js';
import { catalogTables } from '../../src/server/db/table-catalog.js';
import { importBuildAdmin } from '../../src/server/import/buildadmin-import.js';
import { BuildAdminSource, parseSourceUrl } from '../../src/server/import/buildadmin-source.js';
import { runImportCommand } from '../../src/server/import/import-command.js';
import {
  ATTACHMENT_FILES,
  buildAdminHash,
  createBuildAdminDatabase,
  createOtherDatabase,
  DRIFTED_MEMBER,
  EDITOR,
  MEMBER,
  MEMBER_COUNT,
  MISSING_ATTACHMENT,
  SITE_ADMIN,
  SITE_MEMBER,
  type BuildAdminDatabase,
} from '../support/buildadmin-source.js';
import { ADMIN_PASSWORD, createTestDatabase, DATABASES, PROJECT_ROOT, startTestServer } from '../support/test-server.js';

/**
 * `npm run import:buildadmin` against a real MariaDB holding a BuildAdmin 2.1.2-shaped database, into a
 * real SQLite file and a real PostgreSQL database: what arrives, balances against their logs, old
 * passwords at the login screen, repeat runs, dry runs and bad input.
 *
 * @module-tag full (MariaDB on 127.0.0.1:3306, and the npm command in a process of its own): `npm test` runs it, `npm run test:quick` leaves it out.
 */

interface CommandRun {
  code: number;
  out: string;
  err: string;
}

/** Whole imports on a loaded machine take seconds each; the file's tests may take longer than the default. */
const SLOW_MS = 120_000;

const TABLES_TO_WATCH = ['admin', 'admin_group', 'admin_group_access', 'user', 'user_group', 'user_money_log', 'user_score_log', 'attachment', 'admin_log', 'config', 'security_data_recycle', 'security_data_recycle_log', 'security_sensitive_data', 'security_sensitive_data_log'];

describe.each(DATABASES)('BuildAdmin import into %s', (kind) => {
  let source: BuildAdminDatabase;
  let other: BuildAdminDatabase;
  let target: { url: string; drop: () => Promise<void> };
  let work: string;
  let handle: DatabaseHandle | undefined;

  const env = () => ({ DATABASE_URL: target.url, STORAGE_DIR: join(work, 'storage'), ADMIN_PASSWORD, CONFIG_CACHE_MS: '0' });
  const run = async (...args: string[]): Promise<CommandRun> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runImportCommand([...args, '--drafts', join(work, 'drafts')], env(), PROJECT_ROOT, { tty: false, line: (text) => out.push(text), error: (text) => err.push(text), redraw: () => undefined });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const db = () => {
    handle ??= openDatabase(target.url);
    return handle.db;
  };
  /** whether the target has any table at all (a dry run or a refused run must leave a new database empty) */
  const targetIsEmpty = async () => {
    if (kind === 'sqlite') return !existsSync(target.url.slice('sqlite:'.length));
    const probe = openDatabase(target.url);
    try {
      return (await catalogTables(probe)).length === 0;
    } finally {
      await probe.close();
    }
  };
  const counts = async () => {
    const result: Record<string, number> = {};
    for (const table of [...TABLES_TO_WATCH, 'import_map']) {
      const row = await db().selectFrom(table as 'admin').select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow();
      result[table] = Number(row.total);
    }
    return result;
  };
  const balances = async () => (await db().selectFrom('user').select(['username', 'money', 'score', 'password']).orderBy('id').execute()).map((row) => `${row.username}:${row.money}:${row.score}:${row.password}`);
  const ledgerOf = async (username: string) => {
    const user = await db().selectFrom('user').select(['id', 'money', 'score']).where('username', '=', username).executeTakeFirstOrThrow();
    const money = await db().selectFrom('user_money_log').select(sql<number>`coalesce(sum(money), 0)`.as('total')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const score = await db().selectFrom('user_score_log').select(sql<number>`coalesce(sum(score), 0)`.as('total')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    return { money: Number(user.money), moneyLog: Number(money.total), score: Number(user.score), scoreLog: Number(score.total) };
  };

  beforeAll(async () => {
    source = await createBuildAdminDatabase();
    other = await createOtherDatabase();
    target = await createTestDatabase(kind);
    work = mkdtempSync(join(tmpdir(), 'ba-import-'));
    const storage = join(work, 'ba-storage');
    for (const file of ATTACHMENT_FILES) {
      mkdirSync(join(storage, file, '..'), { recursive: true });
      writeFileSync(join(storage, file), `file ${file}`);
    }
  }, SLOW_MS);

  afterAll(async () => {
    await handle?.close();
    await source?.drop();
    await other?.drop();
    await target?.drop();
    rmSync(work, { recursive: true, force: true });
  }, SLOW_MS);

  it('refuses bad input with a message in English and Chinese and writes nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['mysql://root@127.0.0.1:1/buildadmin'], /cannot reach a MySQL\/MariaDB server at 127\.0\.0\.1:1/],
      [[source.url, '--prefix', 'fa_'], /no BuildAdmin tables with the prefix "fa_".*run again with --prefix ba_/],
      [[other.url], /is not a BuildAdmin 2\.x database: it has no ba_admin/],
      [['not a url'], /is not a database URL/],
      [['postgres://postgres@127.0.0.1/db'], /must be a MySQL or MariaDB URL/],
      [[source.url.replace(/\/[^/]+$/, '/no_such_database_here')], /has no database "no_such_database_here"/],
      [[source.url, '--storage', join(work, 'nowhere')], /--storage: .* is not a folder/],
    ];
    for (const [args, message] of cases) {
      const result = await run(...args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.err).toMatch(message);
      expect(result.err).toMatch(/错误：/);
      expect(result.err).not.toMatch(/\n\s+at /);
    }
    expect(await targetIsEmpty()).toBe(true);
  }, SLOW_MS);

  it('a dry run tells what would come and writes nothing', async () => {
    const result = await run(source.url, '--dry-run');
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/Dry run, nothing was written\. Would bring \d+ new rows/);
    expect(result.out).toMatch(new RegExp(`user: ${MEMBER_COUNT + 1} rows`));
    expect(result.out).toMatch(/Unknown table shop_order: id int\(10\) unsigned, user_id/);
    expect(await targetIsEmpty()).toBe(true);
    expect(existsSync(join(work, 'drafts'))).toBe(false);
  }, SLOW_MS);

  it('brings accounts, groups, logs, attachments and settings across and checks balances against the logs', async () => {
    const result = await run(source.url, '--storage', join(work, 'ba-storage'));
    expect(result.code, result.err).toBe(0);

    // accounts: into this fresh install the site's "admin" takes the seeded administrator (#1); a fresh install
    // has no member, so the site's members, its demo member "user" among them, all come as new ones
    expect(await db().selectFrom('admin').select(['id', 'username']).orderBy('id').execute()).toEqual([{ id: 1, username: 'admin' }, { id: 2, username: EDITOR.username }, { id: 3, username: 'retired' }]);
    expect(await db().selectFrom('user').select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow()).toEqual({ total: MEMBER_COUNT + 1 });
    expect(await db().selectFrom('user').select(['username', 'email', 'mobile']).where('username', '=', SITE_MEMBER.username).execute()).toEqual([{ username: SITE_MEMBER.username, email: SITE_MEMBER.email, mobile: SITE_MEMBER.mobile }]);
    expect(result.out).toContain('Accounts meeting ours (1, the seeded ones of this fresh install):');
    expect(result.out).toContain(`administrator "admin" met #1 "admin" on username: replaced: ours #1 "admin" now holds the site's username, password and profile`);
    expect(result.out).not.toContain('member "user" met');
    expect(result.out).not.toMatch(/admin login admin \//);
    expect(result.out).toContain('ADMIN_PASSWORD is set: the next start gives administrator #1');
    expect((await db().selectFrom('admin').select('status').where('username', '=', 'retired').executeTakeFirstOrThrow()).status).toBe('0');
    expect((await db().selectFrom('user').select('status').where('username', '=', 'member013').executeTakeFirstOrThrow()).status).toBe('disable');

    // groups and their rules, mapped by rule name; the names we lack are reported
    const editors = await db().selectFrom('admin_group').select(['id', 'rules', 'pid']).where('name', '=', 'Editors').executeTakeFirstOrThrow();
    const ruleIds = (await db().selectFrom('admin_rule').select('id').where('name', 'in', ['auth/admin', 'auth/admin/index']).execute()).map((row) => String(row.id)).sort();
    expect(String(editors.rules).split(',').sort()).toEqual(ruleIds);
    const superGroup = await db().selectFrom('admin_group').select('id').where('name', '=', '超级管理组').executeTakeFirstOrThrow();
    expect(editors.pid).toBe(superGroup.id);
    expect(result.out).toMatch(/Admin group rules with no counterpart here \(left out of the groups\): shop\/order, shop\/order\/index/);
    expect(result.out).toMatch(/Member group rules with no counterpart here \(left out of the groups\): account\/orders/);
    const editor = await db().selectFrom('admin').select('id').where('username', '=', EDITOR.username).executeTakeFirstOrThrow();
    expect(await db().selectFrom('admin_group_access').select('group_id').where('uid', '=', editor.id).execute()).toEqual([{ group_id: editors.id }]);
    const vip = await db().selectFrom('user_group').select('id').where('name', '=', 'VIP').executeTakeFirstOrThrow();
    expect((await db().selectFrom('user').select('group_id').where('username', '=', 'member010').executeTakeFirstOrThrow()).group_id).toBe(vip.id);

    // logs: every row, on the right member; balances equal the logs except the one BuildAdmin let drift
    expect(await db().selectFrom('user_money_log').select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow()).toEqual({ total: await source.count('ba_user_money_log') });
    expect(await db().selectFrom('user_score_log').select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow()).toEqual({ total: await source.count('ba_user_score_log') });
    for (const username of ['member002', 'member005', 'member100', 'member200', SITE_MEMBER.username]) {
      const ledger = await ledgerOf(username);
      expect(ledger.money, username).toBe(ledger.moneyLog);
      expect(ledger.score, username).toBe(ledger.scoreLog);
    }
    const member005 = await ledgerOf('member005');
    expect(member005.money).toBeGreaterThan(0);
    expect(result.out).toMatch(new RegExp(`Balance differs from the money log: ${DRIFTED_MEMBER} has \\d+\\.\\d\\d, the log adds up to \\d+\\.\\d\\d`));
    expect(result.out.match(/Balance differs/g)).toHaveLength(1);

    // attachments: rows, files copied from --storage, the missing one named
    expect(await db().selectFrom('attachment').select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow()).toEqual({ total: 3 });
    for (const file of ATTACHMENT_FILES) expect(readFileSync(join(work, 'storage', file), 'utf8')).toBe(`file ${file}`);
    expect(result.out).toContain(`Attachment files: 2 copied, 1 missing in the source folder: ${MISSING_ATTACHMENT}`);

    // settings we know; the admin entrance stays ours
    const config = Object.fromEntries((await db().selectFrom('config').select(['name', 'value']).where('name', 'in', ['site_name', 'smtp_server', 'backend_entrance']).execute()).map((row) => [row.name, row.value]));
    expect(config.site_name).toBe('Old BuildAdmin Site');
    expect(config.smtp_server).toBe('smtp.old-site.example');
    expect(config.backend_entrance).not.toBe('/admin');

    // admin log, recycle and sensitive-data rules and logs, with their references translated
    expect(await db().selectFrom('admin_log').select(sql<number>`count(*)`.as('total')).where('username', '=', EDITOR.username).executeTakeFirstOrThrow()).toEqual({ total: 30 });
    const recycle = await db().selectFrom('security_data_recycle').select('id').where('controller', '=', 'shop/Order.php').executeTakeFirstOrThrow();
    expect(await db().selectFrom('security_data_recycle_log').select('recycle_id').execute()).toEqual([{ recycle_id: recycle.id }]);
    const sensitive = await db().selectFrom('security_sensitive_data').select(['id', 'data_fields']).where('controller', '=', 'shop/Order.php').executeTakeFirstOrThrow();
    expect(JSON.parse(String(sensitive.data_fields))).toEqual({ amount: '金额' });
    expect(await db().selectFrom('security_sensitive_data_log').select(['sensitive_id', 'admin_id']).execute()).toEqual([{ sensitive_id: sensitive.id, admin_id: editor.id }]);

    // tables we do not know: listed with their columns, a valid schema draft written outside schemas/
    expect(result.out).toMatch(/Unknown table shop_order: id int\(10\) unsigned, user_id int\(10\) unsigned, amount decimal\(10,2\), state enum\('paid','refunded'\)/);
    expect(result.out).toMatch(/Not brought: token \(sessions: everyone signs in again/);
    expect(result.out).toMatch(/Not brought: team \(our team\/team has the same table name; its rows are not copied/);
    expect(await db().selectFrom('team').select('name').execute()).toEqual([]);
    const drafts = loadResourceDefinitions(join(work, 'drafts'));
    const order = drafts.find((definition) => definition.table === 'shop_order');
    expect(order?.fields.map((field) => field.name)).toEqual(['id', 'user_id', 'amount', 'state', 'note', 'create_time']);
  }, SLOW_MS);

  it("the site's admin, who took the fresh install's seeded administrator, and the site's member sign in with their old passwords and hold the site's profiles and ledgers", async () => {
    // without ADMIN_PASSWORD: that setting would give administrator #1 its password at the start
    const server = await startTestServer(kind, { databaseUrl: target.url, keepDatabase: true, env: { ADMIN_PASSWORD: '' } });
    try {
      expect((await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).code).toBe(0);
      const admin = await server.admin<{ userInfo: { id: number; username: string; nickname: string; token: string } }>('Index/login', { body: { username: SITE_ADMIN.username, password: SITE_ADMIN.password } });
      expect(admin.code, admin.msg).toBe(1);
      expect(admin.data.userInfo).toMatchObject({ id: 1, username: SITE_ADMIN.username, nickname: SITE_ADMIN.nickname });
      expect(await db().selectFrom('admin').select(['nickname', 'email', 'mobile', 'motto']).where('id', '=', 1).executeTakeFirstOrThrow()).toEqual({ nickname: SITE_ADMIN.nickname, email: SITE_ADMIN.email, mobile: SITE_ADMIN.mobile, motto: SITE_ADMIN.motto });
      // still the super administrator: the site's super group is ours, matched by name
      const admins = await server.admin<{ total: number }>('auth.Admin/index', { token: admin.data.userInfo.token });
      expect(admins.code, admins.msg).toBe(1);
      expect(admins.data.total).toBe(3);

      expect((await server.api('user/checkIn', { body: { tab: 'login', username: SITE_MEMBER.username, password: 'Not_the_one1', keep: false } })).code).toBe(0);
      const member = await server.api<{ userInfo: Record<string, unknown> & { token: string } }>('user/checkIn', { body: { tab: 'login', username: SITE_MEMBER.username, password: SITE_MEMBER.password, keep: false } });
      expect(member.code, member.msg).toBe(1);
      expect(member.data.userInfo).toMatchObject({ username: SITE_MEMBER.username, nickname: SITE_MEMBER.nickname, email: SITE_MEMBER.email, mobile: SITE_MEMBER.mobile, gender: SITE_MEMBER.gender, birthday: SITE_MEMBER.birthday, motto: SITE_MEMBER.motto, score: 40 });
      expect(Number(member.data.userInfo.money)).toBe(40);
      // the site's ledgers are on that row, and its balance is theirs
      expect(await ledgerOf(SITE_MEMBER.username)).toEqual({ money: 4000, moneyLog: 4000, score: 40, scoreLog: 40 });
      const balance = await server.api<{ total: number }>('account/balance', { userToken: member.data.userInfo.token });
      expect(balance.code, balance.msg).toBe(1);
      expect(balance.data.total).toBe(SITE_MEMBER.money.length);
    } finally {
      await server.close();
    }
  }, SLOW_MS);

  it('an imported administrator and member sign in with their BuildAdmin passwords, which are then re-hashed', async () => {
    const marked = async (table: 'admin' | 'user', username: string) => String((await db().selectFrom(table).select('password').where('username', '=', username).executeTakeFirstOrThrow()).password);
    expect(await marked('admin', EDITOR.username)).toMatch(/^buildadmin-md5\$[0-9a-f]{32}$/);
    // brought with BuildAdmin's last login, and no previous one yet
    expect(await db().selectFrom('admin').select(['last_login_time', 'last_login_ip', 'last_success_time', 'prev_login_time', 'prev_login_ip']).where('username', '=', EDITOR.username).executeTakeFirstOrThrow()).toEqual({
      last_login_time: EDITOR.lastLoginTime, last_login_ip: EDITOR.lastLoginIp, last_success_time: EDITOR.lastLoginTime, prev_login_time: null, prev_login_ip: '',
    });
    const server = await startTestServer(kind, { databaseUrl: target.url, keepDatabase: true });
    try {
      const wrong = await server.admin('Index/login', { body: { username: EDITOR.username, password: 'Not_the_one1' } });
      expect(wrong.code).toBe(0);
      const admin = await server.admin<{ userInfo: { username: string; token: string } }>('Index/login', { body: { username: EDITOR.username, password: EDITOR.password } });
      expect(admin.code, admin.msg).toBe(1);
      expect(admin.data.userInfo.username).toBe(EDITOR.username);
      // the first login here names BuildAdmin's last one as the previous (what the dashboard shows), despite the wrong password before it
      const logins = async () => db().selectFrom('admin').select(['prev_login_time', 'prev_login_ip']).where('username', '=', EDITOR.username).executeTakeFirstOrThrow();
      expect(await logins()).toEqual({ prev_login_time: EDITOR.lastLoginTime, prev_login_ip: EDITOR.lastLoginIp });
      expect(await marked('admin', EDITOR.username)).toMatch(/^scrypt\$/);
      const again = await server.admin('Index/login', { body: { username: EDITOR.username, password: EDITOR.password } });
      expect(again.code).toBe(1);

      const member = await server.api<{ userInfo: { username: string; money: string } }>('user/checkIn', { body: { tab: 'login', username: MEMBER.username, password: MEMBER.password, keep: false } });
      expect(member.code, member.msg).toBe(1);
      expect(member.data.userInfo.username).toBe(MEMBER.username);
      expect(await marked('user', MEMBER.username)).toMatch(/^scrypt\$/);
    } finally {
      await server.close();
    }
  }, SLOW_MS);

  it('a second run changes nothing; a run after new source rows brings only those, balances still equal to logs', async () => {
    const before = await counts();
    const balancesBefore = await balances();
    const second = await run(source.url, '--storage', join(work, 'ba-storage'));
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/Done: 0 new rows, 0 matched to existing ones, \d+ already brought before/);
    expect(await counts()).toEqual(before);
    expect(await balances()).toEqual(balancesBefore);

    // BuildAdmin gains a member and a recharge of an already imported member
    const time = 1_710_000_000;
    await source.query('INSERT INTO ba_user SET ?', [{ group_id: 2, username: 'latecomer', nickname: 'Late', email: 'late@example.com', mobile: '13700000001', money: 700, password: buildAdminHash('Late_pass1', 'saltsalt'), salt: 'saltsalt', status: 'enable', create_time: time, join_time: time }]);
    const lateId = Number(((await source.query('SELECT id FROM ba_user WHERE username = ?', ['latecomer'])) as { id: number }[])[0].id);
    const old = ((await source.query('SELECT id, money FROM ba_user WHERE username = ?', ['member005'])) as { id: number; money: number }[])[0];
    await source.query('INSERT INTO ba_user_money_log SET ?', [{ user_id: lateId, money: 700, before: 0, after: 700, memo: 'Welcome', create_time: time }]);
    await source.query('INSERT INTO ba_user_money_log SET ?', [{ user_id: old.id, money: 250, before: old.money, after: old.money + 250, memo: 'Recharge', create_time: time }]);
    await source.query('UPDATE ba_user SET money = money + 250 WHERE id = ?', [old.id]);

    const oldBalance = (await ledgerOf('member005')).money;
    const third = await run(source.url);
    expect(third.code, third.err).toBe(0);
    expect(third.out).toMatch(/Done: 3 new rows/);
    const after = await counts();
    expect(after.user).toBe(before.user + 1);
    expect(after.user_money_log).toBe(before.user_money_log + 2);
    expect(after.admin_log).toBe(before.admin_log);
    const member005 = await ledgerOf('member005');
    expect(member005.money).toBe(oldBalance + 250);
    expect(member005.money).toBe(member005.moneyLog);
    const late = await ledgerOf('latecomer');
    expect(late.money).toBe(700);
    expect(late.moneyLog).toBe(700);
  }, SLOW_MS);

  it("a fork's table whose draft is kept in schemas/imported/ gets its rows on the next run", async () => {
    const schemasDir = join(work, 'kept', 'schemas');
    cpSync(join(PROJECT_ROOT, 'schemas'), schemasDir, { recursive: true });
    mkdirSync(join(schemasDir, 'imported'));
    copyFileSync(join(work, 'drafts', 'shop_order.json'), join(schemasDir, 'imported', 'shop_order.json'));
    const server = await startTestServer(kind, { databaseUrl: target.url, keepDatabase: true, schemasDir });
    const opened = await BuildAdminSource.open(parseSourceUrl(source.url), 'ba_');
    try {
      const app = server.server.app;
      const report = await importBuildAdmin(opened, { db: app.db, mapExists: true, resources: app.resources, storageDir: app.settings.storageDir }, { dryRun: false, draftsDir: join(work, 'drafts') });
      expect(report.unknownTables.map((table) => table.table)).toEqual(['test_build']);
      expect(report.tables.find((table) => table.source === 'shop_order')).toMatchObject({ total: 2, imported: 2 });
      const rows = await server.admin<{ list: { amount: number; state: string; note: string | null }[] }>('imported.ShopOrder/index', { token: (await server.loginAdmin()).token });
      expect(rows.code, rows.msg).toBe(1);
      expect(rows.data.list.map((row) => [Number(row.amount), row.state, row.note]).sort()).toEqual([[12.5, 'paid', null], [3, 'refunded', 'late']]);
    } finally {
      await opened.close();
      await server.close();
    }
  }, SLOW_MS);

  it('a source table whose name holds / or . is left alone: no draft is written, least of all outside the drafts folder', async () => {
    const tricky = ['../escaped', 'sub/../../escaped2', 'dotted.name'];
    for (const name of tricky) await source.query(`CREATE TABLE \`ba_${name}\` (id int unsigned NOT NULL AUTO_INCREMENT, note varchar(20) NULL, PRIMARY KEY (id))`);
    try {
      const result = await run(source.url);
      expect(result.code, result.err).toBe(0);
      for (const name of tricky) expect(result.out).toContain(`Not brought: ${name} (its name holds characters other than letters, digits and _`);
      expect(result.out).not.toMatch(/Unknown table (\.\.|sub|dotted)/);
      expect(existsSync(join(work, 'escaped.json'))).toBe(false);
      expect(existsSync(join(work, 'escaped2.json'))).toBe(false);
      expect(readdirSync(join(work, 'drafts')).sort()).toEqual(['shop_order.json', 'test_build.json']);
    } finally {
      for (const name of tricky) await source.query(`DROP TABLE IF EXISTS \`ba_${name}\``);
    }
  }, SLOW_MS);
});

/** Our accounts in a live install that meet the site's: on a username, an email, a mobile number; one with a balance. */
const OURS = {
  admin: { username: EDITOR.username, password: 'Ours_editor1' },
  byName: { username: 'member002', password: 'Ours_pass1', nickname: 'Our member two' },
  byEmail: { username: 'mate', password: 'Ours_pass2', email: 'member003@example.com' },
  byMobile: { username: 'phone', password: 'Ours_pass3', mobile: '13900000004' },
};

describe.each(DATABASES)('BuildAdmin import into a live install on %s', (kind) => {
  let source: BuildAdminDatabase;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    source = await createBuildAdminDatabase();
  }, SLOW_MS);

  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
    await source?.drop();
  }, SLOW_MS);

  /** An install in use: the administrator signed in, three members added and one given a balance, another administrator. */
  async function liveInstall() {
    const target = await createTestDatabase(kind);
    const work = mkdtempSync(join(tmpdir(), 'ba-live-'));
    const handle = openDatabase(target.url);
    cleanup.push(async () => {
      await handle.close();
      await target.drop();
      rmSync(work, { recursive: true, force: true });
    });
    // the operator tried the product with the demo data: its member "user" is BuildAdmin's demo member too
    const server = await startTestServer(kind, { databaseUrl: target.url, keepDatabase: true, demoData: true });
    try {
      const { token } = await server.loginAdmin();
      expect((await server.admin('auth.Admin/add', { token, body: { username: OURS.admin.username, nickname: 'Our editor', password: OURS.admin.password, group_arr: [1], status: '1' } })).code).toBe(1);
      for (const member of [OURS.byName, OURS.byEmail, OURS.byMobile]) {
        const added = await server.admin('user.User/add', { token, body: { nickname: member.username, group_id: 1, status: 'enable', ...member } });
        expect(added.code, added.msg).toBe(1);
      }
      const ours = await handle.db.selectFrom('user').select('id').where('username', '=', OURS.byName.username).executeTakeFirstOrThrow();
      expect((await server.admin('user.MoneyLog/add', { token, body: { user_id: ours.id, money: '12.50', memo: 'ours' } })).code).toBe(1);
    } finally {
      await server.close();
    }
    const run = async (...args: string[]): Promise<CommandRun> => {
      const out: string[] = [];
      const err: string[] = [];
      const env = { DATABASE_URL: target.url, STORAGE_DIR: join(work, 'storage'), ADMIN_PASSWORD, CONFIG_CACHE_MS: '0' };
      const code = await runImportCommand([source.url, ...args, '--drafts', join(work, 'drafts')], env, PROJECT_ROOT, { tty: false, line: (text) => out.push(text), error: (text) => err.push(text), redraw: () => undefined });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const db = handle.db;
    const account = (username: string) => db.selectFrom('user').select(['id', 'username', 'nickname', 'email', 'mobile', 'money', 'score']).where('username', '=', username).executeTakeFirst();
    /** every member whose balance or points differ from their log rows */
    const offLedger = async () => {
      const users = await db.selectFrom('user').select(['id', 'username', 'money', 'score']).execute();
      const money = new Map((await db.selectFrom('user_money_log').select(['user_id', sql<number>`sum(money)`.as('total')]).groupBy('user_id').execute()).map((row) => [Number(row.user_id), Number(row.total)]));
      const score = new Map((await db.selectFrom('user_score_log').select(['user_id', sql<number>`sum(score)`.as('total')]).groupBy('user_id').execute()).map((row) => [Number(row.user_id), Number(row.total)]));
      return users.filter((user) => Number(user.money) !== (money.get(Number(user.id)) ?? 0) || Number(user.score) !== (score.get(Number(user.id)) ?? 0)).map((user) => String(user.username));
    };
    /** what a refused run must leave as it was: every row of the accounts, their groups and ledgers */
    const snapshot = async () => {
      const tables = ['admin', 'admin_group', 'admin_group_access', 'user', 'user_group', 'user_money_log', 'user_score_log', 'attachment', 'admin_log', 'config'] as const;
      const rows: Record<string, unknown[]> = {};
      for (const table of tables) rows[table] = await db.selectFrom(table as 'admin').selectAll().orderBy(sql`1`).execute();
      return rows;
    };
    /** sign in through the real login endpoints (the server started without ADMIN_PASSWORD, which would reset #1) */
    const signIns = async (attempts: { area: 'admin' | 'user'; username: string; password: string }[]) => {
      const server = await startTestServer(kind, { databaseUrl: target.url, keepDatabase: true, env: { ADMIN_PASSWORD: '' } });
      try {
        const results: string[] = [];
        for (const attempt of attempts) {
          const answer = attempt.area === 'admin' ? await server.admin('Index/login', { body: { username: attempt.username, password: attempt.password } }) : await server.api('user/checkIn', { body: { tab: 'login', username: attempt.username, password: attempt.password, keep: false } });
          results.push(`${attempt.area} ${attempt.username}/${attempt.password}: ${answer.code === 1 ? 'in' : 'refused'}`);
        }
        return results;
      } finally {
        await server.close();
      }
    };
    return { run, db, account, offLedger, snapshot, signIns };
  }

  it('refuses with the list of colliding accounts and changes nothing', async () => {
    const live = await liveInstall();
    const before = await live.snapshot();
    const refused = await live.run();
    expect(refused.code).toBe(1);
    const ours = async (username: string) => (await live.account(username))!.id;
    expect(refused.err).toMatch(/error: 6 accounts of the BuildAdmin site meet accounts of this install, which is in use \(.*administrator #1 "admin" has signed in/);
    expect(refused.err).toContain('administrator "admin" meets our #1 "admin" on username "admin"');
    expect(refused.err).toMatch(new RegExp(`administrator "${EDITOR.username}" meets our #\\d+ "${EDITOR.username}" on username "${EDITOR.username}"`));
    expect(refused.err).toContain(`member "member002" meets our #${await ours('member002')} "member002" on username "member002"`);
    expect(refused.err).toContain(`member "member003" meets our #${await ours('mate')} "mate" on email "member003@example.com"`);
    expect(refused.err).toContain(`member "member004" meets our #${await ours('phone')} "phone" on mobile "13900000004"`);
    expect(refused.err).toContain('member "user" meets our #1 "user" on username "user", email "18888888888@qq.com", mobile "18888888888"');
    expect(refused.err).toContain('Run again with --on-conflict=keep');
    expect(refused.err).toMatch(/错误：BuildAdmin 站点有 6 个账号与本站/);
    expect(refused.err).toContain('会员“member003”与本站 #');
    expect(refused.err).not.toMatch(/\n\s+at /);
    expect(await live.snapshot()).toEqual(before);
    // a dry run says the same, and a mode that does not exist is refused before anything is read
    expect((await live.run('--dry-run')).err).toContain('member "member002" meets our #');
    const planned = await live.run('--dry-run', '--on-conflict=keep');
    expect(planned.code, planned.err).toBe(0);
    expect(planned.out).toContain(`member "member003" met #${await ours('mate')} "mate" on email: would be brought onto ours #${await ours('mate')} "mate", which would stay as it is`);
    expect(planned.out).toContain('Accounts meeting ours (6):');
    const wrong = await live.run('--on-conflict=merge');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--on-conflict takes keep, replace or rename, not "merge"');
    expect(await live.snapshot()).toEqual(before);
  }, SLOW_MS);

  it('--on-conflict=keep brings the site\'s accounts onto ours, which keep their passwords and profiles; balances equal the ledgers', async () => {
    const live = await liveInstall();
    const ourMember = await live.account('member002');
    const result = await live.run('--on-conflict=keep');
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(`Accounts meeting ours (6):`);
    expect(result.out).toContain(`member "member002" met #${ourMember!.id} "member002" on username: kept: brought onto ours #${ourMember!.id} "member002", which stays as it is`);
    expect(result.out).toMatch(/member "member003" met #\d+ "mate" on email: kept: brought onto ours #\d+ "mate"/);
    expect(result.out).toContain('administrator "admin" met #1 "admin" on username: kept');
    // ours as they were, with the site's balance and log rows added
    const after = await live.account('member002');
    expect(after).toMatchObject({ id: ourMember!.id, nickname: OURS.byName.nickname, email: '' });
    expect(await live.account('member003')).toBeUndefined();
    expect(await live.offLedger()).toEqual([DRIFTED_MEMBER]);
    expect(Number(after!.money)).toBeGreaterThan(1250);
    // the kept administrator keeps our groups, not the site's
    const editor = await live.db.selectFrom('admin').select('id').where('username', '=', EDITOR.username).executeTakeFirstOrThrow();
    expect(await live.db.selectFrom('admin_group_access').select('group_id').where('uid', '=', editor.id).execute()).toEqual([{ group_id: 1 }]);
    expect(await live.signIns([
      { area: 'user', username: 'member002', password: OURS.byName.password },
      { area: 'user', username: 'member002', password: 'Pass_2x' },
      { area: 'admin', username: EDITOR.username, password: OURS.admin.password },
      { area: 'admin', username: EDITOR.username, password: EDITOR.password },
      { area: 'admin', username: 'admin', password: ADMIN_PASSWORD },
    ])).toEqual([`user member002/${OURS.byName.password}: in`, 'user member002/Pass_2x: refused', `admin ${EDITOR.username}/${OURS.admin.password}: in`, `admin ${EDITOR.username}/${EDITOR.password}: refused`, `admin admin/${ADMIN_PASSWORD}: in`]);
    // a second run changes nothing
    const again = await live.run();
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/Done: 0 new rows, 0 matched to existing ones/);
  }, SLOW_MS);

  it('--on-conflict=replace gives our accounts the site\'s usernames, passwords and profiles, keeping our ledgers on them; balances equal the ledgers', async () => {
    const live = await liveInstall();
    const ourMate = await live.account('mate');
    const result = await live.run('--on-conflict=replace');
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(`member "member003" met #${ourMate!.id} "mate" on email: replaced: ours #${ourMate!.id} "member003" now holds the site's username, password and profile`);
    expect(await live.account('mate')).toBeUndefined();
    expect(await live.account('member003')).toMatchObject({ id: ourMate!.id, nickname: 'Member 3', email: 'member003@example.com' });
    const member002 = await live.account('member002');
    expect(member002).toMatchObject({ nickname: 'Member 2' });
    expect(await live.db.selectFrom('user_money_log').select('memo').where('user_id', '=', member002!.id).orderBy('id').execute()).toEqual([{ memo: 'ours' }, { memo: 'Recharge' }, { memo: 'Recharge' }]);
    expect(await live.offLedger()).toEqual([DRIFTED_MEMBER]);
    expect(await live.signIns([
      { area: 'user', username: 'member002', password: 'Pass_2x' },
      { area: 'user', username: 'member002', password: OURS.byName.password },
      { area: 'user', username: 'member003', password: 'Pass_3x' },
      { area: 'admin', username: 'admin', password: SITE_ADMIN.password },
      { area: 'admin', username: EDITOR.username, password: EDITOR.password },
    ])).toEqual(['user member002/Pass_2x: in', `user member002/${OURS.byName.password}: refused`, 'user member003/Pass_3x: in', `admin admin/${SITE_ADMIN.password}: in`, `admin ${EDITOR.username}/${EDITOR.password}: in`]);
    // the replaced administrator holds the site's groups only
    const editor = await live.db.selectFrom('admin').select('id').where('username', '=', EDITOR.username).executeTakeFirstOrThrow();
    const editors = await live.db.selectFrom('admin_group').select('id').where('name', '=', 'Editors').executeTakeFirstOrThrow();
    expect(await live.db.selectFrom('admin_group_access').select('group_id').where('uid', '=', editor.id).execute()).toEqual([{ group_id: editors.id }]);
  }, SLOW_MS);

  it('--on-conflict=rename brings the site\'s accounts as new ones under free usernames, ours untouched; balances equal the ledgers', async () => {
    const live = await liveInstall();
    const before = await Promise.all(['member002', 'mate', 'phone'].map((username) => live.account(username)));
    const result = await live.run('--on-conflict=rename');
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/member "member002" met #\d+ "member002" on username: renamed: brought as the new account #\d+ "member002_2"/);
    expect(result.out).toMatch(/member "member003" met #\d+ "mate" on email: renamed: brought as the new account #\d+ "member003"/);
    expect(result.out).toContain('member "member003": email "member003@example.com" already belongs to another account here, left empty');
    expect(await Promise.all(['member002', 'mate', 'phone'].map((username) => live.account(username)))).toEqual(before);
    expect(await live.account('member003')).toMatchObject({ email: '' });
    expect(await live.offLedger()).toEqual([DRIFTED_MEMBER]);
    expect(await live.signIns([
      { area: 'user', username: 'member002_2', password: 'Pass_2x' },
      { area: 'user', username: 'member002', password: OURS.byName.password },
      { area: 'user', username: 'user_2', password: SITE_MEMBER.password },
      { area: 'admin', username: 'admin_2', password: SITE_ADMIN.password },
      { area: 'admin', username: `${EDITOR.username}_2`, password: EDITOR.password },
      { area: 'admin', username: EDITOR.username, password: OURS.admin.password },
    ])).toEqual(['user member002_2/Pass_2x: in', `user member002/${OURS.byName.password}: in`, `user user_2/${SITE_MEMBER.password}: in`, `admin admin_2/${SITE_ADMIN.password}: in`, `admin ${EDITOR.username}_2/${EDITOR.password}: in`, `admin ${EDITOR.username}/${OURS.admin.password}: in`]);
  }, SLOW_MS);
});

describe('the npm command', () => {
  it('answers a bad URL with exit code 1 and both languages, and writes nothing', async () => {
    const work = mkdtempSync(join(tmpdir(), 'ba-import-cli-'));
    try {
      const databasePath = join(work, 'app.db');
      const result = await promisify(execFile)('npx', ['tsx', 'scripts/import-buildadmin.ts', 'mysql://root@127.0.0.1:1/x'], { cwd: PROJECT_ROOT, env: { ...process.env, DATABASE_URL: `sqlite:${databasePath}` } }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error: cannot reach a MySQL\/MariaDB server/m);
      expect(result.stderr).toMatch(/^错误：无法连接/m);
      expect(existsSync(databasePath)).toBe(false);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, SLOW_MS);
});
