import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import type { Db } from '../../db/connection.js';
import { nowSeconds } from '../../clock.js';
import { DEFAULT_LANGUAGE, type Language } from '../../../contract/headers.js';
import { findResourceByTable, type AppContext, type RequestContext, type ResourceHooks } from '../../app-context.js';
import { seededTextIn } from '../../seeded-names.js';
import { Success } from '../../errors.js';
import { addedAnswer, addRow } from '../operations/add.js';
import { editRow } from '../operations/edit.js';
import { readRow } from '../operations/read.js';

/**
 * The rules of the recycle bin and of the sensitive-data log name a controller the way BuildAdmin does,
 * by its file (`auth/Admin.php`); `controller_as` is what requests are matched on (`auth/admin`). Their
 * forms ask `add` (GET) for the controllers and tables to choose from; `edit` (GET) of a sensitive-data
 * rule answers them beside the row. A sensitive-data rule's `data_fields` is an object, field name →
 * note; its list shows the notes (or names), and its form sends the fields as `fields: [{name, value}]`.
 */

/** BuildAdmin's `controller_as`: the file without `.php`, `\` and `.` as `/`, lower-cased. */
function controllerAsOf(controller: string): string {
  return controller
    .replace(/\.php$/i, '')
    .replace(/[\\.]/g, '/')
    .toLowerCase();
}

/** `auth.Admin` → `auth/Admin.php`: an admin controller as BuildAdmin's file list names it. */
function controllerFile(name: string): string {
  return `${name.replace(/\./g, '/')}.php`;
}

interface RuleKind {
  /** controller files no rule may name: the bin keeps no rows of theirs, or they have no edits to log */
  excludedControllers: string[];
  excludedTables: string[];
  /** the sensitive-data rule's fields, as BuildAdmin's form and list have them */
  watchesFields: boolean;
  /** the schema of the rules, whose seed names the rules a fresh install has */
  resourceId: string;
}

/** The recycle-bin rules' choices: controllers and tables whose deleted rows the bin cannot keep are left out. */
export const RECYCLE: RuleKind = {
  excludedControllers: [
    'Addon.php',
    'Ajax.php',
    'Module.php',
    'Terminal.php',
    'Dashboard.php',
    'Index.php',
    'routine/AdminInfo.php',
    'user/MoneyLog.php',
    'user/ScoreLog.php',
  ],
  excludedTables: ['token', 'captcha', 'admin_group_access', 'user_money_log', 'user_score_log'],
  watchesFields: false,
  resourceId: 'system/security_data_recycle',
};

/** The sensitive-data rules' choices: besides the bin's exclusions, the logs and settings, which have no edits to watch. */
export const SENSITIVE: RuleKind = {
  excludedControllers: [...RECYCLE.excludedControllers, 'auth/AdminLog.php', 'routine/Config.php'],
  excludedTables: [
    'area',
    'token',
    'captcha',
    'admin_group_access',
    'config',
    'admin_log',
    'user_money_log',
    'user_score_log',
  ],
  watchesFields: true,
  resourceId: 'system/security_sensitive_data',
};

/**
 * BuildAdmin's form sends the watched fields as `fields: [{name, value}]` (name and note) and leaves its
 * own `data_fields` (the chosen names) to be replaced by them; a body without `fields` is taken as sent.
 */
function withWatchedFields(body: Row): Row {
  const { fields, ...rest } = body;
  if (!Array.isArray(fields)) return body;
  const entries = fields.filter(
    (item): item is Row =>
      typeof item === 'object' && item !== null && typeof (item as Row).name === 'string' && (item as Row).name !== '',
  );
  return {
    ...rest,
    data_fields: Object.fromEntries(
      entries.map((item) => [String(item.name), typeof item.value === 'string' ? item.value : '']),
    ),
  };
}

