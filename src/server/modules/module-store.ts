import { existsSync, readdirSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Language } from '../../contract/headers.js';
import { sameText } from '../../schema/local-text.js';
import { claimedRuleNames, definitionRuleNames, SchemaError } from '../../schema/normalise.js';
import { findResourceByTable, type AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import { DestructiveMigrationError, type MigrationPreview } from '../db/migrate.js';
import { wordDataLosses } from '../crud/data-loss.js';
import { STORE_MODULE_GRANT_TABLE, STORE_MODULE_TABLE } from '../db/system-tables.js';
import { catalogTables } from '../db/table-catalog.js';
import { parseRuleIds } from '../auth/identity.js';
import { errors } from '../errors.js';
import type { Translate } from '../i18n.js';
import type { SchemaActor, SchemaChange } from '../schema-designs.js';
import type { StoreModuleTable } from './store-tables.js';
import { namedPath } from '../safe-paths.js';
import { fileOfUrl, writeStorageFile } from '../uploads/storage.js';
import { isHigherVersion, packageOfFolder, packageOfZip, PACKAGE_LIMITS, type ModuleInfo, type ModulePackage } from './package.js';

/**
 * The module store: installs, disables, enables, upgrades and uninstalls modules (`package.ts`) through the
 * schema registry, so a module's resources go live, and go, on every process as a designed schema does.
 * States are BuildAdmin's: 0 not installed, 1 installed, 2 waiting to be installed (uploaded, or enabled
 * again), 6 disabled. The state of each module the store has seen is a row of `store_module`, shared by
 * every process; the catalogue is the folder `modules/` of the project, each module not installed until
 * an administrator installs it. Nothing is written outside the database and the storage folder (a
 * module's images, under `/storage/modules/<uid>/`).
 */

const MODULE_STATE = { uninstalled: 0, installed: 1, waiting: 2, disabled: 6 } as const;

type StoredModule = StoreModuleTable;

/** One module as `module/index` lists it: BuildAdmin's fields (in the request's language) and ours. */
interface ModuleItem {
  uid: string;
  title: string;
  intro: string;
  author: string;
  website: string;
  version: string;
  state: number;
  titles: Record<Language, string>;
  descriptions: Record<Language, string>;
  requires: string[];
  /** `catalogue` (shipped in `modules/`) or `upload` */
  source: 'catalogue' | 'upload';
  /** the version of an uploaded upgrade waiting to be installed */
  newVersion: string;
  /** `$id`s of its schemas */
  schemas: string[];
  /** tables an uninstall kept, rows and all */
  keptTables: string[];
}

/**
 * What a package would clash with, as data: the kind of thing and its name, and who holds it (with the
 * holder's name where it has one: a resource's `$id`, a schema file's `$id`). Worded for a reader only when
 * answered (`clashRows`), in the request's language.
 */
interface Clash {
  kind: 'id' | 'table' | 'controller' | 'menu';
  item: string;
  ownerKind: 'schemaFile' | 'designedSchema' | 'resource' | 'databaseTable' | 'platform' | 'menu';
  ownerRef: string;
}

/** A clash as answered: its data, `name` and `owner` worded in the reader's language, and both as one line (`message`). */
type ClashRow = Clash & { name: string; owner: string; message: string };

function clashName(clash: Clash, t: Translate): string {
  switch (clash.kind) {
    case 'id':
      return t('schema $id %s', [sameText(clash.item)]);
    case 'table':
      return t('table %s', [sameText(clash.item)]);
    case 'controller':
      return t('controller %s', [sameText(clash.item)]);
    case 'menu':
      return t('menu %s', [sameText(clash.item)]);
  }
}

function clashOwner(clash: Clash, t: Translate): string {
  switch (clash.ownerKind) {
    case 'schemaFile':
      return t('the schema file %s', [sameText(`schemas/${clash.ownerRef}.json`)]);
    case 'designedSchema':
      return t('a schema designed in the back office');
    case 'resource':
      return t('resource %s', [sameText(clash.ownerRef)]);
    case 'databaseTable':
      return t('a table of the database');
    case 'platform':
      return t('the platform');
    case 'menu':
      return t('an existing menu');
  }
}

function clashRows(app: AppContext, lang: Language, clashes: readonly Clash[]): ClashRow[] {
  const t = app.messages.translator(lang);
  return clashes.map((clash) => {
    const name = clashName(clash, t);
    const owner = clashOwner(clash, t);
    return { ...clash, name, owner, message: t('%s (%s)', [sameText(name), sameText(owner)]) };
  });
}

function catalogueDir(app: AppContext): string {
  return join(app.settings.projectRoot, 'modules');
}

/** `<storage>/modules/<uid>/`, or undefined for a uid that is not a plain name. */
function imagesDir(app: AppContext, uid: string): string | undefined {
  return namedPath(join(app.settings.storageDir, 'modules'), [uid]);
}

/** The uids of the catalogue. */
function catalogueUids(app: AppContext): string[] {
  const dir = catalogueDir(app);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'module.json'))).map((entry) => entry.name).sort();
}

