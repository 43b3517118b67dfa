import type { Row } from '../../schema/definition.js';
import type { Db } from '../db/connection.js';
import { nestRows } from '../tree-rows.js';
import type { AreaAuth, Identity } from './identity.js';

const HIDDEN_COLUMNS = ['remark', 'status', 'weigh', 'update_time', 'create_time'];

/**
 * The rule tree an account may use (docs/wire-contract.md#menu-tree): enabled rules it holds, `weigh desc, id asc`,
 * nested by `pid`; rules whose parent is out of reach are dropped. Buttons are children of their menu,
 * which is how permission nodes reach the client.
 */
export async function ruleTree(db: Db, ruleTable: AreaAuth['ruleTable'], identity: Identity): Promise<Row[]> {
  const rows = await db.selectFrom(ruleTable).selectAll().where('status', '=', '1').orderBy('weigh', 'desc').orderBy('id', 'asc').execute();
  const held = rows.filter((row) => identity.isSuper || identity.ruleIds.has(Number(row.id)));
  const ids = new Set(held.map((row) => Number(row.id)));
  const reachable = (row: Row): boolean => Number(row.pid) === 0 || (ids.has(Number(row.pid)) && reachable(held.find((item) => Number(item.id) === Number(row.pid)) as Row));
  const shaped = held.filter(reachable).map((row) => {
    const item: Row = {};
    for (const [key, value] of Object.entries(row)) if (!HIDDEN_COLUMNS.includes(key)) item[key] = value;
    if ('keepalive' in item) item.keepalive = Number(row.keepalive) ? row.name : 0;
    return item;
  });
  return nestRows(shaped, 'id', 'pid');
}

/** Rule types a visitor who is not signed in may receive (docs/wire-contract.md#member-bootstrap). */
const PUBLIC_RULE_TYPES = ['route', 'nav', 'button'] as const;

/**
 * The member-centre rules open to visitors who are not signed in (enabled, valid without login, of a
 * public type), nested by `pid`; top-level nodes always carry `children`, even when empty.
 */
export async function publicRuleTree(db: Db): Promise<Row[]> {
  const rows = (await db
    .selectFrom('user_rule')
    .selectAll()
    .where('status', '=', '1')
    .where('no_login_valid', '=', 1)
    .where('type', 'in', PUBLIC_RULE_TYPES)
    .orderBy('weigh', 'desc')
    .orderBy('id', 'asc')
    .execute());
  return nestRows(rows, 'id', 'pid').map((rule) => ({ ...rule, children: rule.children ?? [] }));
}
