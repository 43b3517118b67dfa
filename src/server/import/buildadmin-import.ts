import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import { AREA_AUTH } from '../auth/identity.js';
import { importedPasswordHash } from '../auth/passwords.js';
import { dynamicDb, type Db } from '../db/connection.js';
import { ensureImportMap, readImportMap, recordImported } from './import-map.js';
import { accountsMeeting, describeCollision, describeCollisionZh, installState, type AccountTable, type Collision, type ConflictMode } from './account-collisions.js';
import { ImportInputError, type BuildAdminSource, type SourceColumn } from './buildadmin-source.js';
import { isPlainName } from '../safe-paths.js';
import { fileOfUrl, STORAGE_URL_PREFIX } from '../uploads/storage.js';
import { DRAFT_AREA, schemaDraft } from './schema-draft.js';

/**
 * Brings a BuildAdmin 2.x database into ours, table by table, each in one transaction. Rows get new ids
 * here; `import_map` remembers which source row became which of ours, so references (a member's group, a
 * log's member) are translated and a repeated run brings only rows it has not brought before.
 *
 * Accounts keep their BuildAdmin password hash, marked as imported, so the old password works and is
 * replaced by ours at the first login. A source account with the username, email or mobile number of one
 * here collides with it: into a fresh install (nothing but the seeds) the site's account replaces the
 * seeded one; into a live one the import refuses unless told to keep ours, replace ours or rename theirs
 * (account-collisions.ts). Groups whose name exists here are matched to ours. Balances are checked against
 * the money and points logs at the end.
 */

/** Where the rows go: our database with its resources, and the folder our uploads are served from. */
export interface ImportTarget {
  /** undefined in a dry run against a database that does not exist yet */
  db: Db | undefined;
  mapExists: boolean;
  resources: ReadonlyMap<string, ResourceDefinition>;
  storageDir: string;
}

interface ImportOptions {
  dryRun: boolean;
  /** BuildAdmin's `public/storage` folder: attachment files are copied from there when given */
  sourceStorage?: string;
  /** where schema drafts of tables we do not know are written (not a folder start-up loads) */
  draftsDir: string;
  /** what to do with a source account that collides with one here; without it a live install refuses */
  onConflict?: ConflictMode;
  progress?: (event: ProgressEvent) => void;
}

export type ProgressEvent = { kind: 'start'; table: string; total: number } | { kind: 'rows'; table: string; done: number; total: number } | { kind: 'end'; table: TableReport };

interface TableReport {
  /** the BuildAdmin table, without the prefix */
  source: string;
  /** our table */
  target: string;
  total: number;
  /** already brought by an earlier run */
  already: number;
  /** new rows here (a dry run: rows that would be brought) */
  imported: number;
  /** source rows matched to a row of ours with the same name (nothing written but the mapping) */
  matched: number;
  skipped: number;
  notes: string[];
}

interface Mismatch {
  username: string;
  balance: number;
  ledger: number;
}

export interface ImportReport {
  origin: string;
  dryRun: boolean;
  tables: TableReport[];
  /** BuildAdmin rule names a group held that have no rule here, per area */
  unknownRules: { admin: string[]; user: string[] };
  /** members whose balance (cents) or points differ from the sum of their log */
  ledger: { checked: number; money: Mismatch[]; score: Mismatch[] };
  files: { copied: number; missing: string[] };
  /** BuildAdmin tables read but not brought, with why */
  leftAlone: { table: string; reason: string }[];
  /** tables of the source we know nothing about: their columns and the draft written for each */
  unknownTables: { table: string; columns: SourceColumn[]; draft?: string }[];
  /** whether the install held nothing but its seeds when the run began */
  fresh: boolean;
  /** source accounts that met one of ours, each with what became of it */
  collisions: CollisionOutcome[];
}

interface CollisionOutcome extends Collision {
  /** kept: brought onto ours, left as it is; replaced: ours took the site's account; renamed: brought as a new account */
  outcome: ConflictMode;
  /** the account here that stands for the source account afterwards (a dry run: undefined, nothing was written) */
  as?: { id: number; username: string };
}

/** BuildAdmin tables deliberately not brought across. */
const LEFT_ALONE: Record<string, string> = {
  admin_rule: 'rules are matched to ours by name, not copied',
  menu_rule: 'rules are matched to ours by name, not copied',
  user_rule: 'rules are matched to ours by name, not copied',
  area: 'we ship our own area list',
  captcha: 'short-lived captcha answers',
  token: 'sessions: everyone signs in again (old passwords work)',
  crud_log: "BuildAdmin's CRUD generator history; designs are made again in our CRUD designer",
  migrations: "BuildAdmin's own migration bookkeeping",
};

