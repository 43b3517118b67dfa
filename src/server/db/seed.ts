import { sql } from 'kysely';
import { backendViewPath, isMemberViewPath, memberPageNameOf } from '../../contract/view-paths.js';
import { decodeConfigValue } from '../../contract/config-values.js';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import { SchemaError } from '../../schema/normalise.js';
import { nowSeconds } from '../clock.js';
import { permissionNode } from '../auth/permission-node.js';
import { dynamicDb, type DatabaseHandle, type DynamicDb } from './connection.js';
import { PLATFORM_MENUS } from './platform-menus.js';
import { markMenuSynced, menuSyncVersions, type TableGrowth } from './migrate.js';
import { SCHEMA_STATE_TABLE } from './system-tables.js';
import { catalogTables } from './table-catalog.js';
import { rowToStorage } from './values.js';

/** A full stored row for an insert: defaults for every column not given, timestamps set. */
export function completeRow(definition: ResourceDefinition, values: Row, now = nowSeconds()): Row {
  const filled: Row = {};
  for (const field of definition.fields) {
    if (!field.storage) continue;
    if (field.name in values) filled[field.name] = values[field.name];
    else if (field.name !== definition.primaryKey) filled[field.name] = field.default;
  }
  if (definition.timestamps.create && values[definition.timestamps.create] === undefined) filled[definition.timestamps.create] = now;
  if (definition.timestamps.update && values[definition.timestamps.update] === undefined) filled[definition.timestamps.update] = now;
  return rowToStorage(definition, filled);
}

/** PostgreSQL serial counters do not move when rows are inserted with explicit ids. */
async function resetSequence(handle: DatabaseHandle, definition: ResourceDefinition): Promise<void> {
  const key = definition.fields.find((field) => field.name === definition.primaryKey);
  if (handle.dialect !== 'postgres' || key?.wireType !== 'integer') return;
  await sql`SELECT setval(pg_get_serial_sequence(${definition.table}, ${definition.primaryKey}), GREATEST((SELECT MAX(${sql.ref(definition.primaryKey)}) FROM ${sql.table(definition.table)}), 1))`.execute(handle.db);
}

/** Titles of the permission nodes a schema menu gets; other buttons are titled by their name. */
export const BUTTON_TITLES: Readonly<Record<string, string>> = {
  index: '查看', add: '添加', edit: '编辑', del: '删除', sortable: '快速排序', export: '导出', restore: '还原', info: '查看详情', rollback: '回滚', reconcile: '对账', approve: '通过', reject: '驳回', pay: '打款', account: '查看收款账号', testReturn: '测试回传', sendTestMail: '发送测试邮件', sendTestSms: '发送测试短信', run: '立即运行',
};

/** In seeds, group `rules` may list rule names; they become ids once the rules exist. */
type GroupTable = 'admin_group' | 'user_group';
type RuleTable = 'admin_rule' | 'user_rule';
const RULE_TABLE_OF_GROUP: readonly (readonly [GroupTable, RuleTable])[] = [
  ['admin_group', 'admin_rule'],
  ['user_group', 'user_rule'],
];

async function resolveRuleNames(db: DynamicDb, ruleTable: RuleTable, names: string): Promise<string> {
  const wanted = names.split(',').map(permissionNode);
  const rows = await db.selectFrom(ruleTable).select(['id', 'name']).execute();
  return rows.filter((row) => wanted.includes(permissionNode(row.name))).map((row) => row.id).join(',');
}

/**
 * The groups whose `rules` still name rules get their ids, once the rules exist (the schemas' menus
 * synced). Only a seed stores names there (a group saved from the back office holds ids or `*`), so a
 * group still holding names is one seeded by a start that was cut short before this: the next finishes it.
 */
async function resolveGroupRuleNames(db: DynamicDb, groupTable: GroupTable, ruleTable: RuleTable): Promise<void> {
  const groups = await db.selectFrom(groupTable).select(['id', 'rules']).execute();
  for (const group of groups) {
    if (!/[a-z]/i.test(group.rules ?? '')) continue;
    const rules = await resolveRuleNames(db, ruleTable, String(group.rules));
    await db.updateTable(groupTable).set({ rules }).where('id', '=', group.id).execute();
  }
}

