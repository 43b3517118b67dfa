import { upgradeLegacySignatures } from './services/survey/legacy-signatures.js';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import { LANGUAGES, type Language } from '../contract/headers.js';
import type { ResourceDefinition } from '../schema/definition.js';
import { checkSchemaFiles, checkSchemaLocale, readSchemaFiles, schemaGlossary, type SchemaFile } from '../schema/load-files.js';
import { SchemaError } from '../schema/normalise.js';
import type { AppContext, ApplyOptions, RemoveOptions, RunningSchemas } from './app-context.js';
import { designHistory, loggedVersions, readDesigned, recordDesignChange, type DesignedSchema, type SchemaActor, type SchemaChange, type SchemaDesign, type SchemaHistoryEntry } from './schema-designs.js';
import { resourceSet, type ResourceSet } from './resource-set.js';
import { ensureSchemaTables } from './schema-tables.js';
import { ensureStoreTables } from './modules/store-tables.js';
import { ensureAuthRevision } from './auth/auth-revision.js';
import { ensureJobRunTable } from './jobs/job-runs.js';
import { ensureCodeChannelTable } from './services/code-channels.js';
import { parseRuleIds } from './auth/identity.js';
import { nowSeconds } from './clock.js';
import { checkHookIds } from './resources/index.js';
import { namedPath } from './safe-paths.js';
import type { DatabaseHandle, Db } from './db/connection.js';
import { DestructiveMigrationError, forgetTable, migrate, planMigration, type MigrationResult } from './db/migrate.js';
import { checkMenuParents, seed, seedTable } from './db/seed.js';
import { catalogTables } from './db/table-catalog.js';
import { withStartupLock } from './db/startup-lock.js';
import { SCHEMA_DESIGN_RULE_TABLE, SCHEMA_DESIGN_TABLE, SCHEMA_REVISION_TABLE } from './db/system-tables.js';
import { ensureTextIndexes, textIndexName, textIndexTargets } from './db/text-index.js';
import { messageOf } from '../contract/checks.js';

/**
 * The running set of resource schemas, changed at run time on every process (the CRUD designer, the module store).
 *
 * Two sources make the set: the files of `schemas/` (read at start, and again by `npm run dev`'s watcher)
 * and the schemas designed in the back office, stored in the database (`schema_design`, each change kept
 * in `schema_design_log` with who, when and the diff). A change is checked as at start-up (meta-schema,
 * references, clashes), its migration planned and shown, then applied under the start-up lock; the
 * definitions and controllers are swapped as a whole (a request keeps the set it started with) and the
 * counter in `schema_revision` moves. Every other process reads that counter once a second and, when it
 * moved, loads the set from the database and swaps too: the new resource, its menu and nodes are served
 * everywhere within a few seconds, with no restart.
 *
 * A designed schema is also written to `schemas/<$id>.json` when that folder is writable, so a developer can
 * commit it. A file with a design's `$id` is that copy (the database stays the source) when it holds the
 * design or one of its earlier versions: the copy a process wrote before a restart, or one on a machine whose
 * process did not make the latest change. A file that holds none of them was edited by hand, and is refused,
 * naming both.
 */

/** How often a process looks for a change another process made (the promise is: live everywhere within 5 s). */
const SCHEMA_POLL_MS = 1000;

/** A `$id` a designed schema may have: it is also its path under `schemas/`. */
const DESIGNED_ID = /^[a-z][a-z0-9_]{0,39}(\/[a-z][a-z0-9_]{0,59}){1,2}$/;

interface SchemaRegistryOptions {
  schemasDir: string;
  localesDir?: string;
  allowDestructiveMigrations: boolean;
  /** write designed schemas to `schemas/` (when the folder is writable) */
  exportDesigns?: boolean;
  log?(line: string): void;
}

interface PreparedDatabase {
  migration: MigrationResult;
  textIndexed: Set<string>;
}

/** The file name a designed schema's messages give (it has no file of its own). */
function designedFile(id: string): string {
  return `${id} (designed in the back office)`;
}