/** Settings of BuildAdmin's config table that mean the same here; others (the admin entrance, the version, captcha switches, the config groups) stay ours. */
const IMPORTED_CONFIG = new Set([
  'site_name',
  'record_number',
  'time_zone',
  'no_access_ip',
  'cors_request_domain',
  'open_member_center',
  'smtp_server',
  'smtp_port',
  'smtp_user',
  'smtp_pass',
  'smtp_verification',
  'smtp_sender_mail',
]);

type Outcome = { id: number; how: 'imported' | 'matched' } | { skip: string };

interface TableSpec {
  /** BuildAdmin table without the prefix */
  source: string;
  /** our table */
  target: string;
  /** the key a source row is remembered by (default: its id) */
  key?: (row: Row) => string;
  write: (trx: Db, row: Row, run: Run) => Promise<Outcome>;
  /** run once the table's rows are written, in the same transaction */
  finish?: (trx: Db, run: Run, known: ReadonlyMap<string, number>) => Promise<void>;
}

/** First of several column names a row has (BuildAdmin 1.x spelt `createtime`, 2.x `create_time`). */
function pick(row: Row, ...names: string[]): unknown {
  for (const name of names) if (name in row) return row[name];
  return undefined;
}

function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

function intOrNull(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? Math.trunc(number) : null;
}

function int(value: unknown): number {
  return intOrNull(value) ?? 0;
}

function times(row: Row): Row {
  return { create_time: intOrNull(pick(row, 'create_time', 'createtime')), update_time: intOrNull(pick(row, 'update_time', 'updatetime')) };
}

function status01(value: unknown): '0' | '1' {
  return value === '0' || value === 0 || value === 'disable' ? '0' : '1';
}

class Run {
  readonly maps: Map<string, Map<string, number>>;
  /** accounts created by this run: their balance came with the row, so their logs must not move it again */
  readonly newMembers = new Set<number>();
  readonly unknownRules = { admin: new Set<string>(), user: new Set<string>() };
  readonly files = { copied: 0, missing: [] as string[] };
  /** accounts here standing for a source account (brought or collided), which no other source account may meet */
  readonly claimed: Record<AccountTable, Set<number>>;
  /** administrators kept as they were (their groups stay ours) and replaced ones (their groups become the site's) in this run */
  readonly keptAdmins = new Set<number>();
  readonly replacedAdmins = new Set<number>();
  readonly collisions: CollisionOutcome[] = [];
  notes: string[] = [];

  constructor(
    readonly source: BuildAdminSource,
    readonly target: ImportTarget,
    readonly options: ImportOptions,
    maps: Map<string, Map<string, number>>,
    /** BuildAdmin rule id → rule name, per area */
    readonly sourceRules: { admin: Map<string, string>; user: Map<string, string> },
    /** our rule name → id, per area */
    readonly ourRules: { admin: Map<string, number>; user: Map<string, number> },
    /** what a collision becomes; undefined: none may happen (a live install with no --on-conflict) */
    readonly onConflict: ConflictMode | undefined,
  ) {
    this.maps = maps;
    this.claimed = { admin: new Set(maps.get('admin')?.values()), user: new Set(maps.get('user')?.values()) };
  }

  idOf(sourceTable: string, sourceId: unknown): number | undefined {
    return this.maps.get(sourceTable)?.get(String(sourceId));
  }

  /** A group's rule list translated: `*` stays, ids go through the rule names, unknown names are collected. */
  rules(area: 'admin' | 'user', value: unknown): string {
    const raw = text(value).trim();
    if (raw === '*') return '*';
    const ids = new Set<number>();
    for (const part of raw.split(',')) {
      if (part.trim() === '') continue;
      const name = this.sourceRules[area].get(part.trim());
      if (name === undefined) continue;
      const ours = this.ourRules[area].get(name);
      if (ours === undefined) this.unknownRules[area].add(name);
      else ids.add(ours);
    }
    return [...ids].sort((a, b) => a - b).join(',');
  }