/** A module of the catalogue, read and checked as an upload is. */
function cataloguePackage(app: AppContext, uid: string): ModulePackage | undefined {
  if (!catalogueUids(app).includes(uid)) return undefined;
  const folder = namedPath(catalogueDir(app), [uid]);
  const pkg = folder ? packageOfFolder(folder) : undefined;
  return pkg?.info.uid === uid ? pkg : undefined;
}

async function rows(app: AppContext): Promise<StoredModule[]> {
  return await app.db.selectFrom(STORE_MODULE_TABLE).selectAll().orderBy('uid').execute();
}

async function rowOf(app: AppContext, uid: string): Promise<StoredModule | undefined> {
  return await app.db.selectFrom(STORE_MODULE_TABLE).selectAll().where('uid', '=', uid).executeTakeFirst();
}

function parsePackage(text: string | null): ModulePackage | undefined {
  return text ? (JSON.parse(text) as ModulePackage) : undefined;
}

function schemaIds(pkg: ModulePackage | undefined): string[] {
  return (pkg?.schemas ?? []).map((schema) => String(schema.raw.$id));
}

function tablesOf(pkg: ModulePackage | undefined): string[] {
  return (pkg?.schemas ?? []).map((schema) => schema.raw['x-table']).filter((table): table is string => typeof table === 'string');
}

/** The uid of a query or body value, or a parameter error. */
export function uidOf(value: unknown): string {
  if (typeof value !== 'string' || !/^[a-z][a-z0-9_]{1,39}$/.test(value)) throw errors.parameterError();
  return value;
}

function item(lang: Language, info: ModuleInfo, state: number, extra: { source: ModuleItem['source']; newVersion?: string; schemas: string[]; keptTables?: string[] }): ModuleItem {
  return {
    uid: info.uid, title: info.title[lang], intro: info.description[lang], author: info.author, website: info.website, version: info.version, state,
    titles: info.title, descriptions: info.description, requires: info.requires,
    source: extra.source, newVersion: extra.newVersion ?? '', schemas: extra.schemas, keptTables: extra.keptTables ?? [],
  };
}

/** The state a stored module shows. */
function stateOf(row: StoredModule | undefined): number {
  if (!row) return MODULE_STATE.uninstalled;
  if (row.pending) return row.state === MODULE_STATE.disabled ? MODULE_STATE.disabled : MODULE_STATE.waiting;
  return Number(row.state);
}

function itemOfRow(app: AppContext, lang: Language, row: StoredModule, catalogue: readonly string[]): ModuleItem | undefined {
  const installed = parsePackage(row.package);
  const pending = parsePackage(row.pending);
  const shown = installed ?? pending ?? (catalogue.includes(row.uid) ? cataloguePackage(app, row.uid) : undefined);
  if (!shown) return undefined;
  return item(lang, shown.info, stateOf(row), {
    source: catalogue.includes(row.uid) ? 'catalogue' : 'upload',
    newVersion: installed && pending ? pending.info.version : '',
    schemas: schemaIds(shown),
    keptTables: JSON.parse(row.kept_tables) as string[],
  });
}

