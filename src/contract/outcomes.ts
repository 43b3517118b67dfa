import { isOneOf } from './checks.js';

/**
 * How an attempt at a survey ends (docs/survey-domain.md#participation-statuses): the one home of its
 * outcomes, what each pays, the survey counter that counts it, and for those a provider reports, the
 * outcome page it sends the browser to. The server's types and checks, the provider's exit map, the
 * outcome pages and their routes are derived from here. The schemas' enums (JSON, which cannot import
 * this) are checked equal to these lists, and every outcome's labels present in both locales, by
 * tests/unit/schema/outcome-names.test.ts; a label is read by the outcome's own name as its key
 * (`survey.status.<status>`, `survey.outcome.<page>.title`, `survey.outcome.headline.<status>`).
 */

/** The final statuses of an attempt, in the order lists and counters show them. */
export const FINAL_STATUSES = ['complete', 'terminate', 'overquota', 'security', 'timeout'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

/** The final statuses a provider can report (the exit map's outcomes): a timeout is ours, never reported. */
export const REPORTED_STATUSES = ['complete', 'terminate', 'overquota', 'security'] as const satisfies readonly FinalStatus[];
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];

/**
 * What a final status credits through the ledger (docs/survey-domain.md#ledgers): the reward snapshot
 * taken at the start, the survey's consolation (a screen-out, a full survey), or nothing.
 */
export const OUTCOME_CREDIT = {
  complete: 'reward', terminate: 'consolation', overquota: 'consolation', security: 'none', timeout: 'none',
} as const satisfies Record<FinalStatus, 'reward' | 'consolation' | 'none'>;

/** The final statuses that credit something: the attempts a member's earnings and rankings count. */
export const PAID_STATUSES: readonly FinalStatus[] = FINAL_STATUSES.filter((status) => OUTCOME_CREDIT[status] !== 'none');

/** The survey's counter column of each final status (`schemas/survey/survey.json`). */
export const OUTCOME_COUNTER = {
  complete: 'completes', terminate: 'terminates', overquota: 'overquotas', security: 'securities', timeout: 'timeouts',
} as const satisfies Record<FinalStatus, string>;

/** Each reported status's outcome page: the site's path (`/success` …) a provider sends the browser to with it. */
export const OUTCOME_PAGE_OF = {
  complete: 'success', terminate: 'terminate', overquota: 'overquota', security: 'security',
} as const satisfies Record<ReportedStatus, string>;
export type OutcomePage = (typeof OUTCOME_PAGE_OF)[ReportedStatus];

/** The outcome pages, in the order of `REPORTED_STATUSES`. */
export const OUTCOME_PAGES: readonly OutcomePage[] = REPORTED_STATUSES.map((status) => OUTCOME_PAGE_OF[status]);

export function isFinalStatus(value: unknown): value is FinalStatus {
  return isOneOf(FINAL_STATUSES, value);
}

export function isReportedStatus(value: unknown): value is ReportedStatus {
  return isOneOf(REPORTED_STATUSES, value);
}

export function isOutcomePage(value: unknown): value is OutcomePage {
  return isOneOf(OUTCOME_PAGES, value);
}

/** The status an outcome page reports; undefined for anything that is not one. */
export function statusOfPage(page: unknown): ReportedStatus | undefined {
  return REPORTED_STATUSES.find((status) => OUTCOME_PAGE_OF[status] === page);
}