  /** `values` cut to the columns our table has (a fork's extra columns are dropped, ids are never copied). */
  columnsOf(table: string, values: Row): Row {
    const definition = [...this.target.resources.values()].find((item) => item.table === table);
    if (!definition) return values;
    const stored: Row = {};
    for (const field of definition.fields) {
      if (!field.storage || field.name === definition.primaryKey) continue;
      if (field.name in values && values[field.name] !== undefined) stored[field.name] = values[field.name];
    }
    return stored;
  }
}

async function insert(trx: Db, run: Run, table: string, values: Row): Promise<number> {
  const row = await dynamicDb(trx).insertInto(table).values(run.columnsOf(table, values)).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

async function findBy(trx: Db, table: string, column: string, value: unknown): Promise<number | undefined> {
  const row = await dynamicDb(trx).selectFrom(table).select('id').where(column, '=', value).executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

/** Email and mobile are unique here when set: a value another account (not `self`) already holds is left empty (and said so). */
async function uniqueContact(trx: Db, run: Run, table: string, values: Row, who: string, self?: number): Promise<void> {
  for (const column of ['email', 'mobile']) {
    const value = text(values[column]);
    if (value === '') continue;
    const holder = await findBy(trx, table, column, value);
    if (holder !== undefined && holder !== self) {
      run.notes.push(`${who}: ${column} "${value}" already belongs to another account here, left empty`);
      values[column] = '';
    }
  }
}

/** How long a username may be to pass the sign-in forms' pattern (a letter and up to 14 more). */
const USERNAME_LENGTH = 15;

/** `wanted`, or when another account (not `self`) holds it, the first free `wanted_2`, `wanted_3` … (said so). */
async function freeUsername(trx: Db, run: Run, table: AccountTable, wanted: string, who: string, self?: number): Promise<string> {
  const taken = async (name: string) => {
    const holder = await findBy(trx, table, 'username', name);
    return holder !== undefined && holder !== self;
  };
  if (!(await taken(wanted))) return wanted;
  for (let number = 2; ; number += 1) {
    const suffix = `_${number}`;
    const name = `${wanted.slice(0, USERNAME_LENGTH - suffix.length)}${suffix}`;
    if (!(await taken(name))) {
      run.notes.push(`${who}: username "${wanted}" already belongs to another account here, brought as "${name}"`);
      return name;
    }
  }
}

/**
 * A source administrator or member (`values`: its row as ours stores it). Without a collision it is a new
 * account. Colliding with one of ours (same username, email or mobile; the username's holder first), the
 * run's mode decides: keep ours as it is and bring the source account onto it, replace ours (its id and
 * its own records stay) with the site's username, password and profile, or rename: bring it as a new
 * account under a free username, with an email or mobile held here left empty. A member's balance and
 * points come with it in every case, added once to the account it lands on; its log rows then come
 * without moving them again.
 */
async function writeAccount(trx: Db, run: Run, table: AccountTable, row: Row, values: Row): Promise<Outcome> {
  const who = `${table === 'admin' ? 'administrator' : 'member'} "${text(row.username)}"`;
  const [meets] = await accountsMeeting(trx, table, [values], run.claimed[table]);
  if (meets.length > 0 && run.onConflict === undefined) return { skip: `${who} meets an account added here during the import; run again with --on-conflict` };
  const mode = meets.length > 0 ? run.onConflict : undefined;
  const { money, score, ...profile } = values;
  let id: number;
  let how: 'imported' | 'matched';
  if (mode === 'keep' || mode === 'replace') {
    id = meets[0].id;
    how = 'matched';
    if (mode === 'replace') {
      profile.username = await freeUsername(trx, run, table, text(profile.username), who, id);
      await uniqueContact(trx, run, table, profile, who, id);
      // our logins are not the site's account's: its first login here names the site's last one as the previous
      await trx.updateTable(table).set(run.columnsOf(table, { ...profile, prev_login_time: null, prev_login_ip: '' })).where('id', '=', id).execute();
      await trx.deleteFrom('token').where('type', 'in', [...AREA_AUTH[table].sessionTypes]).where('user_id', '=', id).execute();
      if (table === 'admin') run.replacedAdmins.add(id);
    } else if (table === 'admin') {
      run.keptAdmins.add(id);
    }
    if (table === 'user' && (int(money) !== 0 || int(score) !== 0)) {
      const current = await trx.selectFrom('user').select(['money', 'score']).where('id', '=', id).executeTakeFirstOrThrow();
      await trx.updateTable('user').set({ money: int(current.money) + int(money), score: int(current.score) + int(score) }).where('id', '=', id).execute();
    }
  } else {
    profile.username = await freeUsername(trx, run, table, text(profile.username), who);
    await uniqueContact(trx, run, table, profile, who);
    id = await insert(trx, run, table, table === 'user' ? { ...profile, money, score } : profile);
    how = 'imported';
  }
  if (table === 'user') run.newMembers.add(id);
  run.claimed[table].add(id);
  if (mode) {
    const now = await trx.selectFrom(table).select('username').where('id', '=', id).executeTakeFirstOrThrow();
    run.collisions.push({ table, username: text(row.username), meets, outcome: mode, as: { id, username: text(now.username) } });
  }
  return { id, how };
}

function accountRow(row: Row): Row {
  const lastLoginTime = intOrNull(pick(row, 'last_login_time', 'lastlogintime'));
  return {
    username: text(row.username),
    nickname: text(row.nickname),
    avatar: text(row.avatar),
    email: text(row.email),
    mobile: text(row.mobile),
    motto: text(row.motto),
    login_failure: 0,
    last_login_time: lastLoginTime,
    last_login_ip: text(pick(row, 'last_login_ip', 'lastloginip')),
    // BuildAdmin's last login names a successful one unless wrong passwords came after it: the first login
    // here then names it as the previous login (docs/wire-contract.md#previous-login)
    last_success_time: int(pick(row, 'login_failure', 'loginfailure')) === 0 ? lastLoginTime : null,
    password: importedPasswordHash(text(row.password)),
    salt: text(row.salt),
    ...times(row),
  };
}

/** A row of a money or points log: member translated; for a member brought by an earlier run the balance moves with it. */
async function ledgerRow(trx: Db, row: Row, run: Run, column: 'money' | 'score'): Promise<Outcome> {
  const userId = run.idOf('user', row.user_id);
  if (userId === undefined) return { skip: `member #${text(row.user_id)} was not brought across` };
  const amount = int(row[column]);
  const id = await insert(trx, run, column === 'money' ? 'user_money_log' : 'user_score_log', {
    user_id: userId,
    [column]: amount,
    before: int(row.before),
    after: int(row.after),
    memo: text(row.memo),
    create_time: intOrNull(pick(row, 'create_time', 'createtime')),
  });
  if (!run.newMembers.has(userId)) {
    const current = await trx.selectFrom('user').select(['money', 'score']).where('id', '=', userId).executeTakeFirstOrThrow();
    await trx.updateTable('user').set({ [column]: int(current[column]) + amount }).where('id', '=', userId).execute();
  }
  return { id, how: 'imported' };
}

/** Copy an attachment's file from BuildAdmin's storage folder into ours (never outside either folder). */
function copyAttachmentFile(run: Run, url: string): void {
  if (!run.options.sourceStorage || run.options.dryRun) return;
  const storageUrl = url.startsWith(STORAGE_URL_PREFIX) ? url : `/${url}`;
  const from = fileOfUrl(run.options.sourceStorage, storageUrl);
  const to = fileOfUrl(run.target.storageDir, storageUrl);
  if (!from || !to || existsSync(to)) return;
  if (!existsSync(from)) {
    run.files.missing.push(url);
    return;
  }
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  run.files.copied += 1;
}

function jsonText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  try {
    return JSON.stringify(JSON.parse(String(value)));
  } catch {
    return null;
  }
}

const SPECS: TableSpec[] = [
  {
    source: 'admin_group',
    target: 'admin_group',
    async write(trx, row, run) {
      const existing = await findBy(trx, 'admin_group', 'name', text(row.name));
      if (existing !== undefined) return { id: existing, how: 'matched' };
      const id = await insert(trx, run, 'admin_group', { pid: run.idOf('admin_group', row.pid) ?? 0, name: text(row.name), rules: run.rules('admin', row.rules), status: status01(row.status), ...times(row) });
      return { id, how: 'imported' };
    },
  },
  {
    source: 'admin',
    target: 'admin',
    write: (trx, row, run) => writeAccount(trx, run, 'admin', row, { ...accountRow(row), status: status01(row.status) }),
  },
  {
    source: 'admin_group_access',
    target: 'admin_group_access',
    key: (row) => `${text(row.uid)}:${text(row.group_id)}`,
    async write(trx, row, run) {
      const uid = run.idOf('admin', row.uid);
      const groupId = run.idOf('admin_group', row.group_id);
      if (uid === undefined || groupId === undefined) return { skip: `administrator #${text(row.uid)} or group #${text(row.group_id)} was not brought across` };
      if (run.keptAdmins.has(uid)) {
        // kept as it is here, groups included: the site's membership stands for one of ours
        const ours = await trx.selectFrom('admin_group_access').select('id').where('uid', '=', uid).orderBy('id').executeTakeFirst();
        return ours ? { id: Number(ours.id), how: 'matched' } : { skip: 'the administrator is kept as it is here, with no group' };
      }
      const existing = await trx.selectFrom('admin_group_access').select('id').where('uid', '=', uid).where('group_id', '=', groupId).executeTakeFirst();
      if (existing) return { id: Number(existing.id), how: 'matched' };
      return { id: await insert(trx, run, 'admin_group_access', { uid, group_id: groupId }), how: 'imported' };
    },
    /** an administrator replaced by the site's holds the site's groups only */
    async finish(trx, run, known) {
      const brought = new Set(known.values());
      for (const uid of run.replacedAdmins) {
        const rows = await trx.selectFrom('admin_group_access').select('id').where('uid', '=', uid).execute();
        const ours = rows.map((item) => Number(item.id)).filter((id) => !brought.has(id));
        if (ours.length > 0) await trx.deleteFrom('admin_group_access').where('id', 'in', ours).execute();
      }
    },
  },
  {
    source: 'user_group',
    target: 'user_group',
    async write(trx, row, run) {
      const existing = await findBy(trx, 'user_group', 'name', text(row.name));
      if (existing !== undefined) return { id: existing, how: 'matched' };
      return { id: await insert(trx, run, 'user_group', { name: text(row.name), rules: run.rules('user', row.rules), status: status01(row.status), ...times(row) }), how: 'imported' };
    },
  },
  {
    source: 'user',
    target: 'user',
    async write(trx, row, run) {
      let groupId = run.idOf('user_group', row.group_id);
      if (groupId === undefined) {
        const first = await trx.selectFrom('user_group').select('id').orderBy('id').executeTakeFirst();
        groupId = Number(first?.id ?? 1);
      }
      const values: Row = {
        ...accountRow(row),
        group_id: groupId,
        gender: [0, 1, 2].includes(int(row.gender)) ? int(row.gender) : 0,
        birthday: row.birthday ? String(row.birthday).slice(0, 10) : null,
        money: int(row.money),
        score: int(row.score),
        join_ip: text(pick(row, 'join_ip', 'joinip')),
        join_time: intOrNull(pick(row, 'join_time', 'jointime')),
        status: text(row.status) === 'disable' || text(row.status) === '0' ? 'disable' : 'enable',
      };
      if (values.birthday === '0000-00-00') values.birthday = null;
      return writeAccount(trx, run, 'user', row, values);
    },
  },
  { source: 'user_money_log', target: 'user_money_log', write: (trx, row, run) => ledgerRow(trx, row, run, 'money') },
  { source: 'user_score_log', target: 'user_score_log', write: (trx, row, run) => ledgerRow(trx, row, run, 'score') },
  {
    source: 'attachment',
    target: 'attachment',
    async write(trx, row, run) {
      const url = text(row.url);
      const id = await insert(trx, run, 'attachment', {
        topic: text(row.topic),
        admin_id: run.idOf('admin', row.admin_id) ?? 0,
        user_id: run.idOf('user', row.user_id) ?? 0,
        url,
        width: int(row.width),
        height: int(row.height),
        name: text(row.name),
        size: int(row.size),
        mimetype: text(row.mimetype),
        quote: int(row.quote),
        storage: text(row.storage),
        sha1: text(row.sha1),
        create_time: intOrNull(pick(row, 'create_time', 'createtime')),
        last_upload_time: intOrNull(pick(row, 'last_upload_time', 'lastuploadtime')),
      });
      copyAttachmentFile(run, url);
      return { id, how: 'imported' };
    },
  },
  {
    source: 'config',
    target: 'config',
    key: (row) => text(row.name),
    async write(trx, row) {
      const name = text(row.name);
      if (!IMPORTED_CONFIG.has(name)) return { skip: `setting "${name}" is not one we take over` };
      const id = await findBy(trx, 'config', 'name', name);
      if (id === undefined) return { skip: `setting "${name}" does not exist here` };
      await trx.updateTable('config').set({ value: row.value === null ? null : String(row.value) }).where('id', '=', id).execute();
      return { id, how: 'imported' };
    },
  },
  {
    source: 'admin_log',
    target: 'admin_log',
    async write(trx, row, run) {
      const values = { admin_id: run.idOf('admin', row.admin_id) ?? 0, username: text(row.username), url: text(row.url), title: text(row.title), data: row.data === null ? null : text(row.data), ip: text(row.ip), useragent: text(row.useragent), create_time: intOrNull(pick(row, 'create_time', 'createtime')) };
      return { id: await insert(trx, run, 'admin_log', values), how: 'imported' };
    },
  },
  {
    source: 'security_data_recycle',
    target: 'security_data_recycle',
    async write(trx, row, run) {
      const existing = await findBy(trx, 'security_data_recycle', 'controller', text(row.controller));
      if (existing !== undefined) return { id: existing, how: 'matched' };
      const values = { name: text(row.name), controller: text(row.controller), controller_as: text(row.controller_as), data_table: text(row.data_table), connection: text(row.connection), primary_key: text(row.primary_key), status: status01(row.status), ...times(row) };
      return { id: await insert(trx, run, 'security_data_recycle', values), how: 'imported' };
    },
  },
  {
    source: 'security_data_recycle_log',
    target: 'security_data_recycle_log',
    async write(trx, row, run) {
      const values = { admin_id: run.idOf('admin', row.admin_id) ?? 0, recycle_id: run.idOf('security_data_recycle', row.recycle_id) ?? 0, data: row.data === null ? null : text(row.data), data_table: text(row.data_table), connection: text(row.connection), primary_key: text(row.primary_key), is_restore: int(row.is_restore) === 1 ? 1 : 0, ip: text(row.ip), useragent: text(row.useragent), create_time: intOrNull(pick(row, 'create_time', 'createtime')) };
      return { id: await insert(trx, run, 'security_data_recycle_log', values), how: 'imported' };
    },
  },
  {
    source: 'security_sensitive_data',
    target: 'security_sensitive_data',
    async write(trx, row, run) {
      const existing = await findBy(trx, 'security_sensitive_data', 'controller', text(row.controller));
      if (existing !== undefined) return { id: existing, how: 'matched' };
      const values = { name: text(row.name), controller: text(row.controller), controller_as: text(row.controller_as), data_table: text(row.data_table), connection: text(row.connection), primary_key: text(row.primary_key), data_fields: jsonText(row.data_fields), status: status01(row.status), ...times(row) };
      return { id: await insert(trx, run, 'security_sensitive_data', values), how: 'imported' };
    },
  },
  {
    source: 'security_sensitive_data_log',
    target: 'security_sensitive_data_log',
    async write(trx, row, run) {
      const values = {
        admin_id: run.idOf('admin', row.admin_id) ?? 0,
        sensitive_id: run.idOf('security_sensitive_data', row.sensitive_id) ?? 0,
        data_table: text(row.data_table),
        connection: text(row.connection),
        primary_key: text(row.primary_key),
        data_field: text(row.data_field),
        data_comment: text(row.data_comment),
        id_value: int(row.id_value),
        before: row.before === null ? null : text(row.before),
        after: row.after === null ? null : text(row.after),
        ip: text(row.ip),
        useragent: text(row.useragent),
        is_rollback: int(row.is_rollback) === 1 ? 1 : 0,
        create_time: intOrNull(pick(row, 'create_time', 'createtime')),
      };
      return { id: await insert(trx, run, 'security_sensitive_data_log', values), how: 'imported' };
    },
  },
];

/** A fork's table whose draft was kept (its schema is `imported/<table>`): the columns in common are copied. */
function keptTableSpec(table: string, definition: ResourceDefinition): TableSpec {
  return {
    source: table,
    target: definition.table,
    async write(trx, row, run) {
      const values: Row = {};
      for (const [column, value] of Object.entries(row)) values[column] = value;
      return { id: await insert(trx, run, definition.table, values), how: 'imported' };
    },
  };
}

async function readRuleNames(source: BuildAdminSource, table: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!source.has(table)) return names;
  for await (const page of source.rows(table)) for (const row of page) names.set(text(row.id), text(row.name));
  return names;
}