function asDesigns(designs: Record<string, unknown> | SchemaDesign[]): SchemaDesign[] {
  return Array.isArray(designs) ? designs : [{ raw: designs }];
}

function idOf(raw: unknown): string | undefined {
  const id = (raw as { $id?: unknown } | null)?.$id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Migrate (safe changes only unless allowed), each new table made with its seed rows in one transaction;
 * then the menus and the rest the seeds owe, the auth revision triggers and the text indexes. Each part
 * is one transaction or is done again by every start until it is done, so a start cut short at any point
 * (a crash, `kill -9`) is finished by the next. The caller holds the start-up lock.
 */
async function bringDatabaseInLine(handle: DatabaseHandle, definitions: ResourceDefinition[], options: { allowDestructive: boolean; files?: Record<string, string> }): Promise<PreparedDatabase> {
  await checkMenuParents(handle, definitions, options.files);
  const migration = await migrate(handle, definitions, { allowDestructive: options.allowDestructive, files: options.files, seedTable });
  await seed(handle, definitions);
  await upgradeLegacySignatures(handle, definitions);
  await ensureAuthRevision(handle, new Set(definitions.map((definition) => definition.table)));
  await ensureJobRunTable(handle);
  await ensureCodeChannelTable(handle);
  return { migration, textIndexed: await ensureTextIndexes(handle, textIndexTargets(definitions)) };
}

async function readRevision(db: Db): Promise<number> {
  const row = await db.selectFrom(SCHEMA_REVISION_TABLE).select('revision').where('id', '=', 1).executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** Whether the file at `path` holds one of `versions` (a copy of a design, not a file edited by hand). */
function holdsVersion(path: string, versions: readonly Record<string, unknown>[]): boolean {
  const held: unknown = JSON.parse(readFileSync(path, 'utf8'));
  return versions.some((version) => isDeepStrictEqual(held, version));
}

/** Delete admin rules and take them out of every group that held them, so no group keeps an id nothing has. */
async function deleteRules(trx: Db, ids: number[]): Promise<void> {
  await trx.deleteFrom('admin_rule').where('id', 'in', ids).execute();
  const gone = new Set(ids.map(Number));
  const groups = await trx.selectFrom('admin_group').select(['id', 'rules']).execute();
  for (const group of groups) {
    const held = parseRuleIds(group.rules);
    if (String(group.rules ?? '').trim() === '*' || !held.some((id) => gone.has(id))) continue;
    await trx.updateTable('admin_group').set({ rules: held.filter((id) => !gone.has(id)).join(',') }).where('id', '=', group.id).execute();
  }
}

type RuleRow = { id: number; name: string; type: string; pid: number };

async function readRules(db: Db): Promise<RuleRow[]> {
  return (await db.selectFrom('admin_rule').select(['id', 'name', 'type', 'pid']).execute()).map((rule) => ({ id: Number(rule.id), name: String(rule.name), type: String(rule.type), pid: Number(rule.pid) }));
}

async function ruleIds(db: Db): Promise<Set<number>> {
  return new Set((await readRules(db)).map((rule) => rule.id));
}

/** Record, for each of `definitions`, the rules it made since `before` (the ids there were then). */
async function recordRulesMade(db: Db, definitions: readonly ResourceDefinition[], before: ReadonlySet<number>): Promise<void> {
  const created = (await readRules(db)).filter((rule) => !before.has(rule.id));
  if (!created.length) return;
  for (const definition of definitions) {
    const made = created.filter((rule) => isRuleOf(definition, rule)).map((rule) => ({ schema_id: definition.id, rule_id: rule.id, rule: rule.name }));
    if (made.length) await db.insertInto(SCHEMA_DESIGN_RULE_TABLE).values(made).execute();
  }
}

/**
 * Whether `rule` is one a schema's menu sync makes for `definition`: its menu, a node of one of its buttons,
 * or the directory it declares (`x-menu.parent` with a title). Names compare in any case, as rules do.
 */
function isRuleOf(definition: ResourceDefinition, rule: RuleRow): boolean {
  const menu = definition.menu;
  if (!menu) return false;
  const name = rule.name.toLowerCase();
  if (rule.type === 'menu_dir') return Boolean(menu.parentDirectory && menu.parent && menu.parent.toLowerCase() === name);
  return [menu.name, ...menu.buttons.map((button) => `${menu.name}/${button}`)].some((own) => own.toLowerCase() === name);
}

/**
 * The rules a designed schema created, as recorded; for a design made before the record was kept, the rules
 * its menu sync would have made (its menu, its buttons' nodes, the directory it declares).
 */
async function rulesOfDesign(trx: Db, definition: ResourceDefinition): Promise<RuleRow[]> {
  const rules = await readRules(trx);
  const recorded = await trx.selectFrom(SCHEMA_DESIGN_RULE_TABLE).select(['rule_id', 'rule']).where('schema_id', '=', definition.id).execute();
  if (recorded.length) return rules.filter((rule) => recorded.some((entry) => Number(entry.rule_id) === rule.id && entry.rule.toLowerCase() === rule.name.toLowerCase()));
  return rules.filter((rule) => isRuleOf(definition, rule));
}

export class SchemaRegistry implements RunningSchemas {
  private files: SchemaFile[] = [];
  /** the revision of the set served here: it moves only when a set is swapped in */
  private revision = -1;
  /** a revision another process made that does not check here (logged once, tried again when the revision moves) */
  private refusedRevision = -1;
  /** the revision of each set this process served, by its resources (a request's copy of the app keeps the set it started with) */
  private readonly revisions = new WeakMap<ReadonlyMap<string, ResourceDefinition>, number>();
  private app?: AppContext;
  /** what the set swapped in is given to (`attach`): the server builds its controllers from it */
  private publish?: (set: ResourceSet) => void;
  private timer?: NodeJS.Timeout;
  /** changes of this process run one after another (a poll never overlaps a design being applied) */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly glossary;
  private readonly log: (line: string) => void;

  constructor(
    readonly handle: DatabaseHandle,
    private readonly options: SchemaRegistryOptions,
  ) {
    this.glossary = schemaGlossary(options.localesDir);
    this.log = options.log ?? ((line) => console.warn(line));
  }

  get schemasDir(): string {
    return this.options.schemasDir;
  }

  /** The revision of the set this process serves. */
  get currentRevision(): number {
    return this.revision;
  }

  /** The revision `resources` (a set this process served, as a request holds it) came with. */
  revisionOf(resources: ReadonlyMap<string, ResourceDefinition>): number {
    return this.revisions.get(resources) ?? this.revision;
  }

  /**
   * Bring this process to the set as stored now, before a change is weighed against the running set (the
   * module store's clash checks, the designer's), and give `view` (a request's copy of the app) that set.
   */
  async catchUp(view: AppContext): Promise<void> {
    const live = this.app;
    if (!live) return;
    await this.poll();
    Object.assign(view, { resources: live.resources, controllers: live.controllers, textIndexed: live.textIndexed });
  }

  /** Start-up: read `schemas/` and the designs, check them together, bring the database in line. */
  async prepare(): Promise<PreparedDatabase & { definitions: ResourceDefinition[] }> {
    this.files = readSchemaFiles(this.options.schemasDir, this.options.localesDir);
    return withStartupLock(this.handle, async () => {
      await ensureSchemaTables(this.handle);
      await ensureStoreTables(this.handle);
      const designed = await this.storedDesigns();
      const definitions = this.check(designed);
      // A design's node added by a later menu sync is the design's too (designs exist only once the rules do).
      const rulesBefore = designed.length ? await ruleIds(this.handle.db) : undefined;
      const prepared = await bringDatabaseInLine(this.handle, definitions, { allowDestructive: this.options.allowDestructiveMigrations, files: this.fileNames(designed) });
      if (rulesBefore) await recordRulesMade(this.handle.db, definitions.filter((definition) => designed.some((item) => item.id === definition.id)), rulesBefore);
      this.revision = await readRevision(this.handle.db);
      return { definitions, ...prepared };
    });
  }

  /**
   * The app whose set the registry follows, and `publish`, which every set swapped in from then on is given
   * to (the server makes it the app's); from then on it follows other processes' changes.
   */
  attach(app: AppContext, publish: (set: ResourceSet) => void, pollMs = SCHEMA_POLL_MS): void {
    this.app = app;
    this.publish = publish;
    this.revisions.set(app.resources, this.revision);
    this.timer = setInterval(() => {
      this.poll().catch((error: unknown) => this.log(`schemas: looking for changes failed: ${messageOf(error)}`));
    }, pollMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.queue;
  }

  /** The stored designs. */
  designs(): Promise<DesignedSchema[]> {
    return readDesigned(this.handle.db);
  }

  /** A design's history, newest first. */
  history(id: string): Promise<SchemaHistoryEntry[]> {
    return designHistory(this.handle.db, id);
  }

  /** Whether `id` is a schema of `schemas/` (not one designed in the back office, whose file is its copy). */
  isFileSchema(id: string): boolean {
    return this.files.some((file) => idOf(file.raw) === id);
  }

  /** The stored designs, with the earlier versions of those `schemas/` holds a file of (see `check`). */
  private storedDesigns(): Promise<DesignedSchema[]> {
    const filed = new Set(this.files.map((file) => idOf(file.raw)).filter((id) => id !== undefined));
    return readDesigned(this.handle.db, filed);
  }

  /** The migration new or changed designs imply, checked as at start-up, without applying it. */
  preview(designs: Record<string, unknown> | SchemaDesign[]): Promise<SchemaChange> {
    return this.serial(async () => {
      const designed = await this.storedDesigns();
      const { definitions, changed, next } = this.withDesigns(designed, asDesigns(designs));
      const files = this.fileNames(next);
      await checkMenuParents(this.handle, definitions, files);
      const migration = await planMigration(this.handle, definitions, { files });
      return { definitions: changed, migration, applied: [], revision: this.revision };
    });
  }

  /**
   * Make new or changed designs live together (a schema, or a module's schemas that refer to each other):
   * check them beside every other schema, refuse a migration that could lose data unless
   * `allowDestructive`, migrate under the start-up lock, store them with their history, move the revision,
   * swap this process's definitions, and write them to `schemas/` (unless `exportDesigns` is false: a
   * module's schemas live in the database only).
   */
  apply(designs: Record<string, unknown> | SchemaDesign[], actor: SchemaActor, options: ApplyOptions = {}): Promise<SchemaChange> {
    const given = asDesigns(designs);
    return this.serial(() =>
      withStartupLock(this.handle, async () => {
        const { db } = this.handle;
        const designed = await this.storedDesigns();
        const { definitions, changed, next } = this.withDesigns(designed, given);
        const files = this.fileNames(next);
        const migration = await planMigration(this.handle, definitions, { files });
        if (migration.destructive.length && !options.allowDestructive) throw new DestructiveMigrationError(migration.destructive, migration.losses);
        const before = { tables: new Set(await catalogTables(this.handle)), rules: await ruleIds(db) };
        let prepared: PreparedDatabase;
        let revision: number;
        try {
          prepared = await bringDatabaseInLine(this.handle, definitions, { allowDestructive: Boolean(options.allowDestructive), files });
          revision = await db.transaction().execute(async (trx) => {
            await recordRulesMade(trx, changed, before.rules);
            for (const [index, design] of given.entries()) {
              const id = changed[index].id;
              const previous = designed.find((item) => item.id === id);
              const version = (previous?.version ?? 0) + 1;
              const values = { definition: JSON.stringify(design.raw), locale: design.locale ? JSON.stringify(design.locale) : null, version, update_time: nowSeconds() };
              if (previous) await trx.updateTable(SCHEMA_DESIGN_TABLE).set(values).where('schema_id', '=', id).execute();
              else await trx.insertInto(SCHEMA_DESIGN_TABLE).values({ schema_id: id, ...values }).execute();
              await recordDesignChange(trx, id, version, previous ? 'update' : 'create', previous?.raw ?? null, design.raw, actor);
            }
            await options.alongside?.(trx, changed);
            return this.bump(trx);
          });
        } catch (error) {
          // The database refused a step the checks let through: what this change made so far is undone
          // (new tables, new rules), so nothing is left half made, and the refusal names the database's reason.
          await this.undoApply(changed, before).catch((undoError: unknown) => this.log(`schemas: undoing ${changed.map((item) => item.id).join(', ')} failed: ${(undoError as Error).message}`));
          if (error instanceof SchemaError || error instanceof DestructiveMigrationError) throw error;
          throw new SchemaError(designedFile(changed[0].id), '', `the database refused it: ${messageOf(error)}`);
        }
        this.swap(definitions, next, prepared.textIndexed, revision);
        if (options.exportDesigns !== false && this.options.exportDesigns) {
          const versions = await loggedVersions(db, changed.map((definition) => definition.id));
          for (const [index, design] of given.entries()) this.exportDesign(changed[index].id, design, versions.get(changed[index].id) ?? []);
        }
        return { definitions: changed, migration, applied: prepared.migration.changes, revision };
      }),
    );
  }

  /** Undo a change the database refused halfway: drop the tables it created, delete the rules it created. */
  private async undoApply(changed: readonly ResourceDefinition[], before: { tables: ReadonlySet<string>; rules: ReadonlySet<number> }): Promise<void> {
    const { db } = this.handle;
    const made = (await readRules(db)).filter((rule) => !before.rules.has(rule.id)).map((rule) => rule.id);
    await db.transaction().execute(async (trx) => {
      if (made.length) await deleteRules(trx, made);
      for (const definition of changed) {
        if (before.tables.has(definition.table)) continue;
        await this.dropTable(trx, definition);
        await forgetTable(trx, definition.table);
      }
    });
  }

  /**
   * Take designs out of the set (one, or a module's together): their API, menus and permission nodes go
   * (and a menu directory a schema created, once it holds no menu);
   * their tables and rows stay unless `dropTable`; `beforeDrop` then puts the rows where deleted rows go,
   * in the same transaction.
   */
  remove(ids: string | string[], actor: SchemaActor, options: RemoveOptions = {}): Promise<SchemaChange> {
    const wanted = Array.isArray(ids) ? ids : [ids];
    return this.serial(() =>
      withStartupLock(this.handle, async () => {
        const { db } = this.handle;
        const designed = await this.storedDesigns();
        // The definitions as stored, not as this process serves them: it may not have caught up with a change yet.
        const stored = new Map(this.check(designed).map((definition) => [definition.id, definition]));
        const removed = wanted.map((id) => {
          const previous = designed.find((item) => item.id === id);
          const definition = previous ? stored.get(id) : undefined;
          if (!previous || !definition) throw new SchemaError(designedFile(id), '/$id', `no designed schema "${id}"`);
          return { previous, definition };
        });
        const rest = designed.filter((item) => !wanted.includes(item.id));
        // Another schema referring to one of them stops the removal here, with that schema named.
        const definitions = this.check(rest);
        const prepared = await bringDatabaseInLine(this.handle, definitions, { allowDestructive: false, files: this.fileNames(rest) });
        const revision = await db.transaction().execute(async (trx) => {
          // The rules each of them created, and no others: directories last, and only once they hold nothing.
          const made = new Map<number, RuleRow>();
          for (const { definition } of removed) for (const rule of await rulesOfDesign(trx, definition)) made.set(rule.id, rule);
          const menus = [...made.values()].filter((rule) => rule.type !== 'menu_dir').map((rule) => rule.id);
          if (menus.length) await deleteRules(trx, menus);
          for (const { previous, definition } of removed) {
            if (options.dropTable) {
              await options.beforeDrop?.(trx, definition);
              await this.dropTable(trx, definition);
            }
            // A kept table is no longer a module's: a later design adopts it as it finds it (columns it leaves
            // out stay untouched) and gets its menu again.
            await forgetTable(trx, definition.table);
            await trx.deleteFrom(SCHEMA_DESIGN_RULE_TABLE).where('schema_id', '=', previous.id).execute();
            await trx.deleteFrom(SCHEMA_DESIGN_TABLE).where('schema_id', '=', previous.id).execute();
            await recordDesignChange(trx, previous.id, previous.version + 1, 'delete', previous.raw, null, actor);
          }
          for (const directory of [...made.values()].filter((rule) => rule.type === 'menu_dir')) {
            const child = await trx.selectFrom('admin_rule').select('id').where('pid', '=', directory.id).executeTakeFirst();
            const sharer = await trx.selectFrom(SCHEMA_DESIGN_RULE_TABLE).select('schema_id').where('rule_id', '=', directory.id).executeTakeFirst();
            if (!child && !sharer) await deleteRules(trx, [directory.id]);
          }
          await options.alongside?.(trx, removed.map(({ definition }) => definition));
          return this.bump(trx);
        });
        this.swap(definitions, rest, prepared.textIndexed, revision);
        const versions = await loggedVersions(db, removed.map(({ previous }) => previous.id));
        for (const { previous } of removed) this.unexportDesign(previous, versions.get(previous.id) ?? []);
        const steps = options.dropTable ? removed.map(({ definition }) => `drop table ${definition.table}`) : [];
        return { definitions: removed.map(({ definition }) => definition), migration: { steps, destructive: [], losses: [] }, applied: steps, revision };
      }),
    );
  }

  /**
   * Drop the tables schemas left behind when they were removed (a module uninstalled with its data): each
   * schema is checked beside the set to learn its table and quick-search indexes; a table a running schema
   * declares is never dropped. Answers the tables dropped.
   */
  dropLeftTables(raws: Record<string, unknown>[]): Promise<string[]> {
    return this.serial(() =>
      withStartupLock(this.handle, async () => {
        const designed = await this.storedDesigns();
        const live = new Set(designed.map((item) => item.id));
        const gone = raws.filter((raw) => !live.has(String(idOf(raw))));
        if (!gone.length) return [];
        const { changed } = this.withDesigns(designed, gone.map((raw) => ({ raw })));
        const running = new Set(this.check(designed).map((definition) => definition.table));
        const dropped = changed.filter((definition) => !running.has(definition.table));
        await this.handle.db.transaction().execute(async (trx) => {
          for (const definition of dropped) {
            await this.dropTable(trx, definition);
            await forgetTable(trx, definition.table);
          }
        });
        return dropped.map((definition) => definition.table);
      }),
    );
  }

  /** `npm run dev`: the files of `schemas/` changed; check them beside the designs and swap. */
  reloadFiles(files: SchemaFile[], allowDestructive: boolean): Promise<{ definitions: ResourceDefinition[]; migration: MigrationResult }> {
    return this.serial(() =>
      withStartupLock(this.handle, async () => {
        const previous = this.files;
        this.files = files;
        try {
          const designed = await this.storedDesigns();
          const definitions = this.check(designed);
          const prepared = await bringDatabaseInLine(this.handle, definitions, { allowDestructive, files: this.fileNames(designed) });
          this.swap(definitions, designed, prepared.textIndexed, this.revision);
          return { definitions, migration: prepared.migration };
        } catch (error) {
          this.files = previous;
          throw error;
        }
      }),
    );
  }

  /**
   * Another process changed the set: load it from the database and swap. The revision this process reports
   * is the one it serves: a set that does not check here (a file of this machine's `schemas/` clashing with
   * it) leaves the last good set serving under its own revision, is logged once, and is tried again when the
   * revision moves; a database that cannot be read is tried again at the next poll.
   */
  async poll(): Promise<boolean> {
    if (!this.app) return false;
    const seen = await readRevision(this.handle.db);
    if (seen === this.revision || seen === this.refusedRevision) return false;
    return this.serial(async () => {
      // The process that made the change migrated; this one only checks the set and learns which quick-search
      // indexes serve it (made already, so nothing is created here). The revision and the designs are read
      // under the lock a change is made under, so they belong together.
      const loaded = await withStartupLock(this.handle, async () => {
        const revision = await readRevision(this.handle.db);
        if (revision === this.revision) return undefined;
        const designed = await this.storedDesigns();
        let definitions: ResourceDefinition[];
        try {
          definitions = this.check(designed);
        } catch (error) {
          return { revision, refused: error as Error } as const;
        }
        return { revision, refused: undefined, designed, definitions, textIndexed: await ensureTextIndexes(this.handle, textIndexTargets(definitions)) };
      });
      if (!loaded) return false;
      if (loaded.refused) {
        this.refusedRevision = loaded.revision;
        this.log(`schemas: revision ${loaded.revision} from another process not applied here (this process serves revision ${this.revision}): ${loaded.refused.message}`);
        return false;
      }
      this.swap(loaded.definitions, loaded.designed, loaded.textIndexed, loaded.revision);
      return true;
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private fileNames(designed: readonly DesignedSchema[]): Record<string, string> {
    return Object.fromEntries(designed.map((item) => [item.id, designedFile(item.id)]));
  }

  /**
   * The files and the designs checked together; a file that holds none of the versions of the design with its
   * `$id` is refused. A file that holds one is the design's copy, and stays one for the life of the process: it
   * is dropped from the files, so taking the design out does not turn its copy into a schema of the project
   * (the copy leaves the folder with the design).
   */
  private check(designed: readonly DesignedSchema[]): ResourceDefinition[] {
    const designedIds = new Map(designed.map((item) => [item.id, item]));
    const copies = new Set<SchemaFile>();
    const files = this.files.filter((file) => {
      const id = idOf(file.raw);
      const design = id === undefined ? undefined : designedIds.get(id);
      if (!design) return true;
      if ([design.raw, ...(design.earlier ?? [])].some((version) => isDeepStrictEqual(file.raw, version))) {
        copies.add(file);
        return false;
      }
      throw new SchemaError(
        file.file,
        '/$id',
        `"${id}" is also a schema designed in the back office (stored in the database) and the two differ: delete this file, or delete the design from the CRUD generator's log`,
      );
    });
    if (copies.size) this.files = this.files.filter((file) => !copies.has(file));
    const entries: SchemaFile[] = [...files, ...designed.map((item) => ({ file: designedFile(item.id), raw: item.raw, sources: { glossary: this.glossary, locale: item.locale } }))];
    const definitions = checkSchemaFiles(entries);
    // Before any migration: a schema renamed away from its hooks stops the start (or the reload) here.
    checkHookIds(definitions.map((definition) => definition.id));
    return definitions;
  }

  /** The set with `designs` in place of the designs with their `$id`s. */
  private withDesigns(designed: readonly DesignedSchema[], designs: readonly SchemaDesign[]) {
    const ids = designs.map(({ raw }) => {
      const id = idOf(raw);
      if (id === undefined || !DESIGNED_ID.test(id)) throw new SchemaError(designedFile(String(id ?? '')), '/$id', '"$id" must be "<area>/<name>" in lower-case letters, digits and "_"');
      if (this.isFileSchema(id) && !designed.some((item) => item.id === id)) {
        throw new SchemaError(designedFile(id), '/$id', `"${id}" is a schema of the project (schemas/${id}.json): it is changed by editing that file`);
      }
      return id;
    });
    if (new Set(ids).size !== ids.length) throw new SchemaError(designedFile(ids[0]), '/$id', 'the same "$id" is given twice');
    const next: DesignedSchema[] = [
      ...designed.filter((item) => !ids.includes(item.id)),
      ...designs.map((design, index) => {
        const locale = Object.fromEntries(Object.entries(design.locale ?? {}).map(([lang, file]) => [lang, checkSchemaLocale(`${designedFile(ids[index])}: ${lang}`, file)]));
        const previous = designed.find((item) => item.id === ids[index]);
        // The copy in `schemas/` still holds the version this one replaces, until it is written again.
        const earlier = previous ? [previous.raw, ...(previous.earlier ?? [])] : undefined;
        return { id: ids[index], raw: design.raw, locale, version: 0, ...(earlier ? { earlier } : {}) };
      }),
    ];
    const definitions = this.check(next);
    const changed = ids.map((id) => definitions.find((item) => item.id === id) as ResourceDefinition);
    return { definitions, changed, next };
  }

  private async bump(trx: Db): Promise<number> {
    await trx.updateTable(SCHEMA_REVISION_TABLE).set({ revision: sql`revision + 1` }).where('id', '=', 1).execute();
    return readRevision(trx);
  }

  private async dropTable(trx: Db, definition: ResourceDefinition): Promise<void> {
    if (this.handle.dialect === 'sqlite') {
      // The quick-search index tables of SQLite live beside the table; its triggers go with it.
      for (const field of definition.fields) await sql`DROP TABLE IF EXISTS ${sql.id(textIndexName(definition.table, field.name))}`.execute(trx);
    }
    await trx.schema.dropTable(definition.table).ifExists().execute();
  }

  /** Publish the set as a whole (the server swaps its definitions and controllers); a request keeps the set it started with. */
  private swap(definitions: ResourceDefinition[], designed: readonly DesignedSchema[], textIndexed: ReadonlySet<string>, revision: number): void {
    this.revision = revision;
    if (!this.app || !this.publish) return;
    const set = resourceSet(definitions, textIndexed, revision);
    this.revisions.set(set.definitions, revision);
    this.publish(set);
  }

  /** `schemas/<$id>.json` of a design, or undefined when it would leave the folder. */
  private exportPath(id: string): string | undefined {
    if (!DESIGNED_ID.test(id)) return undefined;
    return namedPath(this.options.schemasDir, id.split('/'), '.json');
  }

  /** The locale file of a design in language `lang`: `locales/<lang>/schemas/<$id>.json` beside `schemas/`. */
  private exportLocalePath(id: string, lang: Language): string | undefined {
    if (!DESIGNED_ID.test(id)) return undefined;
    return namedPath(join(resolve(this.options.schemasDir), '..', 'locales', lang, 'schemas'), id.split('/'), '.json');
  }

  /** Write a design's copy to `schemas/`; `versions` are all it has had (a file holding none of them is left alone). */
  private exportDesign(id: string, design: SchemaDesign, versions: readonly Record<string, unknown>[]): void {
    const path = this.exportPath(id);
    if (!path) return;
    try {
      // A hand-edited copy is left alone (start-up will name it); one holding any version is rewritten.
      if (existsSync(path) && !holdsVersion(path, versions)) return;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${JSON.stringify(design.raw, null, 2)}\n`);
      for (const lang of LANGUAGES) {
        const texts = design.locale?.[lang];
        const localePath = this.exportLocalePath(id, lang);
        if (!texts || !localePath) continue;
        mkdirSync(dirname(localePath), { recursive: true });
        writeFileSync(localePath, `${JSON.stringify(texts, null, 2)}\n`);
      }
    } catch (error) {
      this.log(`schemas: ${id} is live but could not be written to ${join('schemas', `${id}.json`)}: ${messageOf(error)}`);
    }
  }

  /** Remove the copies `exportDesign` wrote, where they still hold what it wrote (`versions`: all the design has had). */
  private unexportDesign(design: DesignedSchema, versions: readonly Record<string, unknown>[]): void {
    const copies: [string | undefined, readonly unknown[]][] = [
      [this.exportPath(design.id), [design.raw, ...versions]],
      ...LANGUAGES.map((lang) => [this.exportLocalePath(design.id, lang), design.locale?.[lang] === undefined ? [] : [design.locale[lang]]] as [string | undefined, unknown[]]),
    ];
    for (const [path, contents] of copies) {
      if (!path || !contents.length || !existsSync(path)) continue;
      try {
        const held: unknown = JSON.parse(readFileSync(path, 'utf8'));
        if (contents.some((content) => isDeepStrictEqual(held, content))) rmSync(path);
      } catch (error) {
        this.log(`schemas: the copy of ${design.id} at ${path} could not be removed: ${messageOf(error)}`);
      }
    }
  }


}