/** `module/index`: the catalogue and every module the store has, with their states. */
export async function listModules(app: AppContext, lang: Language): Promise<ModuleItem[]> {
  const catalogue = catalogueUids(app);
  const stored = await rows(app);
  const list: ModuleItem[] = [];
  for (const row of stored) {
    const entry = itemOfRow(app, lang, row, catalogue);
    if (entry) list.push(entry);
  }
  for (const uid of catalogue) {
    if (stored.some((row) => row.uid === uid)) continue;
    try {
      const pkg = cataloguePackage(app, uid);
      if (pkg) list.push(item(lang, pkg.info, MODULE_STATE.uninstalled, { source: 'catalogue', schemas: schemaIds(pkg) }));
    } catch {
      // A broken catalogue folder is not offered; installing it names the problem.
    }
  }
  return list;
}

/** `module/state`. */
export async function moduleState(app: AppContext, uid: string): Promise<number> {
  return stateOf(await rowOf(app, uid));
}

/**
 * The admin rule names others hold, each with its holder: every rule of the database, the rules the running
 * schemas claim (their menu or a node may have been deleted since) and the platform's seeded rules, all
 * lower-case as rules are matched. The schemas `own` (the module's installed version) are left out.
 */
async function heldRuleNames(app: AppContext, own: ReadonlySet<string>): Promise<Map<string, Pick<Clash, 'ownerKind' | 'ownerRef'>>> {
  const held = new Map<string, Pick<Clash, 'ownerKind' | 'ownerRef'>>();
  const ownNames = new Set([...own].flatMap((id) => {
    const definition = app.resources.get(id);
    return definition ? definitionRuleNames(definition) : [];
  }));
  for (const rule of (await app.db.selectFrom('admin_rule').select('name').execute())) {
    const name = rule.name.toLowerCase();
    if (!ownNames.has(name)) held.set(name, { ownerKind: 'menu', ownerRef: '' });
  }
  for (const definition of app.resources.values()) {
    if (own.has(definition.id)) continue;
    for (const name of definitionRuleNames(definition)) if (!held.has(name)) held.set(name, { ownerKind: 'resource', ownerRef: definition.id });
    if (definition.table !== 'admin_rule') continue;
    for (const row of definition.seed) {
      const name = typeof row.name === 'string' ? row.name.toLowerCase() : '';
      if (name && !held.has(name)) held.set(name, { ownerKind: 'platform', ownerRef: '' });
    }
  }
  return held;
}

/** What a package would clash with: a `$id`, table, controller, menu or permission node another module, a design or the platform holds. */
async function clashesOf(app: AppContext, pkg: ModulePackage, row: StoredModule | undefined): Promise<Clash[]> {
  // Weighed against the set as stored, which this process may not have caught up with yet.
  await app.schemas.catchUp(app);
  const previous = parsePackage(row?.package ?? null);
  const own = new Set(row?.live ? schemaIds(previous) : []);
  const ownTables = new Set([...tablesOf(previous), ...(row ? (JSON.parse(row.kept_tables) as string[]) : [])]);
  const tables = new Set(await catalogTables(app.handle));
  const heldRules = await heldRuleNames(app, own);
  const clashes: Clash[] = [];
  for (const { raw } of pkg.schemas) {
    const id = String(raw.$id);
    if (app.resources.has(id) && !own.has(id)) {
      clashes.push(app.schemas.isFileSchema(id) ? { kind: 'id', item: id, ownerKind: 'schemaFile', ownerRef: id } : { kind: 'id', item: id, ownerKind: 'designedSchema', ownerRef: '' });
    }
    const table = raw['x-table'];
    if (typeof table === 'string') {
      const owner = findResourceByTable(app, table);
      if (owner && !own.has(owner.id)) clashes.push({ kind: 'table', item: table, ownerKind: 'resource', ownerRef: owner.id });
      else if (!owner && tables.has(table) && !ownTables.has(table)) clashes.push({ kind: 'table', item: table, ownerKind: 'databaseTable', ownerRef: '' });
    }
    const controllerName = raw['x-controller'];
    if (typeof controllerName === 'string') {
      const controller = app.controllers.find('admin', controllerName);
      if (controller && !(controller.resource && own.has(controller.resource.id))) {
        clashes.push(controller.resource ? { kind: 'controller', item: controllerName, ownerKind: 'resource', ownerRef: controller.resource.id } : { kind: 'controller', item: controllerName, ownerKind: 'platform', ownerRef: '' });
      }
    }
    // The menu, its nodes and the controller's nodes: the first one held names the clash (the rest follow from it).
    const claimed = claimedRuleNames(raw).find((name) => heldRules.has(name));
    if (claimed) clashes.push({ kind: 'menu', item: claimed, ...(heldRules.get(claimed) as Pick<Clash, 'ownerKind' | 'ownerRef'>) });
  }
  return clashes;
}