async function readOurRules(db: Db | undefined, table: 'admin_rule' | 'user_rule'): Promise<Map<string, number>> {
  const rules = new Map<string, number>();
  if (!db) return rules;
  for (const row of await db.selectFrom(table).select(['id', 'name']).execute()) rules.set(String(row.name), Number(row.id));
  return rules;
}

async function importTable(spec: TableSpec, run: Run): Promise<TableReport> {
  const { source, options } = run;
  const report: TableReport = { source: spec.source, target: spec.target, total: await source.count(spec.source), already: 0, imported: 0, matched: 0, skipped: 0, notes: [] };
  options.progress?.({ kind: 'start', table: spec.source, total: report.total });
  const known = run.maps.get(spec.source) ?? new Map<string, number>();
  run.maps.set(spec.source, known);
  run.notes = [];
  const keyOf = spec.key ?? ((row: Row) => text(row.id));
  const skipReasons = new Map<string, number>();
  const origin = originOf(source);

  const work = async (trx: Db | undefined) => {
    let done = 0;
    for await (const page of source.rows(spec.source)) {
      for (const row of page) {
        const key = keyOf(row);
        if (known.has(key)) {
          report.already += 1;
        } else if (!trx) {
          report.imported += 1;
        } else {
          const outcome = await spec.write(trx, row, run);
          if ('skip' in outcome) {
            report.skipped += 1;
            skipReasons.set(outcome.skip, (skipReasons.get(outcome.skip) ?? 0) + 1);
          } else {
            known.set(key, outcome.id);
            await recordImported(trx, origin, spec.source, key, outcome.id);
            if (outcome.how === 'imported') report.imported += 1;
            else report.matched += 1;
          }
        }
      }
      done += page.length;
      options.progress?.({ kind: 'rows', table: spec.source, done, total: report.total });
    }
    if (trx) await spec.finish?.(trx, run, known);
  };
  if (options.dryRun || !run.target.db) await work(undefined);
  else await run.target.db.transaction().execute((trx) => work(trx));

  for (const [reason, count] of skipReasons) report.notes.push(count > 1 ? `${count} rows skipped: ${reason}` : `skipped: ${reason}`);
  report.notes.push(...run.notes);
  options.progress?.({ kind: 'end', table: report });
  return report;
}

