/**
 * Request and answer of `survey.Participation/reconcile` (docs/survey-domain.md#reconciliation): the
 * server's action returns these types and the back office's reconcile dialog reads them. Money here is
 * integer cents (`money_cents`), so sums stay exact; the dialog formats it as currency.
 */

/**
 * - `reverse`: the listed completes are reversed (their reward debited back);
 * - `approve`: the listed terminates, timeouts and held completes become credited completes;
 * - `complete_only`: the listed are the completes of one survey: listed terminates and timeouts become
 *   complete, listed completes stay, and every other complete of that survey is reversed.
 */
export type ReconcileMode = 'reverse' | 'approve' | 'complete_only';

export const RECONCILE_MODES: readonly ReconcileMode[] = ['reverse', 'approve', 'complete_only'];

export interface ReconcileRequest {
  mode: ReconcileMode;
  /** the survey the ids belong to; required by `complete_only`, optional otherwise (then every survey) */
  survey_id?: number | null;
  /** pasted ids: a list, or text with one id a line (or separated by commas, semicolons or spaces) */
  rids?: string | string[];
  /** the text of an uploaded CSV file: one id a line, or a header row naming the id column */
  file?: string;
  /** shown to the member with the change, and kept in each change's event */
  reason: string;
  dryRun: boolean;
  /** the administrator's confirmation that approvals on a full survey raise its quota */
  raiseQuota?: boolean;
  /** the dry run's `plan`: applying refuses, changing nothing, when the records no longer give the same plan */
  plan?: string;
}

/** What happens to one participation. */
export type ReconcileOutcome = 'complete' | 'reversed' | 'unchanged' | 'refused';

export interface ReconcileRow {
  /** the id as listed; '' for a complete of the survey the list left out (`complete_only`) */
  id: string;
  /** how the id was matched: as our rid, or as the provider's transaction id */
  matched: 'rid' | 'provider_txid' | '';
  rid: string;
  participation_id: number | null;
  user_id: number | null;
  from: string;
  to: string;
  credit: string;
  outcome: ReconcileOutcome;
  /** false when refused */
  ok: boolean;
  /** refused because its survey's quota is full: confirming the raise would accept it */
  quota_full: boolean;
  /** the member's balance change in cents, and points change */
  money_cents: number;
  score: number;
  /** what the member's pending credits (held for the hold period, not yet available) change by */
  pending_money_cents: number;
  pending_score: number;
  /** the change by the statuses' labels, in the reader's language (the current status when refused) */
  change: string;
  /** why it is refused, or the quota a confirmed approval raises */
  message: string;
}

/** One member's total change. */
export interface ReconcileMember {
  user_id: number;
  username: string;
  money_cents: number;
  score: number;
  /** what lands as pending (held for the hold period) rather than available; negative for pending credits a reversal cancels */
  pending_money_cents: number;
  pending_score: number;
}

export interface ReconcileAnswer {
  dryRun: boolean;
  mode: ReconcileMode;
  survey_id: number | null;
  /** how many distinct ids were read, and the header of the file's column they came from ('' without one) */
  listed: { ids: number; column: string };
  /** how many participations change */
  applied: number;
  refused: number;
  counts: Record<ReconcileOutcome, number>;
  /** the refusals grouped by their reason, most frequent first */
  refusals: { message: string; count: number }[];
  members: ReconcileMember[];
  totals: { money_cents: number; score: number; pending_money_cents: number; pending_score: number };
  /** how many changes credit as pending (an approval on a survey with a hold period) rather than available */
  held: number;
  rows: ReconcileRow[];
  /** identifies this plan: send it back to apply exactly what the dry run showed */
  plan: string;
}