/** Every module a package requires, installed and enabled; the missing ones otherwise. */
async function missingRequirements(app: AppContext, pkg: ModulePackage): Promise<string[]> {
  const live = new Set((await rows(app)).filter((row) => row.live).map((row) => row.uid));
  return pkg.info.requires.filter((uid) => !live.has(uid));
}

/** The steps of a migration that could lose data, worded for the reader: each field as its screens name it and what happens to its values. */
function wordedMigration(app: AppContext, lang: Language, change: SchemaChange): MigrationPreview {
  const destructive = wordDataLosses(change.migration.losses, app.messages.translator(lang), [...app.resources.values()], change.definitions);
  return { ...change.migration, destructive };
}

async function throughRegistry<T>(work: () => Promise<T>, app?: AppContext, lang?: Language): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SchemaError) throw errors.moduleSchemaInvalid(error.message);
    if (error instanceof DestructiveMigrationError) {
      throw errors.designDestructive(app && lang && error.losses.length ? wordDataLosses(error.losses, app.messages.translator(lang), [...app.resources.values()], []) : error.problems);
    }
    throw error;
  }
}

/**
 * The checks an upload and an install both run before writing anything; answers the migration installing
 * implies. A clash is BuildAdmin's conflict (code -1), or a plain refusal once its dialog asked to go on.
 */
async function checkPackage(app: AppContext, lang: Language, pkg: ModulePackage, row: StoredModule | undefined, conflictAnswered = false): Promise<MigrationPreview> {
  const missing = await missingRequirements(app, pkg);
  if (missing.length) throw errors.moduleRequires(missing.join(', '));
  const clashes = await clashesOf(app, pkg, row);
  if (clashes.length) {
    const rows = clashRows(app, lang, clashes);
    throw conflictAnswered ? errors.moduleConflictRefused(rows) : errors.moduleConflict(pkg.info.uid, rows);
  }
  return wordedMigration(app, lang, await throughRegistry(() => app.schemas.preview(pkg.schemas)));
}

async function save(app: AppContext, uid: string, values: Omit<StoredModule, 'uid' | 'update_time'>): Promise<void> {
  const row = { ...values, update_time: nowSeconds() };
  const updated = await app.db.updateTable(STORE_MODULE_TABLE).set(row).where('uid', '=', uid).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await app.db.insertInto(STORE_MODULE_TABLE).values({ uid, ...row }).execute();
}

/** The zip of an `ajax/upload` URL (`/storage/…`, or a full address of this server). */
async function readUploadedZip(app: AppContext, file: unknown): Promise<Uint8Array> {
  if (typeof file !== 'string' || file === '' || file.length > 500) throw errors.parameterError();
  let path = file;
  if (/^(https?:)?\/\//i.test(path)) {
    try {
      path = new URL(path, 'http://localhost').pathname;
    } catch {
      throw errors.moduleZipNotFound();
    }
  }
  let decoded: string;
  try {
    decoded = decodeURI(path);
  } catch {
    throw errors.moduleZipNotFound();
  }
  const local = fileOfUrl(app.settings.storageDir, decoded);
  if (!local) throw errors.moduleZipNotFound();
  const size = await stat(local).then((found) => (found.isFile() ? found.size : -1), () => -1);
  if (size < 0) throw errors.moduleZipNotFound();
  if (size > PACKAGE_LIMITS.totalBytes) throw errors.modulePackageTooLarge(Math.floor(PACKAGE_LIMITS.totalBytes / 1024 / 1024), PACKAGE_LIMITS.files);
  return readFile(local);
}

