import { sql, type Generated } from 'kysely';
import type { DatabaseHandle } from '../db/connection.js';
import { AUTH_REVISION_TABLE } from '../db/system-tables.js';
import type { Area } from './identity.js';

/**
 * A counter per area that the database itself moves whenever what an account may do could have changed:
 * an account enabled or disabled or moved to another group, a group's rules or status, a rule's name or
 * status, membership of admin groups. Triggers do the counting, so every writer counts (the resource
 * engine, a service, another process on the same PostgreSQL, a hand-written UPDATE). A process may keep
 * the permissions it resolved for an account while the counter it read them under is still the current
 * one (`IdentityCache`), and learns the current one in the same query that finds the token.
 */

/** A row of the counter table, created by `ensureAuthRevision` below. */
interface AuthRevisionTable {
  /** `admin` or `user` */
  area: string;
  revision: Generated<number>;
}

type Watched = { table: string; area: Area; inserts: boolean; deletes: boolean; columns: string[] };

/**
 * What moves each area's counter. A new or deleted account needs no count: its token is looked up with
 * the account row, which is then missing. A balance update (the `user` row's money) moves nothing.
 */
const WATCHED: readonly Watched[] = [
  { table: 'admin', area: 'admin', inserts: false, deletes: false, columns: ['status'] },
  { table: 'admin_group_access', area: 'admin', inserts: true, deletes: true, columns: ['uid', 'group_id'] },
  { table: 'admin_group', area: 'admin', inserts: false, deletes: true, columns: ['rules', 'status'] },
  // a rule's remark is the note shown above its list, cached under the revision too
  { table: 'admin_rule', area: 'admin', inserts: true, deletes: true, columns: ['name', 'status', 'remark'] },
  { table: 'user', area: 'user', inserts: false, deletes: false, columns: ['status', 'group_id'] },
  { table: 'user_group', area: 'user', inserts: false, deletes: true, columns: ['rules', 'status'] },
  { table: 'user_rule', area: 'user', inserts: true, deletes: true, columns: ['name', 'status'] },
];

const AREAS: readonly Area[] = ['admin', 'user'];

function triggerName(table: string, event: string): string {
  return `auth_rev_${table}_${event}`;
}

/** Create the counter table and its triggers on the tables that exist (idempotent; run at start-up). */
export async function ensureAuthRevision(handle: DatabaseHandle, tables: ReadonlySet<string>): Promise<void> {
  const { db, dialect } = handle;
  await db.schema
    .createTable(AUTH_REVISION_TABLE)
    .ifNotExists()
    .addColumn('area', 'varchar(10)', (column) => column.primaryKey())
    .addColumn('revision', 'bigint', (column) => column.notNull().defaultTo(0))
    .execute();
  for (const area of AREAS) {
    await db.insertInto(AUTH_REVISION_TABLE).values({ area, revision: 0 }).onConflict((conflict) => conflict.column('area').doNothing()).execute();
  }
  if (dialect === 'postgres') {
    await sql`CREATE OR REPLACE FUNCTION auth_revision_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE auth_revision SET revision = revision + 1 WHERE area = TG_ARGV[0];
        RETURN NULL;
      END $$`.execute(db);
  }
  for (const watched of WATCHED) {
    if (!tables.has(watched.table)) continue;
    const events: [string, string][] = [];
    if (watched.inserts) events.push(['ai', 'INSERT']);
    if (watched.deletes) events.push(['ad', 'DELETE']);
    events.push(['au', `UPDATE OF ${watched.columns.map((column) => `"${column}"`).join(', ')}`]);
    for (const [suffix, event] of events) {
      // Names come from the constant table above, never from input.
      const name = sql.raw(`"${triggerName(watched.table, suffix)}"`);
      const on = sql.raw(`"${watched.table}"`);
      const when = sql.raw(event);
      if (dialect === 'postgres') {
        await sql`CREATE OR REPLACE TRIGGER ${name} AFTER ${when} ON ${on} FOR EACH STATEMENT EXECUTE FUNCTION auth_revision_bump(${sql.lit(watched.area)})`.execute(db);
      } else {
        // Made again at every start, so a changed column list or a table rebuilt by a migration is in step.
        await sql`DROP TRIGGER IF EXISTS ${name}`.execute(db);
        await sql`CREATE TRIGGER ${name} AFTER ${when} ON ${on} BEGIN UPDATE auth_revision SET revision = revision + 1 WHERE area = ${sql.lit(watched.area)}; END`.execute(db);
      }
    }
  }
}

declare module '../db/system-tables.js' {
  interface SystemTables {
    [AUTH_REVISION_TABLE]: AuthRevisionTable;
  }
}
