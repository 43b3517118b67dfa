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
  const rows = (await db.selectFrom(ruleTable).selectAll().where('status', '=', '1').orderBy('weigh', 'desc').orderBy('id', 'asc').execute()) as Row[];
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
