import { HttpError } from 'react-admin';
import type { ResourceDefinition } from '../../../../schema/definition.js';
import type { Language } from '../../../../contract/headers.js';
import { httpClient } from '../../../http/index.js';

/**
 * The designer's calls: BuildAdmin's `crud.Crud/*` and `ajax/getTable*` as our server answers them, and
 * ours (`preview`, `history`). Refusals come back as the server's translated message.
 */

type Row = Record<string, unknown>;

const CRUD = '/admin/crud.Crud/';

export interface Migration {
  steps: string[];
  destructive: string[];
}

/** A text of the design with nothing in `language`: where it sits (`["fields", "sku", "title"]`, as a locale file names it) and what shows instead. */
export interface TextGap {
  language: Language;
  at: string[];
  shown: string;
}

export interface Preview {
  schema: Row;
  definition: ResourceDefinition;
  migration: Migration;
  textGaps?: TextGap[];
  /** the recycle rule covering the module's controller now, and whether "keep deleted rows" starts ticked */
  recycle: { rule: 'enabled' | 'disabled' | 'none'; keep: boolean };
}

export interface LogEntry {
  id: number;
  table_name: string;
  /** the design's table part as generated: its titles (ours) and BuildAdmin's comment */
  table?: { title?: { 'zh-cn'?: string; en?: string }; comment?: string } | null;
  status: string;
  create_time: number | string | null;
}

/** A log entry's module as the admin names it: its title in their language (else the other, else BuildAdmin's comment), else its table. */
export function moduleTitleOf(entry: LogEntry, locale: string): string {
  const title = entry.table?.title ?? {};
  const first = locale === 'en' ? [title.en, title['zh-cn']] : [title['zh-cn'], title.en];
  return (
    [...first, entry.table?.comment].map((item) => (typeof item === 'string' ? item.trim() : '')).find(Boolean) ??
    entry.table_name
  );
}

export interface HistoryEntry {
  id: number;
  version: number;
  action: 'create' | 'update' | 'delete';
  diff: string[];
  /** what the version changed from the one before, in the admin's language */
  changes: string[];
  /** the log entry holding the design that made this version (`logStart` opens it again), null when none */
  logId: number | null;
  adminUsername: string;
  createTime: number;
}

/** A refusal's message and data (`destructive` steps, or the `table`/`controller` of a code -1). */
export function refusalOf(error: unknown): { message: string; code?: number; data?: Row } {
  if (error instanceof HttpError) {
    const body = (error.body ?? {}) as { code?: number; msg?: string; data?: Row };
    return { message: body.msg || error.message, code: body.code, data: body.data ?? undefined };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

async function data<T>(path: string, options: Parameters<typeof httpClient.request>[1] = {}): Promise<T> {
  return (await httpClient.request<T>(path, { area: 'admin', showErrorMessage: false, ...options })).data;
}

export const crudApi = {
  tables: () =>
    data<{ list: { table: string; comment: string }[] }>('/admin/ajax/getTableList').then(({ list }) => list),
  /** the tables "start from an existing table" offers: only those a module can be designed from */
  designableTables: () =>
    data<{ list: { table: string; comment: string }[] }>(`${CRUD}designableTables`).then(({ list }) => list),
  /** a table's columns by name, with their comments (a resource's: its field titles) */
  tableFields: (table: string) =>
    data<{ fieldList: Record<string, string> }>('/admin/ajax/getTableFieldList', { params: { table } }).then(
      ({ fieldList }) => fieldList,
    ),
  columns: (table: string) =>
    data<{ columns: Record<string, Row>; comment: string; empty: boolean }>(`${CRUD}parseFieldData`, {
      method: 'POST',
      data: { type: 'db', table },
    }),
  log: () =>
    data<{ list: LogEntry[] }>('/admin/crud.Log/index', { params: { limit: 100, order: 'id,desc' } }).then(
      ({ list }) => list,
    ),
  logStart: (id: number) => data<{ table: Row; fields: Row[] }>(`${CRUD}logStart`, { method: 'POST', data: { id } }),
  preview: (body: Row) => data<Preview>(`${CRUD}preview`, { method: 'POST', data: body }),
  generate: (body: Row) =>
    data<{ id: string; migration: Migration; applied: string[] }>(`${CRUD}generate`, { method: 'POST', data: body }),
  /** null when nothing is in the way, else what the server says about the table or module already there */
  generateCheck: async (table: string): Promise<string | null> => {
    try {
      await data(`${CRUD}generateCheck`, { method: 'POST', data: { table } });
      return null;
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal.code === -1) return refusal.message;
      throw error;
    }
  },
  history: (table: string, between?: [number, number]) =>
    data<{ list: HistoryEntry[]; diff?: string[]; changes?: string[] }>(`${CRUD}history`, {
      params: { table, ...(between ? { from: between[0], to: between[1] } : {}) },
    }),
  remove: (id: number, dropTable: boolean) =>
    data(`${CRUD}delete`, { method: 'POST', data: { id, dropTable: dropTable ? 1 : 0 } }),
};
