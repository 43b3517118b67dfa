import type { Operator, ResourceHooks, WriteContext } from '../app-context.js';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import { parseRuleIds } from '../auth/identity.js';
import { permissionNode } from '../auth/permission-node.js';
import type { Db, StoredRow } from '../db/connection.js';
import { errors, type ApiError } from '../errors.js';
import { DEFAULT_LANGUAGE } from '../../contract/headers.js';
import { sameText } from '../../schema/local-text.js';
import type { Translate } from '../i18n.js';
import type { RuleTable } from '../rule-titles.js';
import { seededNameIn } from '../seeded-names.js';
import type { Condition } from '../db/condition.js';

/**
 * What admin and member groups and rules share (docs/wire-contract.md#admin-groups, #admin-rules,
 * #member-groups, #member-rules): rule sets stored as CSV or `*`, rule trees with parent/child checks, new
 * rules granted to groups that hold their parent.
 */

/** The groups that hold the rules of each rule table. */
type GroupTable = 'admin_group' | 'user_group';
type RuleRow = Pick<StoredRow<RuleTable>, 'id' | 'pid' | 'title' | 'name' | 'type'>;

async function allRules(db: Db, ruleTable: RuleTable): Promise<RuleRow[]> {
  return db.selectFrom(ruleTable).select(['id', 'pid', 'title', 'name', 'type']).orderBy('weigh', 'desc').orderBy('id', 'asc').execute();
}

/** Checked ids from the form → `*` when they cover every rule, else the CSV of known ids. */
async function encodeRuleSet(db: Db, ruleTable: RuleTable, values: unknown[]): Promise<string[]> {
  if (values.map(String).includes('*')) return ['*'];
  const wanted = new Set(parseRuleIds(values.join(',')));
  const rules = await allRules(db, ruleTable);
  const known = rules.filter((rule) => wanted.has(Number(rule.id))).map((rule) => String(rule.id));
  if (known.length !== wanted.size) throw errors.unknownRule();
  return known.length === rules.length && rules.length > 0 ? ['*'] : known;
}

/** For the form: ids without those that are the parent of another selected id (the tree derives them). */
function leafRuleIds(rules: string[], all: RuleRow[]): string[] {
  if (rules.includes('*')) return ['*'];
  const selected = new Set(rules.map(Number));
  const parents = new Set(all.filter((rule) => selected.has(Number(rule.id))).map((rule) => Number(rule.pid)));
  return rules.filter((id) => !parents.has(Number(id)));
}

/** For lists: "Super administrator", the first rule's title, "<title>等 N 项", or "No permission"; `title` names a rule in the reader's language. */
function describeRuleSet(rules: string[], all: RuleRow[], t: Translate, title: (rule: RuleRow) => string): string {
  if (rules.includes('*')) return t('Super administrator');
  const found = rules.map((id) => all.find((rule) => Number(rule.id) === Number(id))).filter((rule): rule is RuleRow => Boolean(rule?.title));
  if (found.length === 0) return t('No permission');
  const first = title(found[0]);
  if (found.length === 1) return first;
  // A plain string param would be looked up as a message key: the title goes in as a text of its own.
  return t('%s and others, %d rules in all', [sameText(first), found.length]);
}

/** Groups: rules as display text in lists, as leaf ids in forms, `*`/CSV when saved. */
export function groupHooks(ruleTable: RuleTable): ResourceHooks {
  return {
    async present(operator, rows, view) {
      const all = await allRules(operator.app.db, ruleTable);
      const translate = operator.t ?? ((key: string) => key);
      const lang = operator.lang ?? DEFAULT_LANGUAGE;
      const title = (rule: RuleRow) => operator.app.ruleTitles.shownTitleIn(lang, ruleTable, rule);
      const groupTable = ruleTable === 'admin_rule' ? 'admin_group' : 'user_group';
      return rows.map((row) => {
        const rules = (row.rules as string[] | undefined) ?? [];
        // The form edits the stored name; lists and choices read a seeded one in the reader's language.
        if (view === 'edit') return { ...row, rules: leafRuleIds(rules, all) };
        return { ...row, name: seededNameIn(operator.app, lang, groupTable, row), rules: describeRuleSet(rules, all, translate, title) };
      });
    },
    async beforeWrite(_operator, write) {
      if (Array.isArray(write.values.rules)) write.values.rules = await encodeRuleSet(write.trx, ruleTable, write.values.rules);
    },
  };
}

/** Refuse to delete a node whose children are not deleted with it. */
export function checkChildrenIncluded(rows: Row[], children: Row[]): void {
  const ids = new Set(rows.map((row) => Number(row.id)));
  if (children.some((child) => !ids.has(Number(child.id)))) throw errors.deleteChildrenFirst();
}