function originOf(source: BuildAdminSource): string {
  return `${source.location.label}#${source.prefix}`;
}

/** Members brought from this origin whose balance or points differ from the sum of their log rows. */
async function checkLedgers(db: Db, members: number[]): Promise<ImportReport['ledger']> {
  const ledger: ImportReport['ledger'] = { checked: members.length, money: [], score: [] };
  for (let start = 0; start < members.length; start += 500) {
    const ids = members.slice(start, start + 500);
    const users = await db.selectFrom('user').select(['id', 'username', 'money', 'score']).where('id', 'in', ids).execute();
    const money = new Map((await db.selectFrom('user_money_log').select(['user_id', (eb) => eb.fn.sum<number>('money').as('total')]).where('user_id', 'in', ids).groupBy('user_id').execute()).map((row) => [Number(row.user_id), Number(row.total)]));
    const score = new Map((await db.selectFrom('user_score_log').select(['user_id', (eb) => eb.fn.sum<number>('score').as('total')]).where('user_id', 'in', ids).groupBy('user_id').execute()).map((row) => [Number(row.user_id), Number(row.total)]));
    for (const user of users) {
      const id = Number(user.id);
      if (Number(user.money) !== (money.get(id) ?? 0)) ledger.money.push({ username: String(user.username), balance: Number(user.money), ledger: money.get(id) ?? 0 });
      if (Number(user.score) !== (score.get(id) ?? 0)) ledger.score.push({ username: String(user.username), balance: Number(user.score), ledger: score.get(id) ?? 0 });
    }
  }
  return ledger;
}

