import type { Operator, ResourceHooks, RowView } from '../../app-context.js';
import { dynamicDb } from '../../db/connection.js';
import { sql } from 'kysely';
import type { ListData } from '../../../contract/envelope.js';
import type { ResourceDefinition, Row } from '../../../schema/definition.js';
import { accessConditions } from '../access.js';
import { pageQuery } from '../list-plan.js';
import { readListPage } from '../list-reader.js';
import { parseListRequest } from '../list-query.js';
import { presentRows } from '../present.js';

/** `index`: a page of rows with its total and the menu's remark; and every row of a list, for the CSV export. */

async function remarkOf(operator: Operator, definition: ResourceDefinition, lang: (key: string) => string): Promise<string> {
  const path = definition.menu?.name ?? definition.controllerPath;
  if (!path) return '';
  const read = async () => {
    const row = (await dynamicDb(operator.app.db)
      .selectFrom('admin_rule')
      .select('remark')
      .where(sql`lower(name)`, 'in', [path.toLowerCase(), `${path.toLowerCase()}/index`])
      .where('remark', '<>', '')
      .executeTakeFirst()) as { remark: string } | undefined;
    return row?.remark ?? '';
  };
  const { identity } = operator;
  const remark = identity?.area === 'admin' && identity.revision !== undefined ? await operator.app.identities.remarkOf(identity.revision, path, read) : await read();
  return remark ? lang(remark) : '';
}

export interface ListOptions {
  view?: RowView;
  timeZone: string;
  translate: (key: string) => string;
}

/** `index`: a page of rows with the total and the menu remark. */
export async function listRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, query: Row, options: ListOptions): Promise<ListData<Row>> {
  const request = parseListRequest(operator.app, definition, query, options.timeZone, operator.identity);
  const conditions = [...request.conditions, ...(await accessConditions(operator, definition, hooks))];
  const [total, stored] = await readListPage(operator.app, definition, request, conditions);
  return {
    list: await presentRows(operator, definition, hooks, stored, options.view ?? 'list'),
    total,
    remark: await remarkOf(operator, definition, options.translate),
  };
}

/**
 * Every row of a filtered list in its order, page by page (the CSV export): the list's search, quick
 * search, order and data limit, without its paging.
 */
export async function* allListRows(operator: Operator, definition: ResourceDefinition, hooks: ResourceHooks, query: Row, options: ListOptions, pageSize = 500): AsyncGenerator<Row[]> {
  const request = parseListRequest(operator.app, definition, { ...query, page: 1, limit: pageSize }, options.timeZone, operator.identity);
  const conditions = [...request.conditions, ...(await accessConditions(operator, definition, hooks))];
  for (let page = 1; ; page++) {
    const stored = (await pageQuery(dynamicDb(operator.app.db), definition, { ...request, page, all: false }, conditions).execute()) as Row[];
    if (stored.length > 0) yield await presentRows(operator, definition, hooks, stored, 'list');
    if (stored.length < pageSize) return;
  }
}