export async function childrenOf(db: Db, table: RuleTable | GroupTable, ids: unknown[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  return db.selectFrom(table).select(['id', 'pid']).where('pid', 'in', ids.map(Number)).execute();
}

/**
 * A rule's name is the permission node it grants, compared in one form (`permissionNode`): no two rules
 * of a table share a node, and an admin who is not super may give a rule the name of a node the server
 * checks only when they hold that node already (admins hold no member nodes, so member rules named
 * after one are for super admins alone). Otherwise whoever may add or edit rules could grant themselves
 * anything: a rule `USER/MONEYLOG/ADD`, or a held rule renamed to a node they lack.
 */
async function checkRuleName(operator: Operator, write: WriteContext, ruleTable: RuleTable, name: string): Promise<void> {
  const { existing, trx } = write;
  const node = permissionNode(name);
  if (existing && permissionNode(String(existing.name)) === node) return;
  const rules = await trx.selectFrom(ruleTable).select(['id', 'name']).execute();
  if (rules.some((rule) => permissionNode(rule.name) === node && Number(rule.id) !== Number(existing?.id))) throw ruleNameTaken(write.definition);
  const identity = operator.identity;
  if (!identity || identity.isSuper) return;
  const checked = new Set(operator.app.controllers.permissionNodes(ruleTable === 'admin_rule' ? 'admin' : 'user').map(permissionNode));
  const held = ruleTable === 'admin_rule' && identity.ruleNames.has(node);
  if (checked.has(node) && !held) throw errors.ruleNodeNotHeld(name);
}

/** "Rule name already exists", in the schema's title of the field. */
function ruleNameTaken(definition: ResourceDefinition): ApiError {
  return errors.alreadyExists(definition.fields.find((field) => field.name === 'name')?.title ?? 'Rule name', 'name');
}

/**
 * Rules: unique names (`checkRuleName`; two adds racing past it are stopped by the database's index of
 * the lower-cased name, `db/seed.ts`, and answered the same), tree checks on edit and delete, grants of new rules to the
 * groups that hold their parent, except the groups of an admin who is not super adding it: they get
 * no right by adding a rule.
 */
export function ruleHooks(ruleTable: RuleTable, groupTable: GroupTable, options: { weighFromId: boolean; scope?: ResourceHooks['scope'] }): ResourceHooks {
  return {
    scope: options.scope,
    uniqueViolation: ruleNameTaken,
    async present(operator, rows, view) {
      // The form edits the stored title; lists and choices read a product-given one in the reader's language.
      if (view === 'edit') return rows;
      const lang = operator.lang ?? DEFAULT_LANGUAGE;
      const shown = rows.map((row) =>
        typeof row.title === 'string' && typeof row.name === 'string'
          ? { ...row, title: operator.app.ruleTitles.shownTitleIn(lang, ruleTable, { name: row.name, title: row.title, type: typeof row.type === 'string' ? row.type : undefined }) }
          : row,
      );
      // Remote selects pick a parent: only directories and menus (the enabled ones: the schema's
      // x-list.tree.selectable, applied by treeRows).
      if (view === 'select') return shown.filter((row) => row.type === 'menu_dir' || row.type === 'menu');
      return shown;
    },
    async beforeWrite(operator, write) {
      const { values, existing, trx } = write;
      if (typeof values.name === 'string') await checkRuleName(operator, write, ruleTable, values.name);
      if (typeof values.component === 'string') values.component = values.component.replace(/\\/g, '/');
      if (existing && values.pid !== undefined) {
        const pid = Number(values.pid);
        if (pid === Number(existing.id)) throw errors.parameterError();
        // Moving a node under its own child: the child moves to the top first, so no cycle forms.
        const child = await trx.selectFrom(ruleTable).select(['id', 'pid']).where('id', '=', pid).executeTakeFirst();
        if (child && Number(child.pid) === Number(existing.id)) await trx.updateTable(ruleTable).set({ pid: 0 }).where('id', '=', pid).execute();
      }
    },
    async afterWrite(operator, write) {
      if (write.mode !== 'add') return;
      const id = Number(write.id);
      if (options.weighFromId) await write.trx.updateTable(ruleTable).set({ weigh: id }).where('id', '=', id).execute();
      const pid = Number(write.values.pid ?? 0);
      if (!pid) return;
      const identity = operator.identity;
      const creators = groupTable === 'admin_group' && identity && !identity.isSuper ? new Set(identity.groupIds) : new Set<number>();
      const groups = await write.trx.selectFrom(groupTable).select(['id', 'rules']).execute();
      for (const group of groups) {
        const rules = String(group.rules ?? '').split(',').filter(Boolean);
        if (rules.includes('*') || !rules.includes(String(pid)) || creators.has(Number(group.id))) continue;
        await write.trx.updateTable(groupTable).set({ rules: [...rules, String(id)].join(',') }).where('id', '=', group.id).execute();
      }
    },
    async beforeDelete(_operator, remove) {
      checkChildrenIncluded(remove.rows, await childrenOf(remove.trx, ruleTable, remove.rows.map((row) => row.id)));
      return remove.rows;
    },
  };
}

export function idIn(ids: number[]): Condition {
  return (eb) => eb(eb.ref('id'), 'in', ids.length ? ids : [0]);
}
