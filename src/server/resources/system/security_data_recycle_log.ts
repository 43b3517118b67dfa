import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { findResourceByTable, resourceByTable, withinTransaction, type AppContext, type RequestContext, type ResourceHooks } from '../../app-context.js';
import type { Identity } from '../../auth/identity.js';
import { nowSeconds } from '../../clock.js';
import { dynamicDb, type Db, type StoredRow } from '../../db/connection.js';
import { storedDefault } from '../../db/values.js';
import { errors, Success } from '../../errors.js';
import { mayReadList } from '../access.js';
import { presentRows } from '../present.js';
import { DEFAULT_LANGUAGE, type Language } from '../../../contract/headers.js';
import { isRecord } from '../../../contract/checks.js';
import { dataRuleNameIn } from './data-rules.js';
import { advanceKeySequence, asStoredValue, breaksUniqueness, parseIds, readLogEntry, storedField } from './security-log.js';

/**
 * The recycle bin (docs/wire-contract.md#recycle-bin): `info` shows a snapshot decoded, `restore` puts snapshots back
 * into their tables with their original keys. Tables are resolved through the schemas only, and
 * fields the schema marks write-only (password hashes, salts) are masked wherever a snapshot is shown.
 */

const MASK = '******';

/** A snapshot's stored row, or undefined when `data` is not a JSON object. */
function parseSnapshot(data: unknown): Row | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The snapshot with write-only fields of its resource masked. */
function maskSnapshot(snapshot: Row, definition: ResourceDefinition | undefined): Row {
  const masked = { ...snapshot };
  for (const field of definition?.fields ?? []) {
    if (field.writeOnly && field.name in masked && masked[field.name] !== '' && masked[field.name] !== null) masked[field.name] = MASK;
  }
  return masked;
}

/** A string value holding a non-empty JSON object or array, decoded; anything else as it is. */
function decodeValue(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' && Object.keys(parsed).length > 0 ? parsed : value;
  } catch {
    return value;
  }
}

/**
 * The row to insert for a snapshot: stored columns only; columns the snapshot lacks (or holds null for
 * while the column is not nullable) at their defaults. Undefined when the key is missing or a value
 * cannot be stored as its column is now.
 */
function rowOfSnapshot(definition: ResourceDefinition, snapshot: Row): Row | undefined {
  const row: Row = {};
  for (const field of definition.fields) {
    if (!field.storage) continue;
    const value = snapshot[field.name];
    if (field.name === definition.primaryKey && (value === null || value === undefined || value === '')) return undefined;
    if (value === undefined || (value === null && !field.nullable)) {
      row[field.name] = field.name === definition.timestamps.create ? nowSeconds() : field.nullable ? null : storedDefault(field);
      continue;
    }
    const stored = asStoredValue(field, value);
    if (stored === 'invalid') return undefined;
    row[field.name] = stored.value;
  }
  return row;
}

/** Restore one log entry; false when it is skipped (unknown table, bad snapshot, key or unique value taken). */
async function restoreEntry(ctx: RequestContext, db: Db, entry: StoredRow<'security_data_recycle_log'>): Promise<boolean> {
  const trx = dynamicDb(db);
  const definition = findResourceByTable(ctx.app, entry.data_table);
  if (!definition || entry.primary_key !== definition.primaryKey || !storedField(definition, definition.primaryKey)) return false;
  const snapshot = parseSnapshot(entry.data);
  const row = snapshot && rowOfSnapshot(definition, snapshot);
  if (!row) return false;
  const key = row[definition.primaryKey];
  const taken = await trx.selectFrom(definition.table).select(definition.primaryKey).where(definition.primaryKey, '=', key).executeTakeFirst();
  if (taken || (await breaksUniqueness(trx, definition, row))) return false;
  await trx.insertInto(definition.table).values(row).execute();
  await advanceKeySequence(ctx.app, trx, definition, key);
  // What the row had besides its columns (an admin's groups) comes back through its own write hook.
  const virtual = Object.fromEntries(definition.fields.filter((field) => !field.storage && field.name in snapshot).map((field) => [field.name, snapshot[field.name]]));
  const hooks = ctx.app.controllers.forResource(definition.id)?.hooks;
  if (hooks?.afterWrite && Object.keys(virtual).length > 0) await hooks.afterWrite(ctx, { mode: 'add', definition, values: virtual, id: key as number, trx: db });
  await trx.deleteFrom('security_data_recycle_log').where('id', '=', entry.id).execute();
  return true;
}

/**
 * A snapshot as its screen's list showed the row (wire values, the labels of its references, the
 * screen's own presentation), for this operator; undefined when the screen's presentation cannot take
 * it (a snapshot older than a column the presentation needs), the decoded snapshot then standing alone.
 */
