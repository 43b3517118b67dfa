import { sql } from 'kysely';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import { dynamicDb, type Db } from '../db/connection.js';
import { IMPORT_MAP_TABLE } from '../db/system-tables.js';

/**
 * Where a BuildAdmin site's accounts meet ours. An administrator or member of the site "collides" with an
 * account here that has the same username, email or mobile number (the three a person signs in with).
 * Into a fresh install the site's accounts take the place of the seeded ones; into a live install the
 * import refuses until the operator says what to do (`--on-conflict=keep|replace|rename`).
 */

export type AccountTable = 'admin' | 'user';
export type ConflictMode = 'keep' | 'replace' | 'rename';
export const CONFLICT_MODES: readonly ConflictMode[] = ['keep', 'replace', 'rename'];

/** The values an account is found by, in the order a collision is resolved by: the username first. */
const CONTACT_FIELDS = ['username', 'email', 'mobile'] as const;
type ContactField = (typeof CONTACT_FIELDS)[number];

/** An account of ours a source account meets, and on which of its values. */
interface Meeting {
  id: number;
  username: string;
  on: { field: ContactField; value: string }[];
}

export interface Collision {
  table: AccountTable;
  /** the source account's username */
  username: string;
  meets: Meeting[];
}

const valueOf = (row: Row, field: ContactField) => (row[field] === null || row[field] === undefined ? '' : String(row[field]));

/** How many values one `in` list carries (well below every database's bound-parameter limit). */
const CHUNK = 300;

/**
 * For each of `accounts` (source rows), our accounts in `table` with one of its username, email or mobile
 * number, ordered username first, leaving out `claimed` ones (already standing for a source account).
 */
export async function accountsMeeting(db: Db, table: AccountTable, accounts: Row[], claimed: ReadonlySet<number>): Promise<Meeting[][]> {
  const wanted = new Map<ContactField, Set<string>>(CONTACT_FIELDS.map((field) => [field, new Set<string>()]));
  for (const account of accounts) for (const field of CONTACT_FIELDS) if (valueOf(account, field) !== '') wanted.get(field)!.add(valueOf(account, field));
  const ours = new Map<number, Row>();
  for (const field of CONTACT_FIELDS) {
    const values = [...wanted.get(field)!];
    for (let start = 0; start < values.length; start += CHUNK) {
      const rows = await dynamicDb(db).selectFrom(table).select(['id', 'username', 'email', 'mobile']).where(field, 'in', values.slice(start, start + CHUNK)).execute();
      for (const row of rows) if (!claimed.has(Number(row.id))) ours.set(Number(row.id), row);
    }
  }
  return accounts.map((account) => {
    const meetings: Meeting[] = [];
    for (const row of ours.values()) {
      const on = CONTACT_FIELDS.filter((field) => valueOf(account, field) !== '' && valueOf(account, field) === valueOf(row, field)).map((field) => ({ field, value: valueOf(account, field) }));
      if (on.length > 0) meetings.push({ id: Number(row.id), username: valueOf(row, 'username'), on });
    }
    const rank = (meeting: Meeting) => Math.min(...meeting.on.map((item) => CONTACT_FIELDS.indexOf(item.field)));
    return meetings.sort((a, b) => rank(a) - rank(b) || a.id - b.id);
  });
}

/**
 * Whether the install holds nothing but what its first start seeded, and if not, what says it is in use:
 * no administrator or member besides the seeded ones, none of those has ever signed in (no last login
 * time, no session), no balance or points entry and no balance or points on the seeded member, and nothing
 * brought by an earlier import.
 */
interface InstallState {
  fresh: boolean;
  /** what makes the install live, one line each (empty when fresh) */
  inUse: string[];
}

export async function installState(db: Db, resources: ReadonlyMap<string, ResourceDefinition>, mapExists: boolean): Promise<InstallState> {
  const inUse: string[] = [];
  const total = async (query: { select: (expression: unknown) => { executeTakeFirstOrThrow: () => Promise<unknown> } }) => Number(((await query.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow()) as Row).total);
  const rows = (table: string) => dynamicDb(db).selectFrom(table);
  const seedIds = (table: AccountTable) => [...resources.values()].find((definition) => definition.table === table)?.seed.map((row) => Number(row.id)).filter(Number.isFinite) ?? [];
  for (const [table, noun] of [['admin', 'administrator'], ['user', 'member']] as const) {
    const seeded = seedIds(table);
    const others = await total(seeded.length ? rows(table).where('id', 'not in', seeded) : rows(table));
    if (others > 0) inUse.push(`${others} ${noun}${others === 1 ? '' : 's'} besides the seeded one${seeded.length === 1 ? '' : 's'}`);
    if (seeded.length === 0) continue;
    const signedIn = await dynamicDb(db).selectFrom(table).select(['id', 'username']).where('id', 'in', seeded).where('last_login_time', 'is not', null).where('last_login_time', '!=', 0).execute();
    for (const row of signedIn) inUse.push(`${noun} #${String(row.id)} "${String(row.username)}" has signed in`);
  }
  const sessions = await total(rows('token'));
  if (sessions > 0) inUse.push(`${sessions} session${sessions === 1 ? '' : 's'}`);
  for (const [table, noun] of [['user_money_log', 'balance'], ['user_score_log', 'points']] as const) {
    const entries = await total(rows(table));
    if (entries > 0) inUse.push(`${entries} ${noun} entr${entries === 1 ? 'y' : 'ies'}`);
  }
  const holding = await total(rows('user').where((where) => where.or([where('money', '!=', 0), where('score', '!=', 0)])));
  if (holding > 0) inUse.push(`${holding} member${holding === 1 ? ' holds' : 's hold'} a balance or points`);
  if (mapExists && (await total(rows(IMPORT_MAP_TABLE))) > 0) inUse.push('rows brought by an earlier import');
  return { fresh: inUse.length === 0, inUse: [...new Set(inUse)] };
}

/** `administrator "admin" meets ours #1 "admin" on username "admin", email "a@b"` (one line per account of ours). */
export function describeCollision(collision: Collision): string[] {
  const noun = collision.table === 'admin' ? 'administrator' : 'member';
  return collision.meets.map((meeting) => `${noun} "${collision.username}" meets our #${meeting.id} "${meeting.username}" on ${meeting.on.map((item) => `${item.field} "${item.value}"`).join(', ')}`);
}

export function describeCollisionZh(collision: Collision): string[] {
  const noun = collision.table === 'admin' ? '管理员' : '会员';
  const field: Record<ContactField, string> = { username: '用户名', email: '邮箱', mobile: '手机号' };
  return collision.meets.map((meeting) => `${noun}“${collision.username}”与本站 #${meeting.id}“${meeting.username}”的${meeting.on.map((item) => `${field[item.field]}“${item.value}”`).join('、')}相同`);
}
