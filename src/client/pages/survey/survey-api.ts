import { httpClient, type HttpClient } from '../../http/index.js';

/** The member's survey calls (`/api/survey/*`), shared by the survey pages and the member centre. */

export interface SurveyTask {
  id: number;
  title: string;
  description: string;
  reward_money: string;
  reward_score: number;
  loi_minutes: number;
  end_time: number | null;
}

export type OutcomePage = 'success' | 'terminate' | 'overquota' | 'security';

export interface OutcomeReport {
  status: string;
  already_recorded: boolean;
  survey: { id: number; title: string };
  credit_state: 'none' | 'held' | 'credited' | 'reversed';
  credited: { money: string; score: number };
  /** why nothing (or only a consolation) was credited, translated; '' for a credited complete */
  reason: string;
  /** the member's balance after this return, when they are logged in in this browser */
  balance?: { money: string; score: number };
}

export interface SurveyRecord {
  id: number;
  survey_id: number;
  title: string;
  status: string;
  credit_state: string;
  reward_money: string;
  reward_score: number;
  credited_money: string;
  credited_score: number;
  enter_time: number;
  finish_time: number | null;
}

export interface SurveyApi {
  tasks(): Promise<SurveyTask[]>;
  /** the provider's entry URL with our rid */
  start(id: number): Promise<string>;
  outcome(page: OutcomePage, query: string): Promise<OutcomeReport>;
  records(page: number, limit: number): Promise<{ list: SurveyRecord[]; total: number }>;
}

export function createSurveyApi(client: HttpClient = httpClient): SurveyApi {
  // Failures are shown on the page itself, not as toasts.
  const quiet = { area: 'user' as const, showErrorMessage: false };
  return {
    async tasks() {
      return (await client.request<{ list: SurveyTask[] }>('/api/survey/tasks', quiet)).data.list;
    },
    async start(id) {
      return (await client.request<{ url: string }>('/api/survey/start', { ...quiet, method: 'POST', data: { id } })).data.url;
    },
    async outcome(page, query) {
      return (await client.request<OutcomeReport>('/api/survey/outcome', { ...quiet, method: 'POST', data: { outcome: page, query } })).data;
    },
    async records(page, limit) {
      return (await client.request<{ list: SurveyRecord[]; total: number }>('/api/survey/records', { ...quiet, params: { page, limit } })).data;
    },
  };
}

export const surveyApi: SurveyApi = createSurveyApi();

/** The server's message of a failed call (react-admin `HttpError` carrying the envelope). */
export function messageOf(error: unknown): string {
  const body = (error as { body?: { msg?: unknown } }).body;
  if (body && typeof body.msg === 'string' && body.msg) return body.msg;
  return error instanceof Error ? error.message : String(error);
}