/**
 * `module/upload?file=`: the uploaded zip checked whole (entries, sizes, module.json, schemas against the
 * meta-schema beside every running one, requirements, clashes) and kept as waiting to be installed
 * (state 2). A module already installed takes only a higher version (an upgrade, installed by `install`).
 */
export async function uploadModule(app: AppContext, lang: Language, file: unknown): Promise<ModuleItem> {
  const pkg = packageOfZip(await readUploadedZip(app, file));
  const row = await rowOf(app, pkg.info.uid);
  if (row?.package && !isHigherVersion(pkg.info.version, row.version)) throw errors.moduleExists();
  await checkPackage(app, lang, pkg, row);
  await save(app, pkg.info.uid, {
    state: row?.package ? Number(row.state) : MODULE_STATE.waiting,
    live: row?.live ?? 0, version: row?.version ?? '', package: row?.package ?? null, pending: JSON.stringify(pkg), kept_tables: row?.kept_tables ?? '[]',
  });
  const saved = (await rowOf(app, pkg.info.uid)) as StoredModule;
  return itemOfRow(app, lang, saved, catalogueUids(app)) as ModuleItem;
}

/** The package `install` would make live: an uploaded version, the installed one (enabled again), or the catalogue's. */
function packageToInstall(app: AppContext, uid: string, row: StoredModule | undefined): ModulePackage {
  const pkg = parsePackage(row?.pending ?? null) ?? parsePackage(row?.package ?? null) ?? cataloguePackage(app, uid);
  if (!pkg) throw errors.moduleNotFound(uid);
  return pkg;
}

/** `module/preview?uid=` (ours): what installing would do — the migration, clashes, missing requirements, a schema's problem — nothing applied. */
export async function previewModule(app: AppContext, lang: Language, uid: string) {
  const row = await rowOf(app, uid);
  const pkg = packageToInstall(app, uid, row);
  const missing = await missingRequirements(app, pkg);
  const conflicts = await clashesOf(app, pkg, row);
  let migration: MigrationPreview = { steps: [], destructive: [], losses: [] };
  let problem = '';
  if (!missing.length && !conflicts.length) {
    try {
      migration = wordedMigration(app, lang, await app.schemas.preview(pkg.schemas));
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      problem = error.message;
    }
  }
  const info = item(lang, pkg.info, stateOf(row), { source: catalogueUids(app).includes(uid) ? 'catalogue' : 'upload', schemas: schemaIds(pkg) });
  return { info, migration, conflicts: clashRows(app, lang, conflicts), missing, problem };
}

async function writeImages(app: AppContext, pkg: ModulePackage): Promise<void> {
  const root = imagesDir(app, pkg.info.uid);
  if (!root) return;
  await rm(root, { recursive: true, force: true });
  for (const [path, data] of Object.entries(pkg.images)) {
    const file = fileOfUrl(app.settings.storageDir, `/storage/modules/${pkg.info.uid}/${path}`);
    if (file) await writeStorageFile(file, Buffer.from(data, 'base64'));
  }
}

/**
 * `module/install?uid=` (body `{extend}`): checks again, then makes the module's schemas live together. An
 * upgrade migrates the installed schemas (renames keep their data); a step that could lose data is refused
 * with the steps in `data.destructive` unless `extend.confirm` (or `confirm`) is set; schemas the new version
 * no longer has leave the set, their tables kept. Installed again after a disable, every group gets back the
 * rules it held of the module, by name. A clash answers BuildAdmin's conflict (code -1); asked again
 * from its conflict dialog, it is refused, as nothing is ever installed over something else.
 */