/** The source's accounts not brought before that meet one of ours, read page by page. */
async function findCollisions(source: BuildAdminSource, db: Db, maps: Map<string, Map<string, number>>): Promise<Collision[]> {
  const collisions: Collision[] = [];
  for (const table of ['admin', 'user'] as const) {
    if (!source.has(table)) continue;
    const known = maps.get(table) ?? new Map<string, number>();
    const claimed = new Set(known.values());
    for await (const page of source.rows(table)) {
      const fresh = page.filter((row) => !known.has(text(row.id))).map((row) => ({ username: text(row.username), email: text(row.email), mobile: text(row.mobile) }));
      const meetings = await accountsMeeting(db, table, fresh, claimed);
      fresh.forEach((row, index) => {
        if (meetings[index].length > 0) collisions.push({ table, username: row.username, meets: meetings[index] });
      });
    }
  }
  return collisions;
}

/** A live install with collisions and no --on-conflict: the list, and the way on, in English and Chinese. */
function refusal(collisions: Collision[], inUse: string[]): ImportInputError {
  return new ImportInputError(
    [
      `${collisions.length} account${collisions.length === 1 ? '' : 's'} of the BuildAdmin site meet${collisions.length === 1 ? 's' : ''} accounts of this install, which is in use (${inUse.join('; ')}):`,
      ...collisions.flatMap(describeCollision).map((line) => `  ${line}`),
      'Nothing was imported. Run again with --on-conflict=keep (bring them onto ours, which stay as they are), --on-conflict=replace (ours take the site\'s username, password and profile) or --on-conflict=rename (bring them as new accounts under free usernames).',
    ].join('\n'),
    [
      `BuildAdmin 站点有 ${collisions.length} 个账号与本站（已在使用：${inUse.join('；')}）的账号相同：`,
      ...collisions.flatMap(describeCollisionZh).map((line) => `  ${line}`),
      '未导入任何数据。请加上 --on-conflict=keep（并入本站账号，本站账号保持不变）、--on-conflict=replace（本站账号改用该站的用户名、密码和资料）或 --on-conflict=rename（以空闲的用户名作为新账号导入）再次运行。',
    ].join('\n'),
  );
}

