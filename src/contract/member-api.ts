import type { ValueTags } from './value-tags.js';
import type { SurveyParticipationRow, SurveyQuickTaskRow, SurveyQuickTaskSubmissionRow, SurveyWallTransactionRow, UserPayoutRow } from '../generated/resources.js';

/**
 * Requests and answers of the member API's hand-written endpoints (`/api/survey/*`, `/api/account/*`,
 * `/api/paymentuser/*`): the server's controllers return these types and the member centre's API modules
 * read them, so a change on one side fails the type check on the other. Amounts are yuan strings
 * (`"12.50"`), times Unix seconds; enum values come from the schemas' row types.
 */

/** `{list, total}` of a paged list (`?page&limit`). */
export interface Paged<T> {
  list: T[];
  total: number;
}

/** A page of the member's records, with the labels and chip colours of their enum values. */
export interface TaggedPage<T> extends Paged<T> {
  tags: ValueTags;
}

// ---- /api/survey/* -------------------------------------------------------------------------------

type ParticipationStatus = NonNullable<SurveyParticipationRow['status']>;
type CreditState = NonNullable<SurveyParticipationRow['credit_state']>;

/** One survey of `GET /api/survey/tasks` (`{list}`): open to the member now. */
export interface SurveyTask {
  id: number;
  title: string;
  description: string;
  reward_money: string;
  reward_score: number;
  loi_minutes: number;
  end_time: number | null;
}

/** `POST /api/survey/start {id}` answers the provider's entry URL with our rid. */
export interface SurveyStartRequest {
  id: number;
}
export interface SurveyStartAnswer {
  url: string;
}

/** The outcome pages a provider sends the member back to. */
export type OutcomePage = 'success' | 'terminate' | 'overquota' | 'security';

/** `POST /api/survey/outcome`: the page the member landed on and its query string as received. */
export interface OutcomeRequest {
  outcome: OutcomePage;
  query: string;
}

/** What `POST /api/survey/outcome` recorded. */
export interface OutcomeReport {
  status: ParticipationStatus;
  already_recorded: boolean;
  survey: { id: number; title: string };
  credit_state: CreditState;
  credited: { money: string; score: number };
  /** when what was credited becomes available (Unix seconds), when the provider holds it for a period */
  available_at?: number;
  /** why nothing (or only a consolation) was credited, translated; '' for a credited complete */
  reason: string;
  /** the member's balance after this return, when they are logged in in this browser */
  balance?: { money: string; score: number };
}

/** One attempt of `GET /api/survey/records` (paged). */
export interface SurveyRecord {
  id: number;
  survey_id: number;
  title: string;
  status: ParticipationStatus;
  credit_state: CreditState;
  reward_money: string;
  reward_score: number;
  credited_money: string;
  credited_score: number;
  enter_time: number;
  finish_time: number | null;
  /** why an administrator last changed it in reconciliation (their words), '' when never */
  reason: string;
}

export type SubmissionStatus = NonNullable<SurveyQuickTaskSubmissionRow['status']>;

/** One task of `GET /api/survey/quickTasks` (`{list}`), with the member's latest submission. */
export interface QuickTask {
  id: number;
  title: string;
  description: string;
  /** the fields, as a JSON schema of our schema keywords */
  form: { type: 'object'; required?: string[]; properties: Record<string, Record<string, unknown>> };
  reward_money: string;
  reward_score: number;
  review: NonNullable<SurveyQuickTaskRow['review']>;
  my_status: SubmissionStatus | null;
  my_reason: string;
}

/** `POST /api/survey/quickTaskSubmit`: the answers by field name. */
export interface QuickTaskSubmitRequest {
  id: number;
  answers: Record<string, unknown>;
}
export interface QuickTaskSubmitAnswer {
  id: number;
  status: SubmissionStatus;
}

