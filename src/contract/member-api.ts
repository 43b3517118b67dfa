import type { OutcomePage } from './outcomes.js';
import type { ValueTags } from './value-tags.js';
import type { SurveyParticipationRow, SurveyQuickTaskRow, SurveyQuickTaskSubmissionRow, SurveySurveyRow, SurveyWallTransactionRow, UserPayoutRow } from '../generated/resources.js';

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
export type SurveyTask = Required<Pick<SurveySurveyRow, 'id' | 'title' | 'description' | 'reward_money' | 'reward_score' | 'loi_minutes' | 'end_time'>>;

/** `POST /api/survey/start {id}` answers the provider's entry URL with our rid. */
export interface SurveyStartRequest {
  id: number;
}
export interface SurveyStartAnswer {
  url: string;
}

/** The outcome pages a provider sends the member back to (contract/outcomes.ts). */
export type { OutcomePage };

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

/** One attempt of `GET /api/survey/records` (paged): the attempt's columns, with its survey's title. */
export type SurveyRecord = Required<
  Pick<SurveyParticipationRow, 'id' | 'survey_id' | 'status' | 'credit_state' | 'reward_money' | 'reward_score' | 'credited_money' | 'credited_score' | 'enter_time' | 'finish_time'>
> & {
  title: string;
  /** why reconciliation last changed it, in the reader's language: the administrator's words, or a provider's reversal reason with its own words beside it; '' when never */
  reason: string;
};

export type SubmissionStatus = NonNullable<SurveyQuickTaskSubmissionRow['status']>;

/** One task of `GET /api/survey/quickTasks` (`{list}`), with the member's latest submission. */
export type QuickTask = Required<Pick<SurveyQuickTaskRow, 'id' | 'title' | 'description' | 'reward_money' | 'reward_score' | 'review'>> & {
  /** the fields, as a JSON schema of our schema keywords */
  form: { type: 'object'; required?: string[]; properties: Record<string, Record<string, unknown>> };
  my_status: SubmissionStatus | null;
  my_reason: string;
};

/** `POST /api/survey/quickTaskSubmit`: the answers by field name. */
export interface QuickTaskSubmitRequest {
  id: number;
  answers: Record<string, unknown>;
}
export interface QuickTaskSubmitAnswer {
  id: number;
  status: SubmissionStatus;
}

/** One submission of `GET /api/survey/quickTaskRecords` (paged): the submission's columns, with its task's title. */
export type QuickTaskRecord = Required<Pick<SurveyQuickTaskSubmissionRow, 'id' | 'task_id' | 'status' | 'reason' | 'reward_money' | 'reward_score' | 'create_time' | 'review_time'>> & { title: string };

// ---- /api/account/* ------------------------------------------------------------------------------

/**
 * `GET /api/account/balance` or `/api/account/integral`: a page of the ledger, and the member's balance
 * (yuan string) or points as they stand at that read, so the page shows the figure the entries lead to.
 */
export interface LedgerPage extends Paged<LedgerRow> {
  current: string | number;
}

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

/**
 * `GET /api/account/pointsExchange`: the exchange of points for balance as the operator set it, and where the
 * member stands (docs/survey-domain.md#points-exchange).
 */
export interface PointsExchangeState {
  /** false: the operator has not opened the exchange; the points page says what points are for instead */
  enabled: boolean;
  /** points for ¥1.00 */
  rate: number;
  /** the least points of one exchange */
  minimum: number;
  /** every exchange is a multiple of these points (the fewest that make whole cents) */
  step: number;
  /** the most points a member exchanges a day of the site's calendar; 0: no limit */
  daily_limit: number;
  /** points exchanged today */
  today: number;
  /** points still allowed today; null without a daily limit */
  remaining: number | null;
  /** the member's points and balance (yuan) */
  score: number;
  money: string;
}

/** `POST /api/account/exchangePoints {points, request_id}`: `request_id` is made once per exchange by the form. */
export interface PointsExchangeRequest {
  points: number | string;
  request_id: string;
}

/** The member's points and balance after the exchange, what it took and gave; `applied: false` for a repeated request. */
export interface PointsExchangeAnswer {
  score: number;
  money: string;
  points: number;
  /** yuan */
  amount: string;
  applied: boolean;
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
  /** yuan: the balance left once the amount is frozen, to show at once */
  balance: string;
}

/** One payout of `GET /api/account/paymentlog` (paged). */
export type PayoutRecord = Required<Pick<UserPayoutRow, 'id' | 'amount' | 'method' | 'status' | 'reason' | 'reference' | 'create_time' | 'paid_time'>> & {
  /** masked */
  account: string;
};

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
export type WallRecord = Required<Pick<SurveyWallTransactionRow, 'id' | 'transaction_id' | 'unit' | 'money' | 'score' | 'create_time' | 'credit_time' | 'reverse_time'>> & {
  /** the wall's name */
  provider: string;
  state: Exclude<NonNullable<SurveyWallTransactionRow['state']>, 'test'>;
  /** why it was refused or reversed, in the reader's language, with the provider's own words when it sent some; '' for none */
  reason: string;
};

// ---- /api/team.team/* ------------------------------------------------------------------------------

/** Team figures cover the last `days` days of the site's calendar; 0: since the team began. */
export const TEAM_PERIODS = [7, 30, 0] as const;
export type TeamPeriod = (typeof TEAM_PERIODS)[number];

/** `GET /api/team.team/mine`: where the member stands, for the team page. */
export interface TeamState {
  /** the operator lets a member in no team create one (config `team_member_create`) */
  can_create: boolean;
  /** the member's team, or null */
  team: {
    id: number;
    name: string;
    /** the leader's nickname (or username); null while the team has none */
    leader: string | null;
    members: number;
    is_leader: boolean;
  } | null;
}

/** `GET /api/team.team/invitation?code`: the team a code invites to, before the member accepts. */
export interface TeamInvitation {
  code: string;
  team: { name: string; leader: string | null; members: number };
  /** the member's own team, when they are in one: they leave it before accepting */
  current_team: string | null;
}

/** The leader's invitation: the code and until when it works (Unix seconds); both null once revoked. */
export interface TeamInvite {
  invite_code: string | null;
  invite_expire_time: number | null;
}

/** `GET /api/team.team/getTeamList?page&limit&keyword&days`: the leader's team, its invitation and members. */
export interface TeamOverview extends Paged<TeamMemberRow> {
  team: TeamInvite & {
    id: number;
    name: string;
    commission_rate_bp: number;
    days: TeamPeriod;
    /** yuan: the commission on every member's earnings in the period */
    commission: string;
  };
}

export interface TeamMemberRow {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  money: string;
  /** completes in the period */
  completes: number;
  /** yuan credited by surveys in the period */
  earnings: string;
  /** yuan: the team's rate on `earnings`, rounded down to the cent; 0.00 on the leader's own row */
  commission: string;
  is_leader: boolean;
  join_time: number;
  last_login_time: number;
  /** the later of the last sign-in and the last survey started, Unix seconds; 0: never */
  last_active_time: number;
}