export async function importBuildAdmin(source: BuildAdminSource, target: ImportTarget, options: ImportOptions): Promise<ImportReport> {
  const origin = originOf(source);
  const writes = !options.dryRun && target.db !== undefined;
  const maps = await readImportMap(target.db as Db, origin, target.mapExists);
  // a database not created yet (a dry run) is as fresh as one holding only its seeds
  const state = target.db ? await installState(target.db, target.resources, target.mapExists) : { fresh: true, inUse: [] };
  const mode = options.onConflict ?? (state.fresh ? 'replace' : undefined);
  // a live install with collisions needs a mode; a dry run lists what its mode would do with each
  const planned = target.db && (mode === undefined || !writes) ? await findCollisions(source, target.db, maps) : [];
  if (mode === undefined && planned.length > 0) throw refusal(planned, state.inUse);
  if (writes && target.db) await ensureImportMap(target.db);
  const sourceRules = { admin: await readRuleNames(source, source.has('admin_rule') ? 'admin_rule' : 'menu_rule'), user: await readRuleNames(source, 'user_rule') };
  const ourRules = { admin: await readOurRules(target.db, 'admin_rule'), user: await readOurRules(target.db, 'user_rule') };
  const run = new Run(source, target, options, maps, sourceRules, ourRules, mode);
  if (!writes && mode) run.collisions.push(...planned.map((collision) => ({ ...collision, outcome: mode })));

  const report: ImportReport = { origin, dryRun: options.dryRun, tables: [], unknownRules: { admin: [], user: [] }, ledger: { checked: 0, money: [], score: [] }, files: run.files, leftAlone: [], unknownTables: [], fresh: state.fresh, collisions: run.collisions };
  const covered = new Set(SPECS.map((spec) => spec.source));
  const specs = SPECS.filter((spec) => source.has(spec.source));
  for (const table of [...source.tables.keys()].sort()) {
    if (covered.has(table)) continue;
    if (!isPlainName(table)) {
      report.leftAlone.push({ table, reason: 'its name holds characters other than letters, digits and _, which no table here may have' });
      continue;
    }
    if (Object.hasOwn(LEFT_ALONE, table)) {
      report.leftAlone.push({ table, reason: LEFT_ALONE[table] });
      continue;
    }
    const same = [...target.resources.values()].find((definition) => definition.table === table);
    if (same && same.id.startsWith(`${DRAFT_AREA}/`)) specs.push(keptTableSpec(table, same));
    else if (same) report.leftAlone.push({ table, reason: `our ${same.id} has the same table name; its rows are not copied, as the columns need not mean the same` });
    else report.unknownTables.push({ table, columns: source.columnsOf(table), draft: options.dryRun ? undefined : schemaDraft(table, source.columnsOf(table), options.draftsDir) });
  }

  for (const spec of specs) report.tables.push(await importTable(spec, run));
  report.unknownRules = { admin: [...run.unknownRules.admin].sort(), user: [...run.unknownRules.user].sort() };
  if (target.db && (writes || target.mapExists)) {
    const members = [...(run.maps.get('user')?.values() ?? [])];
    report.ledger = await checkLedgers(target.db, members);
  }
  return report;
}