export async function installModule(app: AppContext, lang: Language, uid: string, options: { confirm: boolean; conflictAnswered: boolean }, actor: SchemaActor): Promise<ModuleItem> {
  const row = await rowOf(app, uid);
  const state = stateOf(row);
  if (state === MODULE_STATE.installed || state === MODULE_STATE.disabled) throw errors.moduleExists();
  const pkg = packageToInstall(app, uid, row);
  const migration = await checkPackage(app, lang, pkg, row, options.conflictAnswered);
  if (migration.destructive.length && !options.confirm) throw errors.designDestructive(migration.destructive);
  await throughRegistry(() => app.schemas.apply(pkg.schemas, actor, { allowDestructive: options.confirm, exportDesigns: false }), app, lang);
  const previous = parsePackage(row?.package ?? null);
  const dropped = row?.live ? schemaIds(previous).filter((id) => !schemaIds(pkg).includes(id)) : [];
  if (dropped.length) await throughRegistry(() => app.schemas.remove(dropped, actor));
  await restoreGrants(app, uid);
  await writeImages(app, pkg);
  const kept = (row ? (JSON.parse(row.kept_tables) as string[]) : []).filter((table) => !tablesOf(pkg).includes(table));
  await save(app, uid, { state: MODULE_STATE.installed, live: 1, version: pkg.info.version, package: JSON.stringify(pkg), pending: null, kept_tables: JSON.stringify([...kept, ...tablesOf(previous).filter((table) => !tablesOf(pkg).includes(table))]) });
  return itemOfRow(app, lang, (await rowOf(app, uid)) as StoredModule, catalogueUids(app)) as ModuleItem;
}

type RuleRow = { id: number; name: string };
type GroupRow = { id: number; rules: string | null };

async function adminRules(app: AppContext): Promise<RuleRow[]> {
  return (await app.db.selectFrom('admin_rule').select(['id', 'name']).execute()).map((rule) => ({ id: Number(rule.id), name: rule.name }));
}

/** Groups that list their rules (a `*` group holds every rule, so it has nothing to lose or regain). */
async function listingGroups(app: AppContext): Promise<GroupRow[]> {
  const groups = await app.db.selectFrom('admin_group').select(['id', 'rules']).execute();
  return groups.filter((group) => String(group.rules ?? '').trim() !== '*').map((group) => ({ id: Number(group.id), rules: group.rules }));
}

/**
 * Disabling a module deletes its rules (menus, nodes, a menu directory it emptied) and takes them out of every
 * group. Given the rules and groups as they were just before, record per group the names of the rules it held
 * that are gone now, so that enabling the module grants them again (ids change; names do not).
 */
async function rememberGrants(app: AppContext, uid: string, rulesBefore: readonly RuleRow[], groupsBefore: readonly GroupRow[]): Promise<void> {
  const remaining = new Set((await adminRules(app)).map((rule) => rule.id));
  const gone = new Map(rulesBefore.filter((rule) => !remaining.has(rule.id)).map((rule) => [rule.id, rule.name]));
  const grants = groupsBefore.flatMap((group) => [...new Set(parseRuleIds(group.rules).filter((id) => gone.has(id)).map((id) => gone.get(id) as string))].map((rule) => ({ uid, group_id: group.id, rule })));
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom(STORE_MODULE_GRANT_TABLE).where('uid', '=', uid).execute();
    if (grants.length) await trx.insertInto(STORE_MODULE_GRANT_TABLE).values(grants).execute();
  });
}

/**
 * After a module is installed again: every group that held its rules when it was disabled holds the rules of
 * the same names again (matched in any case, as rules are), and the record is forgotten. Writing a group's
 * rules moves the auth revision, so every process sees the grants at once.
 */