/**
 * Rules whose names differ only in case stand for one permission node, so a table holds one rule per
 * node. A database from before this rule may hold several: the oldest (lowest id, the seeded one) is kept
 * as it is, the others' children move under it, the groups that held them hold it instead, and they are
 * deleted. Each merge is reported on the console so the administrator can review who holds the node.
 */
async function mergeRulesOfOneNode(db: DynamicDb, groupTable: GroupTable, ruleTable: RuleTable): Promise<void> {
  const rules = await db.selectFrom(ruleTable).select(['id', 'name']).orderBy('id', 'asc').execute();
  const kept = new Map<string, { id: number; name: string }>();
  const merged = new Map<number, { id: number; name: string }>();
  for (const rule of rules) {
    const first = kept.get(permissionNode(rule.name));
    if (first) merged.set(Number(rule.id), first);
    else kept.set(permissionNode(rule.name), rule);
  }
  if (merged.size === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [id, into] of merged) await trx.updateTable(ruleTable).set({ pid: into.id }).where('pid', '=', id).execute();
    const groups = await trx.selectFrom(groupTable).select(['id', 'rules']).execute();
    for (const group of groups) {
      const ids = String(group.rules ?? '').split(',').filter(Boolean);
      if (!ids.some((id) => merged.has(Number(id)))) continue;
      const rules = [...new Set(ids.map((id) => String(merged.get(Number(id))?.id ?? id)))].join(',');
      await trx.updateTable(groupTable).set({ rules }).where('id', '=', group.id).execute();
    }
    await trx.deleteFrom(ruleTable).where('id', 'in', [...merged.keys()]).execute();
  });
  for (const [id, into] of merged) {
    const name = rules.find((rule) => Number(rule.id) === id)?.name;
    console.warn(`${ruleTable}: rule #${id} "${name}" merged into #${into.id} "${into.name}" (one permission node; its groups now hold #${into.id})`);
  }
}

/**
 * The database's own guard of one rule per node: a unique index on the lower-cased name, so two adds
 * that race past the check in their transactions (`resources/permission-sets.ts`), in one server or in
 * two on one database, cannot both be stored. It is not declared in the schema's `x-indexes`, which
 * list columns only and are made by the migration, before the merge above has removed the duplicates
 * an older database may hold; it is made here after each start's merge (again after a rebuild of the
 * table). A rule's name is printable ASCII (the `pattern` of the schemas' `name`), on which SQLite's and
 * PostgreSQL's `lower` and `permissionNode` agree: SQLite's folds ASCII letters only.
 */
