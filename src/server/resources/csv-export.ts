import type { RequestContext, ResourceHooks } from '../app-context.js';
import { Readable } from 'node:stream';
import type { FieldDefinition, ResourceDefinition, Row } from '../../schema/definition.js';
import { listColumnsOf } from '../../schema/list-columns.js';
import { formatLocalDateTime } from '../../contract/site-time.js';
import { formatPercent } from '../../contract/money.js';
import type { Language } from '../../contract/headers.js';
import { allListRows } from './operations/list.js';

/**
 * `export`: the filtered list as CSV, every page, streamed as it is read: the list's columns
 * under their translated titles, values as the list shows them (dates on the site's clock, enum labels,
 * the names of referenced rows). UTF-8 with a byte-order mark, so spreadsheet programs read Chinese.
 */

/** A cell: quoted when it holds a separator, a quote or a line break; a leading `= + - @` is defused. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function isDateTime(field: FieldDefinition): boolean {
  return (field.ui.render === 'datetime' || field.ui.widget === 'datetime') && (field.wireType === 'integer' || field.wireType === 'number');
}

function cellOf(field: FieldDefinition, row: Row, timeZone: string, lang: Language): string {
  const value = row[field.name];
  if (value === null || value === undefined) return '';
  const related = field.ref?.as ? (row[field.ref.as] as Row | Row[] | null | undefined) : undefined;
  if (related && typeof related === 'object') {
    const labels = (Array.isArray(related) ? related : [related]).map((item) => item?.[field.ref?.label ?? '']).filter((label) => label !== undefined && label !== null);
    if (labels.length > 0) return labels.join(',');
  }
  if (isDateTime(field)) return formatLocalDateTime(value, timeZone);
  if (field.format === 'percent') return formatPercent(value);
  const label = (item: unknown) => {
    const text = field.ui.options?.[String(item)];
    return text ? text[lang] : String(item);
  };
  if (Array.isArray(value)) return value.map(label).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return label(value);
}

export async function sendCsvExport(ctx: RequestContext, definition: ResourceDefinition, hooks: ResourceHooks): Promise<void> {
  const timeZone = await ctx.app.config.timeZone();
  const t = (key: string) => ctx.t(key);
  const columns = listColumnsOf(definition);
  // Read one page first: a refused search answers as an error envelope, before any CSV is sent.
  const pages = allListRows(ctx, definition, hooks, ctx.query, { timeZone, translate: t });
  const first = await pages.next();
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${columns.map((field) => csvCell(field.title[ctx.lang])).join(',')}\r\n`;
    let page = first;
    while (!page.done) {
      yield page.value.map((row) => `${columns.map((field) => csvCell(cellOf(field, row, timeZone, ctx.lang))).join(',')}\r\n`).join('');
      page = await pages.next();
    }
  }
  const day = formatLocalDateTime(Math.floor(Date.now() / 1000), timeZone).slice(0, 10);
  await ctx.reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${definition.table}-${day}.csv"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}