async function presentedSnapshot(ctx: RequestContext, definition: ResourceDefinition, snapshot: Row): Promise<Row | undefined> {
  const hooks = ctx.app.controllers.forResource(definition.id)?.hooks ?? {};
  try {
    const [row] = await presentRows(ctx, definition, hooks, [snapshot], 'list');
    return row;
  } catch {
    return undefined;
  }
}

/** The entry names its rule as the rules' list does: in the reader's language while the name is seeded. */
function withRuleNameIn(app: AppContext, lang: Language, row: Row): Row {
  const recycle = row.recycle;
  if (!recycle || typeof recycle !== 'object' || !('name' in recycle)) return row;
  return { ...row, recycle: { ...recycle, name: dataRuleNameIn(app, lang, 'system/security_data_recycle', recycle.name, row.data_table) } };
}

/** The screen a deleted row came from, as its menu names it in the reader's language; a table no schema describes by its name. */
function dataTitleIn(app: AppContext, lang: Language, table: unknown): string {
  const definition = findResourceByTable(app, table);
  return definition ? definition.title[lang] : String(table ?? '');
}

/**
 * Who deleted each entry's row, as `admin: {id, nickname}`. The nickname (else the username) is an
 * administrator's data, so it goes only to a reader who may list administrators, as every reference's label
 * does (docs/architecture.md#references); another reader gets the id alone, which their screen shows. An
 * entry that names no admin (written by the system, or imported from before the field), or one deleted since,
 * reads "Unknown admin" in the reader's language.
 */
async function withAdminNames(app: AppContext, reader: Identity | undefined, lang: Language, rows: Row[]): Promise<Row[]> {
  const ids = [...new Set(rows.map((row) => Number(row.admin_id)).filter((id) => Number.isInteger(id) && id > 0))];
  const mayName = mayReadList(reader, resourceByTable(app, 'admin'));
  const admins = ids.length > 0 ? await app.db.selectFrom('admin').select(['id', 'nickname', 'username']).where('id', 'in', ids).execute() : [];
  const names = new Map(admins.map((admin) => [Number(admin.id), admin.nickname || admin.username]));
  const unknown = app.messages.translator(lang)('Unknown admin');
  return rows.map((row) => {
    const id = Number(row.admin_id ?? 0);
    const name = names.get(id);
    if (name === undefined) return { ...row, admin: { id, nickname: unknown } };
    return { ...row, admin: mayName ? { id, nickname: name } : { id } };
  });
}

/** An entry as the bin shows it: its rule's name and its row's screen in the reader's language, and who deleted it. */
async function shownEntries(app: AppContext, reader: Identity | undefined, lang: Language, rows: Row[]): Promise<Row[]> {
  const named = rows.map((row) => ({ ...withRuleNameIn(app, lang, row), data_title: dataTitleIn(app, lang, row.data_table) }));
  return withAdminNames(app, reader, lang, named);
}

export const dataRecycleLogHooks: ResourceHooks = {
  async present(operator, rows) {
    const lang = operator.lang ?? DEFAULT_LANGUAGE;
    const masked = rows.map((row) => {
      const snapshot = parseSnapshot(row.data);
      return snapshot ? { ...row, data: JSON.stringify(maskSnapshot(snapshot, findResourceByTable(operator.app, row.data_table))) } : row;
    });
    return shownEntries(operator.app, operator.identity, lang, masked);
  },

  actions: {
    /**
     * `GET info?id=`: the log row with its relations, `data` decoded (and its JSON values too), and ours,
     * `record`: the deleted row as its list showed it (absent for a table no screen describes).
     */
    async info(ctx) {
      const { stored, row } = await readLogEntry(ctx);
      const definition = findResourceByTable(ctx.app, stored.data_table);
      const parsed = parseSnapshot(stored.data) ?? {};
      const snapshot = maskSnapshot(parsed, definition);
      const data = Object.fromEntries(Object.entries(snapshot).map(([name, value]) => [name, decodeValue(value)]));
      const record = definition ? await presentedSnapshot(ctx, definition, parsed) : undefined;
      const [shown] = await shownEntries(ctx.app, ctx.identity, ctx.lang, [row]);
      return { row: { ...shown, data, ...(record ? { record } : {}) } };
    },

    /** `POST restore {ids}`: every snapshot that fits goes back to its table and its log row is deleted, in one transaction. */
    async restore(ctx) {
      if (ctx.method !== 'POST') throw errors.parameterError();
      const ids = parseIds(ctx.params.ids);
      const restored = await ctx.app.db.transaction().execute(async (trx) => {
        const scoped = { ...ctx, app: withinTransaction(ctx.app, trx) };
        const entries = await trx.selectFrom('security_data_recycle_log').selectAll().where('id', 'in', ids).orderBy('id').execute();
        let count = 0;
        for (const entry of entries) if (await restoreEntry(scoped, trx, entry)) count += 1;
        return count;
      });
      if (restored === 0) throw errors.noRowsRestored();
      return new Success(null, '');
    },
  },
};