async function restoreGrants(app: AppContext, uid: string): Promise<void> {
  const grants = await app.db.selectFrom(STORE_MODULE_GRANT_TABLE).select(['group_id', 'rule']).where('uid', '=', uid).execute();
  if (!grants.length) return;
  const idsByName = new Map<string, number>();
  for (const rule of await adminRules(app)) idsByName.set(rule.name.toLowerCase(), rule.id);
  await app.db.transaction().execute(async (trx) => {
    const groups = await trx.selectFrom('admin_group').select(['id', 'rules']).execute();
    for (const group of groups) {
      if (String(group.rules ?? '').trim() === '*') continue;
      const held = parseRuleIds(group.rules);
      const regained = grants.filter((grant) => Number(grant.group_id) === Number(group.id)).map((grant) => idsByName.get(grant.rule.toLowerCase())).filter((id): id is number => id !== undefined && !held.includes(id));
      if (regained.length) await trx.updateTable('admin_group').set({ rules: [...held, ...new Set(regained)].join(',') }).where('id', '=', group.id).execute();
    }
    await trx.deleteFrom(STORE_MODULE_GRANT_TABLE).where('uid', '=', uid).execute();
  });
}

/**
 * `module/changeState {uid, state}`: disabling takes the module's schemas out of the set (API refused,
 * menus and nodes gone, tables and rows kept, each group's grants of them recorded by name for `install` to
 * give back) and is refused while an enabled module requires it; enabling
 * makes it wait to be installed again (state 2), as BuildAdmin's client then calls `install`.
 */
export async function changeModuleState(app: AppContext, lang: Language, uid: string, enable: boolean, actor: SchemaActor): Promise<ModuleItem> {
  const row = await rowOf(app, uid);
  if (!row) throw enable ? errors.moduleCannotEnable() : errors.moduleCannotDisable();
  if (enable) {
    if (Number(row.state) !== MODULE_STATE.disabled) throw errors.moduleCannotEnable();
    await save(app, uid, { ...row, state: MODULE_STATE.waiting });
  } else {
    if (!row.live) throw errors.moduleCannotDisable();
    const dependants = (await rows(app)).filter((other) => other.live && other.uid !== uid && parsePackage(other.package)?.info.requires.includes(uid)).map((other) => other.uid);
    if (dependants.length) throw errors.moduleRequiredBy(dependants.join(', '));
    const [rulesBefore, groupsBefore] = [await adminRules(app), await listingGroups(app)];
    await throughRegistry(() => app.schemas.remove(schemaIds(parsePackage(row.package)), actor));
    await rememberGrants(app, uid, rulesBefore, groupsBefore);
    await save(app, uid, { ...row, state: MODULE_STATE.disabled, live: 0 });
  }
  return itemOfRow(app, lang, (await rowOf(app, uid)) as StoredModule, catalogueUids(app)) as ModuleItem;
}

/**
 * `module/uninstall?uid=` (`dropData`: ours): only a module that is not enabled. Its schemas, menus and nodes
 * went when it was disabled; its images and the grants recorded then go now; its tables and rows stay (listed as kept, and taken back by a
 * later install) unless `dropData`, when the tables are dropped and the rows are gone for good.
 */
export async function uninstallModule(app: AppContext, uid: string, dropData: boolean): Promise<{ droppedTables: string[]; keptTables: string[] }> {
  const row = await rowOf(app, uid);
  if (!row || stateOf(row) === MODULE_STATE.uninstalled) throw errors.moduleNotFound(uid);
  if (row.live) throw errors.moduleDisableFirst(uid);
  const installed = parsePackage(row.package);
  const leftBehind = [...new Set([...(JSON.parse(row.kept_tables) as string[]), ...tablesOf(installed)])];
  let droppedTables: string[] = [];
  if (dropData && installed) droppedTables = await throughRegistry(() => app.schemas.dropLeftTables(installed.schemas.map((schema) => schema.raw)));
  const keptTables = leftBehind.filter((table) => !droppedTables.includes(table));
  const images = imagesDir(app, uid);
  if (images) await rm(images, { recursive: true, force: true });
  await app.db.deleteFrom(STORE_MODULE_GRANT_TABLE).where('uid', '=', uid).execute();
  if (keptTables.length) await save(app, uid, { state: MODULE_STATE.uninstalled, live: 0, version: '', package: null, pending: null, kept_tables: JSON.stringify(keptTables) });
  else await app.db.deleteFrom(STORE_MODULE_TABLE).where('uid', '=', uid).execute();
  return { droppedTables, keptTables };
}