/** One submission of `GET /api/survey/quickTaskRecords` (paged). */
export interface QuickTaskRecord {
  id: number;
  task_id: number;
  title: string;
  status: SubmissionStatus;
  reason: string;
  reward_money: string;
  reward_score: number;
  create_time: number;
  review_time: number | null;
}

// ---- /api/account/* ------------------------------------------------------------------------------

/** One entry of `GET /api/account/balance` (`money`, yuan) or `/api/account/integral` (`score`), paged. */
export interface LedgerRow {
  id: number;
  money?: string;
  score?: number;
  /** yuan string for balance, integer for points */
  before: string | number;
  after: string | number;
  memo: string;
  create_time: number | null;
}

/**
 * One credit of `GET /api/account/pendingCredits` (paged, the soonest available first): held for the
 * provider's hold period, not yet in the balance or points (docs/survey-domain.md#hold-period).
 */
export interface PendingCredit {
  id: number;
  kind: 'money' | 'score';
  /** yuan, for a credit of the balance */
  money?: string;
  /** for a credit of points */
  score?: number;
  /** when it becomes available, Unix seconds */
  release_at: number;
  memo: string;
  create_time: number | null;
}

/** The page of pending credits, with what is pending in all: money in yuan, points. */
export interface PendingCredits extends Paged<PendingCredit> {
  money: string;
  score: number;
}

// ---- /api/paymentuser/*, /api/account/paymentlog ---------------------------------------------------

export type PaymentMethod = NonNullable<UserPayoutRow['method']>;

/** The member's saved payment details, account numbers masked. */
export interface PaymentDetails {
  payment: PaymentMethod | '';
  bank: string;
  bank_name: string;
  bank_address: string;
  /** masked */
  bank_num: string;
  zhifubao_name: string;
  /** masked */
  zhifubao: string;
}

/** What the payouts page starts from (`GET /api/paymentuser/payment`). */
export interface WalletState {
  /** saved as they are shown: account numbers masked, sent back unchanged they keep the saved number */
  details: PaymentDetails;
  /** yuan strings: the balance a payout draws on, the least one may ask */
  balance: string;
  minimum: string;
  /** yuan: credits still held for a hold period, not in the balance and not to be paid out yet */
  pending: string;
  /** each method's fields, all required */
  fields: Readonly<Record<PaymentMethod, readonly string[]>>;
}

/** `POST /api/paymentuser/payout {amount}` (yuan) answers the new payout's id. */
export interface PayoutRequest {
  amount: string;
}
export interface PayoutAnswer {
  id: number;
}

/** One payout of `GET /api/account/paymentlog` (paged). */
export interface PayoutRecord {
  id: number;
  amount: string;
  method: PaymentMethod;
  status: NonNullable<UserPayoutRow['status']>;
  reason: string;
  reference: string;
  /** masked */
  account: string;
  create_time: number;
  paid_time: number | null;
}

// ---- /api/survey/walls, /api/survey/wall, /api/survey/wallRecords ----------------------------------

/** One survey wall of `GET /api/survey/walls` (`{list}`): a "more surveys" entry of the member centre. */
export interface WallEntry {
  /** the provider's code: `GET /api/survey/wall?provider=<code>` */
  code: string;
  name: string;
}

/** `GET /api/survey/wall?provider=<code>`: the wall's address for this member, to navigate to. */
export interface WallUrlAnswer {
  url: string;
}

/** One wall transaction of `GET /api/survey/wallRecords` (paged): a credit, a reversal or a refusal. */
export interface WallRecord {
  id: number;
  /** the wall's name */
  provider: string;
  transaction_id: string;
  state: Exclude<NonNullable<SurveyWallTransactionRow['state']>, 'test'>;
  unit: NonNullable<SurveyWallTransactionRow['unit']>;
  /** yuan, for a balance wall */
  money: string;
  /** for a points wall */
  score: number;
  create_time: number;
  credit_time: number | null;
  reverse_time: number | null;
}
