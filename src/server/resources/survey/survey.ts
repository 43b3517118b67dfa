import type { ResourceHooks } from '../../app-context.js';
import { errors } from '../../errors.js';

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `survey.Survey`: the entry URL carries our rid (and the member id only when asked); dates in order. */
export const surveyHooks: ResourceHooks = {
  async present(_operator, rows) {
    return rows.map((row) => {
      const starts = Number(row.starts ?? 0);
      const conversion = starts > 0 ? `${((Number(row.completes ?? 0) / starts) * 100).toFixed(1)}%` : '-';
      return { ...row, conversion };
    });
  },
  async beforeWrite(_operator, write) {
    const { values, existing } = write;
    const entryUrl = String(values.entry_url ?? existing?.entry_url ?? '');
    const sendUid = values.send_uid ?? Boolean(Number(existing?.send_uid ?? 0));
    if ('entry_url' in values) {
      if (!isWebAddress(entryUrl.replaceAll('{rid}', 'rid').replaceAll('{uid}', 'uid'))) throw errors.entryUrlInvalid();
      if (!entryUrl.includes('{rid}')) throw errors.entryUrlNeedsRid();
    }
    if (entryUrl.includes('{uid}') && !sendUid) throw errors.entryUrlUidNotAllowed();
    const start = values.start_time !== undefined ? values.start_time : existing?.start_time;
    const end = values.end_time !== undefined ? values.end_time : existing?.end_time;
    if (start && end && Number(end) <= Number(start)) throw errors.surveyEndsBeforeStart();
  },
};
