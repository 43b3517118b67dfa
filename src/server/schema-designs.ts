import { isDeepStrictEqual } from 'node:util';
import type { Language } from '../contract/headers.js';
import type { ResourceDefinition } from '../schema/definition.js';
import type { SchemaLocaleFile } from '../schema/local-text.js';
import { nowSeconds } from './clock.js';
import type { Db } from './db/connection.js';
import type { MigrationPreview } from './db/migrate.js';
import { SCHEMA_DESIGN_LOG_TABLE, SCHEMA_DESIGN_TABLE } from './db/system-tables.js';

/**
 * The schemas designed in the back office as the database stores them: each design in `schema_design`, each
 * change of one in `schema_design_log` (who, when, the version and the diff), and the types of a change.
 */

/** Who made a change, for the log. */
export interface SchemaActor {
  id: number;
  username: string;
}

/** A schema to make live, with the texts of its locale files (`{title, menu, fields}` per language) when it has any. */
export interface SchemaDesign {
  raw: Record<string, unknown>;
  locale?: Partial<Record<Language, SchemaLocaleFile>>;
}

/** One stored design. */
export interface DesignedSchema extends SchemaDesign {
  id: string;
  version: number;
  /**
   * The design's earlier versions (from its log), read only when `schemas/` holds a file with its `$id`: a
   * copy written before the latest change (by this process before a restart, or one on another machine that
   * never saw the change) holds one of them, and is a copy still, not a schema of its own.
   */
  earlier?: Record<string, unknown>[];
}

/** What a change to the set did, or would do. */
export interface SchemaChange {
  /** the definitions of the schemas changed, in the order given */
  definitions: ResourceDefinition[];
  migration: MigrationPreview;
  /** what was applied (empty for a preview) */
  applied: string[];
  revision: number;
}

/** One entry of a design's history. */
export interface SchemaHistoryEntry {
  id: number;
  schemaId: string;
  version: number;
  action: 'create' | 'update' | 'delete';
  definition: Record<string, unknown> | null;
  diff: string[];
  adminId: number;
  adminUsername: string;
  createTime: number;
}

/** Every version each of `ids` has had, from the designs' log: what a copy of one in `schemas/` may hold. */
export async function loggedVersions(db: Db, ids: readonly string[]): Promise<Map<string, Record<string, unknown>[]>> {
  const versions = new Map<string, Record<string, unknown>[]>(ids.map((id) => [id, []]));
  if (!ids.length) return versions;
  const logged = (await db.selectFrom(SCHEMA_DESIGN_LOG_TABLE).select(['schema_id', 'definition']).where('schema_id', 'in', [...ids]).where('definition', 'is not', null).execute()) as { schema_id: string; definition: string }[];
  for (const entry of logged) versions.get(entry.schema_id)?.push(JSON.parse(entry.definition) as Record<string, unknown>);
  return versions;
}

/** The stored designs; for those whose `$id` is in `withFiles`, their earlier versions too. */
export async function readDesigned(db: Db, withFiles: ReadonlySet<string> = new Set()): Promise<DesignedSchema[]> {
  const rows = await db.selectFrom(SCHEMA_DESIGN_TABLE).select(['schema_id', 'definition', 'locale', 'version']).orderBy('schema_id').execute();
  const earlier = await loggedVersions(db, rows.map((row) => row.schema_id).filter((id) => withFiles.has(id)));
  return rows.map((row) => ({
    id: row.schema_id,
    raw: JSON.parse(row.definition) as Record<string, unknown>,
    ...(row.locale ? { locale: JSON.parse(row.locale) as DesignedSchema['locale'] } : {}),
    version: Number(row.version),
    ...(earlier.has(row.schema_id) ? { earlier: earlier.get(row.schema_id) } : {}),
  }));
}

/** A design's history, newest first. */
export async function designHistory(db: Db, id: string): Promise<SchemaHistoryEntry[]> {
  const rows = await db.selectFrom(SCHEMA_DESIGN_LOG_TABLE).selectAll().where('schema_id', '=', id).orderBy('id', 'desc').execute();
  return rows.map((row) => ({
    id: Number(row.id),
    schemaId: String(row.schema_id),
    version: Number(row.version),
    action: row.action as SchemaHistoryEntry['action'],
    definition: row.definition ? (JSON.parse(String(row.definition)) as Record<string, unknown>) : null,
    diff: JSON.parse(String(row.diff)) as string[],
    adminId: Number(row.admin_id),
    adminUsername: String(row.admin_username),
    createTime: Number(row.create_time),
  }));
}

/** Log one change of a design: who made it, when, the version it left and what changed. */
export async function recordDesignChange(trx: Db, id: string, version: number, action: SchemaHistoryEntry['action'], before: Record<string, unknown> | null, after: Record<string, unknown> | null, actor: SchemaActor): Promise<void> {
  await trx
    .insertInto(SCHEMA_DESIGN_LOG_TABLE)
    .values({
      schema_id: id, version, action, definition: after ? JSON.stringify(after) : null, diff: JSON.stringify(schemaDiff(before, after)),
      admin_id: actor.id, admin_username: actor.username.slice(0, 100), create_time: nowSeconds(),
    })
    .execute();
}

/** What changed between two versions of a schema, one line per field or keyword. */
export function schemaDiff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string[] {
  const lines: string[] = [];
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of [...keys].sort()) {
    if (key === 'properties') continue;
    const [a, b] = [before?.[key], after?.[key]];
    if (isDeepStrictEqual(a, b)) continue;
    lines.push(a === undefined ? `+ ${key}: ${JSON.stringify(b)}` : b === undefined ? `- ${key}` : `~ ${key}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  }
  const fieldsBefore = (before?.properties ?? {}) as Record<string, unknown>;
  const fieldsAfter = (after?.properties ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(fieldsBefore)) {
    if (!(name in fieldsAfter)) lines.push(`- field ${name}`);
  }
  for (const [name, field] of Object.entries(fieldsAfter)) {
    const renamedFrom = (field as { 'x-renamedFrom'?: string })['x-renamedFrom'];
    if (!(name in fieldsBefore)) {
      lines.push(renamedFrom && renamedFrom in fieldsBefore ? `~ field ${renamedFrom} → ${name}` : `+ field ${name}: ${JSON.stringify(field)}`);
    } else if (!isDeepStrictEqual(fieldsBefore[name], field)) {
      lines.push(`~ field ${name}: ${JSON.stringify(fieldsBefore[name])} → ${JSON.stringify(field)}`);
    }
  }
  return lines;
}
