import { HttpError } from 'react-admin';
import type { ResourceDefinition } from '../../../../schema/definition.js';
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

interface Preview {
  schema: Row;
  definition: ResourceDefinition;
  migration: Migration;
}

export interface LogEntry {
  id: number;
  table_name: string;
  status: string;
  create_time: number | string | null;
}

export interface HistoryEntry {
  id: number;
  version: number;
  action: 'create' | 'update' | 'delete';
  diff: string[];
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
  tables: () => data<{ list: { table: string; comment: string }[] }>('/admin/ajax/getTableList').then(({ list }) => list),
  /** a table's columns by name, with their comments (a resource's: its field titles) */
  tableFields: (table: string) => data<{ fieldList: Record<string, string> }>('/admin/ajax/getTableFieldList', { params: { table } }).then(({ fieldList }) => fieldList),
  columns: (table: string) => data<{ columns: Record<string, Row>; comment: string; empty: boolean }>(`${CRUD}parseFieldData`, { method: 'POST', data: { type: 'db', table } }),
  log: () => data<{ list: LogEntry[] }>('/admin/crud.Log/index', { params: { limit: 100, order: 'id,desc' } }).then(({ list }) => list),
  logStart: (id: number) => data<{ table: Row; fields: Row[] }>(`${CRUD}logStart`, { method: 'POST', data: { id } }),
  preview: (body: Row) => data<Preview>(`${CRUD}preview`, { method: 'POST', data: body }),
  generate: (body: Row) => data<{ id: string; migration: Migration; applied: string[] }>(`${CRUD}generate`, { method: 'POST', data: body }),
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
    data<{ list: HistoryEntry[]; diff?: string[] }>(`${CRUD}history`, { params: { table, ...(between ? { from: between[0], to: between[1] } : {}) } }),
  remove: (id: number, dropTable: boolean) => data(`${CRUD}delete`, { method: 'POST', data: { id, dropTable: dropTable ? 1 : 0 } }),
};
