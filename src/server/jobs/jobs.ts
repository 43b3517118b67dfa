import type { JobDefinition } from '../app-context.js';
import { purgeAttempts } from '../auth/attempts.js';
import { dynamicDb } from '../db/connection.js';
import { foldRowCounts } from '../db/row-counter.js';
import { releaseDueHolds } from '../services/holds.js';
import { RANKING_MAX_AGE, refreshRankings } from '../services/member-figures.js';
import { expireParticipations } from '../services/survey/participations.js';

/**
 * The background jobs: the one table a new job is added to (docs/architecture.md#background-jobs). Each
 * runs once per slot of its schedule across all processes (`job-runner.ts`). A job is a catch-up sweep:
 * a run does whatever is due by then, so a slot that was missed or cut short is made up by the next one,
 * and a failed run is not retried.
 */
export const JOBS: readonly JobDefinition[] = [
  {
    name: 'survey-timeouts',
    title: { en: 'Expire survey attempts past their time', 'zh-cn': '结束超时的问卷作答' },
    everySeconds: 60,
    timeoutSeconds: 600,
    run: async (app) => void (await expireParticipations(app)),
  },
  {
    name: 'login-attempts',
    title: { en: 'Forget old failed logins', 'zh-cn': '清理过期的登录失败记录' },
    everySeconds: 60,
    timeoutSeconds: 300,
    run: (app) => purgeAttempts(app),
  },
  {
    name: 'row-counts',
    title: { en: 'Fold list row counts', 'zh-cn': '合并列表行数计数' },
    everySeconds: 60,
    timeoutSeconds: 300,
    run: (app) => foldRowCounts(app.handle, dynamicDb(app.db)),
  },
  {
    name: 'member-rankings',
    title: { en: 'Rebuild member rankings', 'zh-cn': '重新计算会员排行榜' },
    everySeconds: RANKING_MAX_AGE,
    timeoutSeconds: 900,
    run: (app) => refreshRankings(app),
  },
  {
    // Every minute: a member whose hold ends sees the credit within a minute, and a run that finds
    // nothing due is one indexed range read (state, release_at).
    name: 'survey-holds',
    title: { en: 'Release credits whose hold period has ended', 'zh-cn': '到期的待入账转为可用' },
    everySeconds: 60,
    timeoutSeconds: 600,
    run: async (app) => void (await releaseDueHolds(app)),
  },
];

/** The start (unix seconds) of the slot of `period` seconds that holds `seconds`. */
export function slotOf(seconds: number, period: number): number {
  return Math.floor(seconds / period) * period;
}