/** A screen a rule may cover, as the rule forms offer it: its controller file, its menu's title, its table and key. */
interface RuleResource {
  controller: string;
  title: string;
  data_table: string;
  primary_key: string;
}

/** The admin controllers a rule may name, with the screen each serves (none for a controller without a schema). */
function ruleControllers(app: AppContext, kind: RuleKind): { file: string; definition?: ResourceDefinition }[] {
  const excluded = new Set(kind.excludedControllers.map((file) => file.toLowerCase()));
  return app.controllers
    .all('admin')
    .map((controller) => ({ file: controllerFile(controller.name), definition: controller.resource }))
    .filter(({ file }) => !excluded.has(file.toLowerCase()))
    .sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * What the rule forms choose from: `controllers` (file → file, as BuildAdmin lists them: its select posts the key
 * as the rule's `controller`), `tables` (name → title), and ours, `resources`: each screen a rule may
 * cover, named by its menu's title in the reader's language, with the table and key its rule records.
 */
function ruleChoices(
  app: AppContext,
  kind: RuleKind,
  lang: Language,
): { controllers: Record<string, string>; tables: Record<string, string>; resources: RuleResource[] } {
  const controllers = ruleControllers(app, kind);
  const tables = [...app.resources.values()]
    .filter((definition) => !kind.excludedTables.includes(definition.table))
    .sort((a, b) => a.table.localeCompare(b.table))
    .map((definition) => [definition.table, definition.title[lang]] as const);
  const resources = controllers.flatMap(({ file, definition }) =>
    definition && !kind.excludedTables.includes(definition.table)
      ? [
          {
            controller: file,
            title: (definition.menu?.title ?? definition.title)[lang],
            data_table: definition.table,
            primary_key: definition.primaryKey,
          },
        ]
      : [],
  );
  return {
    controllers: Object.fromEntries(controllers.map(({ file }) => [file, file])),
    tables: Object.fromEntries(tables),
    resources,
  };
}

/**
 * A data rule's name as a person reads it: a seeded rule's name, or the one the designer gave a module's
 * rule (its table's title), in the reader's language while it is as written; a name an operator chose as
 * stored. The recycle bin's entries name their rule the same way.
 */
export function dataRuleNameIn(app: AppContext, lang: Language, resourceId: string, name: unknown, dataTable: unknown): string {
  const text = typeof name === 'string' ? name : String(name ?? '');
  const table = findResourceByTable(app, dataTable);
  if (table && table.title[DEFAULT_LANGUAGE] === text) return table.title[lang];
  const seeds = app.resources.get(resourceId)?.seed ?? [];
  return seededTextIn(app, lang, text, seeds.map((seed) => seed.name));
}

/** A watched field's note in the reader's language while it is the one its seed gave it. */
function fieldNoteIn(app: AppContext, lang: Language, resourceId: string, note: string): string {
  const seeds = app.resources.get(resourceId)?.seed ?? [];
  const notes = seeds.flatMap((seed) => (seed.data_fields && typeof seed.data_fields === 'object' ? Object.values(seed.data_fields) : []));
  return seededTextIn(app, lang, note, notes);
}

export function dataRuleHooks(kind: RuleKind, choicesWithRow: boolean): ResourceHooks {
  const bodyOf = (ctx: RequestContext) => (kind.watchesFields ? withWatchedFields(ctx.body) : ctx.body);
  return {
    // Lists and choices read seeded names in the reader's language (the form edits the stored one).
    // BuildAdmin's list shows a rule's watched fields as their notes, or names where there is none.
    async present(operator, rows, view) {
      if (view === 'edit') return rows;
      const app = operator.app;
      const lang = operator.lang ?? DEFAULT_LANGUAGE;
      const resourceId = kind.resourceId;
      return rows.map((row) => {
        const named = 'name' in row ? { ...row, name: dataRuleNameIn(app, lang, resourceId, row.name, row.data_table) } : { ...row };
        const fields = row.data_fields;
        if (!kind.watchesFields || view !== 'list' || !fields || typeof fields !== 'object' || Array.isArray(fields)) return named;
        return {
          ...named,
          data_fields: Object.entries(fields as Record<string, unknown>).map(([name, note]) =>
            typeof note === 'string' && note !== '' ? fieldNoteIn(app, lang, resourceId, note) : name,
          ),
        };
      });
    },
    async beforeWrite(operator, write) {
      if (typeof write.values.controller !== 'string') return;
      write.values.controller_as = controllerAsOf(write.values.controller);
      // A controller that serves a screen: its rule names that screen's table and key, whatever was sent.
      const chosen = ruleControllers(operator.app, kind).find(
        ({ file }) => controllerAsOf(file) === write.values.controller_as,
      );
      if (chosen?.definition) {
        write.values.data_table = chosen.definition.table;
        write.values.primary_key = chosen.definition.primaryKey;
      }
    },
    actions: {
      // GET: the choices, so the form needs no node of its own (as in BuildAdmin); POST: the generic add.
      add: async (ctx: RequestContext) => {
        if (ctx.method !== 'POST') return ruleChoices(ctx.app, kind, ctx.lang);
        const definition = ctx.controller.resource;
        if (!definition || !ctx.controller.hooks) throw new Error('data rule controller without its schema');
        return addedAnswer(definition, await addRow(ctx, definition, ctx.controller.hooks, bodyOf(ctx)));
      },
      ...(choicesWithRow
        ? {
            edit: async (ctx: RequestContext) => {
              const definition = ctx.controller.resource;
              if (!definition || !ctx.controller.hooks) throw new Error('data rule controller without its schema');
              if (ctx.method === 'POST') {
                await editRow(ctx, definition, ctx.controller.hooks, bodyOf(ctx));
                return new Success(null, 'Update successful!');
              }
              return {
                row: await readRow(ctx, definition, ctx.controller.hooks, ctx.query[definition.primaryKey]),
                ...ruleChoices(ctx.app, kind, ctx.lang),
              };
            },
          }
        : {}),
    },
  };
}

/** Whether a recycle rule covers a designed module's controller: `enabled`, `disabled` (kept, switched off) or `none`. */
export async function designedRecycleRule(db: Db, controllerPath: string): Promise<'enabled' | 'disabled' | 'none'> {
  const rule = await db.selectFrom('security_data_recycle').select('status').where('controller_as', '=', controllerPath).executeTakeFirst();
  if (!rule) return 'none';
  return String(rule.status) === '1' ? 'enabled' : 'disabled';
}

/**
 * The designer's "keep deleted rows in the recycle bin", in the transaction that stores the design: on, the
 * rule covering the module's controller is switched on (or made, one per controller); off, it is switched off
 * and keeps the rows it logged, which can still be restored.
 */
export async function keepDeletedRows(trx: Db, definition: ResourceDefinition, keep: boolean): Promise<void> {
  if (!definition.controller || !definition.controllerPath) return;
  const now = nowSeconds();
  const existing = await trx.selectFrom('security_data_recycle').select('id').where('controller_as', '=', definition.controllerPath).executeTakeFirst();
  if (existing) {
    const update = trx.updateTable('security_data_recycle').where('id', '=', existing.id);
    if (keep) await update.set({ status: '1', data_table: definition.table, primary_key: definition.primaryKey, update_time: now }).execute();
    else await update.set({ status: '0', update_time: now }).execute();
    return;
  }
  if (!keep) return;
  await trx
    .insertInto('security_data_recycle')
    .values({
      name: definition.title['zh-cn'].slice(0, 50),
      controller: controllerFile(definition.controller),
      controller_as: definition.controllerPath,
      data_table: definition.table,
      connection: '',
      primary_key: definition.primaryKey,
      status: '1',
      create_time: now,
      update_time: now,
    })
    .execute();
}
