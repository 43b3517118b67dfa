import { httpClient } from '../../../http/index.js';
import { refusalOf } from '../crud/crud-api.js';
import type { ModuleInfo } from './module-model.js';

/**
 * The store's calls, as BuildAdmin's module screen makes them (`module/*` of the back office, and
 * `ajax/upload` for the zip). Every refusal comes back as the server's translated message with its code
 * and data (the conflict list of a code -1), never as a toast: the dialogs show it.
 */

const MODULE = '/admin/module/';

type Options = Parameters<typeof httpClient.request>[1];

async function data<T>(path: string, options: Options = {}): Promise<T> {
  return (await httpClient.request<T>(path, { area: 'admin', showErrorMessage: false, ...options })).data;
}

export { refusalOf };

export interface InstallPreview {
  migration: { steps: string[]; destructive: string[] };
  conflicts: unknown[];
  /** uids of required modules not installed and enabled */
  missing: string[];
  /** why the module's schemas cannot be read, when they cannot */
  problem: string;
}

export const storeApi = {
  /** the catalogue and uploaded modules with their states */
  list: () => data<{ sysVersion?: string; installed?: ModuleInfo[] }>(`${MODULE}index`).then(({ installed }) => (Array.isArray(installed) ? installed : [])),
  /** ours: what installing would do — the database changes, the clashes, the modules it still needs — nothing applied */
  preview: (uid: string) => data<InstallPreview>(`${MODULE}preview`, { params: { uid } }),
  state: (uid: string) => data<{ state: number }>(`${MODULE}state`, { params: { uid } }).then(({ state }) => state),
  /** the zip to `ajax/upload` (progress in percent), then `module/upload?file=<url>`: the module, waiting to install */
  upload: async (file: File, onProgress: (percent: number) => void): Promise<ModuleInfo> => {
    const form = new FormData();
    form.append('file', file, file.name);
    const stored = await data<{ file: { url: string } }>('/admin/ajax/upload', { method: 'POST', data: form, upload: true, onProgress });
    return (await data<{ info: ModuleInfo }>(`${MODULE}upload`, { method: 'POST', params: { file: stored.file.url } })).info;
  },
  /** `extend` carries the admin's answers: `confirm` to a data-losing upgrade */
  install: (uid: string, extend: Record<string, unknown> = {}) => data(`${MODULE}install`, { method: 'POST', params: { uid }, data: { extend } }),
  changeState: (uid: string, enabled: boolean) => data(`${MODULE}changeState`, { method: 'POST', data: { uid, state: enabled ? 1 : 0 } }),
  /** `dropData`: the module's tables go too, rows and all */
  uninstall: (uid: string, dropData: boolean) => data(`${MODULE}uninstall`, { method: 'POST', params: { uid, ...(dropData ? { dropData: 1 } : {}) } }),
};
