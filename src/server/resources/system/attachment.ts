import type { Operator, ResourceHooks } from '../../app-context.js';
import type { Row } from '../../../schema/definition.js';
import { errors, Success } from '../../errors.js';
import { fileOfUrl, removeStorageFile } from '../../uploads/storage.js';
import { splitFileName } from '../../uploads/upload-service.js';
import { deleteRows } from '../operations/delete.js';

/**
 * Attachments (docs/wire-contract.md#attachments): rows carry the appended `suffix` and `full_url`; deleting rows deletes
 * their files and the directories left empty. Rows are created by `ajax/upload` only.
 */

/** The host the request came to (`host:port`), for protocol-relative URLs. */
function hostOf(operator: Operator): string {
  const request = operator.request;
  return request?.host || `${operator.app.settings.host}:${operator.app.settings.port}`;
}

/** A row with `suffix` (lower-case extension of its name, or `file`) and `full_url` (`//host/storage/...`). */
export function presentAttachment(row: Row, host: string): Row {
  const url = String(row.url ?? '');
  const fullUrl = url.startsWith('/') && !url.startsWith('//') ? `//${host}${url}` : url;
  return { ...row, suffix: splitFileName(String(row.name ?? '')).suffix, full_url: fullUrl };
}

export const attachmentHooks: ResourceHooks = {
  async present(operator, rows) {
    const host = hostOf(operator);
    return rows.map((row) => presentAttachment(row, host));
  },

  async afterDelete(operator, remove) {
    const urls = [...new Set(remove.rows.map((row) => String(row.url ?? '')).filter(Boolean))];
    if (urls.length === 0) return;
    // A file another row still points to stays.
    const kept = await remove.trx.selectFrom('attachment').select('url').where('url', 'in', urls).execute();
    const keptUrls = new Set(kept.map((row) => row.url));
    for (const url of urls) {
      if (keptUrls.has(url)) continue;
      const file = fileOfUrl(operator.app.settings.storageDir, url);
      if (file) await removeStorageFile(operator.app.settings.storageDir, file);
    }
  },

  actions: {
    async del(ctx) {
      if (ctx.method !== 'DELETE') throw errors.parameterError();
      const definition = ctx.controller.resource;
      if (!definition) throw errors.parameterError();
      const count = await deleteRows(ctx, definition, attachmentHooks, ctx.query.ids);
      if (count === 0) throw errors.noRowsDeleted();
      return new Success(null, '%d records and files have been deleted', [count]);
    },
  },
};