async function ensureRuleNodeIndex(db: DynamicDb, ruleTable: string): Promise<void> {
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS ${sql.id(`uniq_${ruleTable}_node`)} ON ${sql.table(ruleTable)} (lower(${sql.ref('name')}))`.execute(db);
}

/**
 * Menu syncs so far. 1: the menu and its buttons; 2: the `export` node, new to every list, for menus
 * synced before it existed; 3: the providers' `testReturn` node; 4: the nodes every action of a resource
 * checks (`export` of the lists that had none, the config's `sendTestMail`); 5: the config's `sendTestSms`. A rule an admin deleted
 * after its sync is never brought back.
 */
const MENU_SYNC_VERSION = 5;
const BUTTONS_SINCE: Record<number, string[]> = { 2: ['export'], 3: ['testReturn'], 4: ['export', 'sendTestMail'], 5: ['sendTestSms'] };

/** The directories the schemas declare (`"parent": {"name", "title", …}`), by node: one schema declares a new area's, all of them share it. */
function declaredDirectories(definitions: readonly ResourceDefinition[]) {
  return new Map(definitions.flatMap((definition) => (definition.menu?.parent && definition.menu.parentDirectory ? [[permissionNode(definition.menu.parent), definition.menu.parentDirectory] as const] : [])));
}

/**
 * Every menu a schema will add goes under a menu that exists when it is added: a rule of that name in the
 * database (on a new database, a row of the rule table's seed), a directory a schema declares, or another
 * schema's menu (added first). A parent naming none of these is refused before anything is written, naming
 * the file, the field and the parent; it was once put at the top level without a word. Menus synced
 * already are left as they stand. `files` names the file of a schema not in `schemas/` (a design).
 */
export async function checkMenuParents(handle: DatabaseHandle, definitions: readonly ResourceDefinition[], files: Readonly<Record<string, string>> = {}): Promise<void> {
  const withParent = definitions.filter((definition) => definition.menu?.parent);
  // Without the rule table no menu is synced at all (`seed`).
  if (withParent.length === 0 || !definitions.some((definition) => definition.table === 'admin_rule')) return;
  const db = dynamicDb(handle.db);
  const tables = new Set(await catalogTables(handle));
  const rules = tables.has('admin_rule')
    ? (await db.selectFrom('admin_rule').select('name').execute()).map((rule) => rule.name)
    : (definitions.find((definition) => definition.table === 'admin_rule')?.seed ?? []).map((row) => String(row.name ?? ''));
  const existing = new Set(rules.map(permissionNode));
  const synced = tables.has(SCHEMA_STATE_TABLE) ? await menuSyncVersions(db) : new Map<string, number>();
  const directories = declaredDirectories(definitions);
  const menus = new Set(definitions.flatMap((definition) => (definition.menu ? [permissionNode(definition.menu.name)] : [])));
  for (const definition of withParent) {
    const { name, parent } = definition.menu as { name: string; parent: string };
    if ((synced.get(definition.table) ?? 0) > 0 || existing.has(permissionNode(name))) continue;
    const node = permissionNode(parent);
    if (existing.has(node) || directories.has(node) || (menus.has(node) && node !== permissionNode(name))) continue;
    throw new SchemaError(
      files[definition.id] ?? `schemas/${definition.id}.json`,
      '/x-menu/parent',
      `the parent menu "${parent}" does not exist: no admin rule has that name and no schema declares it, as its menu or as a directory ("parent": {"name": "${parent}", "title": …})`,
    );
  }
}

/**
 * The schemas in the order their menus are added: a menu another schema's menu goes under comes before it
 * (`checkMenuParents` has refused a parent that is neither in the database nor declared).
 */
function parentsFirst(definitions: readonly ResourceDefinition[]): ResourceDefinition[] {
  const byMenu = new Map(definitions.flatMap((definition) => (definition.menu ? [[permissionNode(definition.menu.name), definition] as const] : [])));
  const ordered: ResourceDefinition[] = [];
  const placed = new Set<ResourceDefinition>();
  const place = (definition: ResourceDefinition, path: Set<ResourceDefinition>) => {
    if (placed.has(definition) || path.has(definition)) return;
    const parent = definition.menu?.parent ? byMenu.get(permissionNode(definition.menu.parent)) : undefined;
    if (parent) place(parent, new Set([...path, definition]));
    placed.add(definition);
    ordered.push(definition);
  };
  for (const definition of definitions) place(definition, new Set());
  return ordered;
}

/** Insert the menu rule and its permission nodes for every schema with `x-menu`, once per schema and sync version. */
async function syncMenus(db: DynamicDb, definitions: ResourceDefinition[]): Promise<string[]> {
  const versions = await menuSyncVersions(db);
  const added: string[] = [];
  const now = nowSeconds();
  const directories = declaredDirectories(definitions);
  for (const definition of parentsFirst(definitions)) {
    const menu = definition.menu;
    const version = versions.get(definition.table) ?? 0;
    if (!menu || version >= MENU_SYNC_VERSION) continue;
    // An earlier sync made the menu: only the buttons of later versions are new to it.
    const later = Object.entries(BUTTONS_SINCE).filter(([since]) => Number(since) > version).flatMap(([, names]) => names);
    const buttons = version === 0 ? menu.buttons : menu.buttons.filter((button) => later.includes(button));
    await db.transaction().execute(async (trx) => {
      const rules = await trx.selectFrom('admin_rule').select(['id', 'name']).execute();
      const byName = new Map(rules.map((rule) => [permissionNode(rule.name), rule.id]));
      let menuId = byName.get(permissionNode(menu.name));
      if (version > 0 && menuId === undefined) {
        // The admin deleted this menu: nothing to add buttons to.
        await markMenuSynced(trx, definition.table, MENU_SYNC_VERSION);
        return;
      }
      if (menuId === undefined) {
        let parentId = menu.parent ? byName.get(permissionNode(menu.parent)) : 0;
        const directory = menu.parent ? directories.get(permissionNode(menu.parent)) : undefined;
        if (parentId === undefined && menu.parent && directory) {
          const inserted = await trx
            .insertInto('admin_rule')
            .values({
              pid: 0, type: 'menu_dir', title: directory.title['zh-cn'], name: menu.parent, path: menu.parent, icon: directory.icon,
              menu_type: null, url: '', component: '', keepalive: 0, extend: 'none', remark: '',
              weigh: directory.weigh, status: '1', create_time: now, update_time: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          parentId = Number(inserted.id);
          added.push(menu.parent);
        }
        menuId = await insertMenuRule(trx, { pid: parentId ?? 0, title: menu.title['zh-cn'], name: menu.name, icon: menu.icon, weigh: menu.weigh }, now);
        added.push(menu.name);
      }
      await insertMissingButtons(trx, menuId, menu.name, buttons, byName, now);
      await markMenuSynced(trx, definition.table, MENU_SYNC_VERSION);
    });
  }
  return added;
}

/** A menu rule (a tab drawn by the screen of `name`), answering its id. */
async function insertMenuRule(trx: DynamicDb, menu: { pid: number; title: string; name: string; icon: string; weigh: number }, now: number): Promise<number> {
  const inserted = await trx
    .insertInto('admin_rule')
    .values({
      pid: menu.pid, type: 'menu', title: menu.title, name: menu.name, path: menu.name, icon: menu.icon,
      menu_type: 'tab', url: '', component: backendViewPath(menu.name), keepalive: 1, extend: 'none', remark: '',
      weigh: menu.weigh, status: '1', create_time: now, update_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** The button rules `<menu>/<button>` under menu `menuId` that `byName` (rule ids by node) does not hold yet. */
async function insertMissingButtons(trx: DynamicDb, menuId: number, menuName: string, buttons: readonly string[], byName: ReadonlyMap<string, number>, now: number): Promise<void> {
  for (const button of buttons) {
    const name = `${menuName}/${button}`;
    if (byName.has(permissionNode(name))) continue;
    await trx
      .insertInto('admin_rule')
      .values({
        pid: menuId, type: 'button', title: BUTTON_TITLES[button] ?? button, name, path: '', icon: '', menu_type: null, url: '',
        component: '', keepalive: 0, extend: 'none', remark: '', weigh: 0, status: '1', create_time: now, update_time: now,
      })
      .execute();
  }
}

async function ensurePlatformMenus(db: DynamicDb): Promise<void> {
  const now = nowSeconds();
  for (const menu of PLATFORM_MENUS) {
    await db.transaction().execute(async (trx) => {
      const rules = await trx.selectFrom('admin_rule').select(['id', 'name']).execute();
      const byName = new Map(rules.map((rule) => [permissionNode(rule.name), Number(rule.id)]));
      let menuId = byName.get(permissionNode(menu.name));
      menuId ??= await insertMenuRule(trx, { pid: byName.get(permissionNode(menu.parent)) ?? 0, title: menu.title, name: menu.name, icon: menu.icon, weigh: menu.weigh }, now);
      await insertMissingButtons(trx, menuId, menu.name, menu.buttons, byName, now);
    });
  }
}

/**
 * Menus of a database made before they carried BuildAdmin's values get them: the view file in
 * `component` (where ours was another kind of name) and the seeded `path` where it was the rule's name
 * (`moduleStore`). Values an admin set to a view file of their own are left alone.
 */
async function alignMenusWithBuildAdmin(db: DynamicDb, definitions: ResourceDefinition[]): Promise<void> {
  const seeded = definitions.find((definition) => definition.table === 'admin_rule')?.seed ?? [];
  const views = new Map<string, string>();
  for (const definition of definitions) if (definition.menu) views.set(definition.menu.name, backendViewPath(definition.menu.name));
  for (const row of seeded) {
    if (row.type !== 'menu' || typeof row.name !== 'string') continue;
    if (typeof row.component === 'string' && row.component.startsWith('/src/views/')) views.set(row.name, row.component);
    if (typeof row.path === 'string' && row.path !== row.name) {
      await db.updateTable('admin_rule').set({ path: row.path }).where('name', '=', row.name).where('path', '=', row.name).execute();
    }
  }
  for (const [name, component] of views) {
    await db.updateTable('admin_rule').set({ component }).where('name', '=', name).where('type', '=', 'menu').where('component', 'not like', '/src/views/%').execute();
  }
}

/**
 * Member rules of a database made before they carried BuildAdmin's view files: a seeded page that
 * BuildAdmin has (`account/overview`) is re-pointed from our name to its view file
 * (`/src/views/frontend/user/account/overview.vue`), so BuildAdmin's client finds a route for it. Only
 * the old seeded value is replaced; a component an administrator chose is left alone.
 */
async function alignMemberRulesWithBuildAdmin(db: DynamicDb, definitions: ResourceDefinition[]): Promise<void> {
  const seeded = definitions.find((definition) => definition.table === 'user_rule')?.seed ?? [];
  for (const row of seeded) {
    if (typeof row.name !== 'string' || typeof row.component !== 'string' || !isMemberViewPath(row.component)) continue;
    await db
      .updateTable('user_rule')
      .set({ component: row.component })
      .where('name', '=', row.name)
      .where('component', '=', memberPageNameOf(row.component))
      .execute();
  }
}

/**
 * Settings added to the product after a database was made (the token lifetimes) are inserted with
 * their seeded value, once: an item already there, whatever its value, is left alone.
 */
async function addMissingConfigItems(db: DynamicDb, definitions: ResourceDefinition[]): Promise<void> {
  const definition = definitions.find((candidate) => candidate.table === 'config');
  if (!definition) return;
  const present = new Set((await db.selectFrom('config').select('name').execute()).map((row) => row.name));
  const missing = definition.seed.filter((row) => typeof row.name === 'string' && !present.has(row.name));
  const now = nowSeconds();
  for (const row of missing) {
    const values = completeRow(definition, row, now);
    delete values[definition.primaryKey];
    await db.insertInto('config').values(values).execute();
  }
  await addMissingConfigGroups(db, definition);
  await retitleConfigItems(db, definition);
}

/**
 * Seeded titles and help that changed since a database was made, by the text they had then: the token
 * lifetimes were titled in seconds before the screen took them in days, hours or minutes, and the groups' and quick entrances' help spoke of keys. Only a title
 * or help still as seeded is replaced (by the seed's current one); one an administrator wrote stays.
 */
const FORMER_CONFIG_TEXTS: Readonly<Record<string, { title?: string; tip?: string }>> = {
  config_group: { tip: 'The tabs of this screen: a key and its title per row; a group that holds items stays' },
  config_quick_entrance: { tip: 'Buttons above the configuration: a label (key) and the back-office path it opens (value)' },
  admin_token_keep_time: {
    title: 'Admin token lifetime (seconds)',
    tip: 'How long an administrator stays signed in without a refresh: 60 to 2592000 seconds (30 days)',
  },
  user_token_keep_time: {
    title: 'Member token lifetime (seconds)',
    tip: 'How long a member stays signed in without a refresh: 60 to 2592000 seconds (30 days)',
  },
};

async function retitleConfigItems(db: DynamicDb, definition: ResourceDefinition): Promise<void> {
  for (const [name, former] of Object.entries(FORMER_CONFIG_TEXTS)) {
    const row = definition.seed.find((candidate) => candidate.name === name);
    if (!row) continue;
    for (const column of ['title', 'tip'] as const) {
      const was = former[column];
      if (typeof row[column] !== 'string' || was === undefined) continue;
      await db.updateTable('config').set({ [column]: row[column] }).where('name', '=', name).where(column, '=', was).execute();
    }
  }
}

/**
 * Groups added to the product after a database was made (Points) are appended to its `config_group`, so
 * the items seeded into them show on the config screen; groups an administrator added, renamed or
 * ordered stay as they are.
 */
async function addMissingConfigGroups(db: DynamicDb, definition: ResourceDefinition): Promise<void> {
  const seeded = definition.seed.find((row) => row.name === 'config_group');
  const stored = await db.selectFrom('config').select(['id', 'value']).where('name', '=', 'config_group').executeTakeFirst();
  if (!seeded || !stored) return;
  const groupsOf = (value: unknown): { key: string; value: string }[] => {
    const parsed: unknown = decodeConfigValue('array', typeof value === 'string' ? value : '');
    return Array.isArray(parsed) ? (parsed as { key: string; value: string }[]).filter((group) => group && typeof group.key === 'string') : [];
  };
  const groups = groupsOf(stored.value);
  const absent = groupsOf(seeded.value).filter((group) => !groups.some((present) => present.key === group.key));
  if (absent.length === 0) return;
  await db.updateTable('config').set({ value: JSON.stringify([...groups, ...absent]) }).where('id', '=', stored.id).execute();
}

/**
 * What the seeds owe a table a migration step made or grew, written in that step's transaction (`handle`
 * is on it, see `seedTable` in db/migrate.ts): all its seed rows when the step made it; when the step
 * added columns to a table made earlier (a template's English text), the values the seed gives them on
 * the seeded rows (the rows with the seed's keys), once, so a value an administrator clears later stays
 * cleared.
 */
export async function seedTable(handle: DatabaseHandle, definition: ResourceDefinition, growth: TableGrowth): Promise<void> {
  const db = dynamicDb(handle.db);
  if (growth.created) {
    if (definition.seed.length === 0) return;
    const now = nowSeconds();
    for (const values of definition.seed) await db.insertInto(definition.table).values(completeRow(definition, values, now)).execute();
    await resetSequence(handle, definition);
    return;
  }
  const key = definition.primaryKey;
  for (const row of definition.seed) {
    // stored as an insert stores it (money in cents, lists as text)
    const stored = completeRow(definition, row);
    const values = Object.fromEntries(growth.addedColumns.filter((column) => row[column] !== undefined).map((column) => [column, stored[column]]));
    if (Object.keys(values).length === 0 || row[key] === undefined) continue;
    await db.updateTable(definition.table).set(values).where(key, '=', row[key]).execute();
  }
}

/**
 * What the seeds owe the database beyond each table's own rows (`seedTable`, written with the table):
 * config items added to the product since, the menus of schemas not synced yet, the rule names of group
 * seeds. Each part looks at what the database holds, so what a start cut short left undone the next does.
 */
export async function seed(handle: DatabaseHandle, definitions: ResourceDefinition[]): Promise<void> {
  const db = dynamicDb(handle.db);
  await addMissingConfigItems(db, definitions);
  const tables = new Set(definitions.map((definition) => definition.table));
  for (const [groupTable, ruleTable] of RULE_TABLE_OF_GROUP) {
    if (!tables.has(groupTable) || !tables.has(ruleTable)) continue;
    await mergeRulesOfOneNode(db, groupTable, ruleTable);
    await ensureRuleNodeIndex(db, ruleTable);
  }
  if (definitions.some((definition) => definition.table === 'admin_rule')) {
    await syncMenus(db, definitions);
    await ensurePlatformMenus(db);
    await alignMenusWithBuildAdmin(db, definitions);
    // Buttons made before their action had a title were titled with the bare action (`restore`).
    for (const [action, title] of Object.entries(BUTTON_TITLES)) {
      await db.updateTable('admin_rule').set({ title }).where('type', '=', 'button').where('title', '=', action).execute();
    }
  }
  if (definitions.some((definition) => definition.table === 'user_rule')) await alignMemberRulesWithBuildAdmin(db, definitions);
  for (const [groupTable, ruleTable] of RULE_TABLE_OF_GROUP) {
    if (tables.has(groupTable) && tables.has(ruleTable)) await resolveGroupRuleNames(db, groupTable, ruleTable);
  }
}
