import { uploadMemberFile } from '../../member/account-api.js';
import { httpClient, type HttpClient } from '../../http/index.js';
import type { ValueTags } from '../../components/ValueChip.js';

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

/** One page of the member's records, with the labels of their enum values. */
export interface RecordPage<T> {
  list: T[];
  total: number;
  tags: ValueTags;
}

export type SubmissionStatus = 'pending' | 'approved' | 'rejected';

export interface QuickTask {
  id: number;
  title: string;
  description: string;
  /** the fields, as a JSON schema of our schema keywords */
  form: { type: 'object'; required?: string[]; properties: Record<string, Record<string, unknown>> };
  reward_money: string;
  reward_score: number;
  review: 'manual' | 'auto';
  my_status: SubmissionStatus | null;
  my_reason: string;
}

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

export interface SurveyApi {
  tasks(): Promise<SurveyTask[]>;
  /** the provider's entry URL with our rid */
  start(id: number): Promise<string>;
  outcome(page: OutcomePage, query: string): Promise<OutcomeReport>;
  records(page: number, limit: number): Promise<RecordPage<SurveyRecord>>;
  quickTasks(): Promise<QuickTask[]>;
  /** answers the status the submission got and the server's message */
  submitQuickTask(id: number, answers: Record<string, unknown>): Promise<{ status: SubmissionStatus; message: string }>;
  quickTaskRecords(page: number, limit: number): Promise<RecordPage<QuickTaskRecord>>;
  /** uploads an image as the member; answers its stored URL */
  uploadImage(file: File): Promise<string>;
  /** the site's time zone (member bootstrap), for pages shown outside the member centre */
  siteTimeZone(): Promise<string | undefined>;
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
      return (await client.request<RecordPage<SurveyRecord>>('/api/survey/records', { ...quiet, params: { page, limit } })).data;
    },
    async quickTasks() {
      return (await client.request<{ list: QuickTask[] }>('/api/survey/quickTasks', quiet)).data.list;
    },
    async submitQuickTask(id, answers) {
      const envelope = await client.request<{ status: SubmissionStatus }>('/api/survey/quickTaskSubmit', { ...quiet, method: 'POST', data: { id, answers } });
      return { status: envelope.data.status, message: envelope.msg };
    },
    async siteTimeZone() {
      return (await client.request<{ site?: { timeZone?: string } }>('/api/index/index', quiet)).data.site?.timeZone;
    },
    async quickTaskRecords(page, limit) {
      return (await client.request<RecordPage<QuickTaskRecord>>('/api/survey/quickTaskRecords', { ...quiet, params: { page, limit } })).data;
    },
    uploadImage: (file) => uploadMemberFile(client, file),
  };
}

export const surveyApi: SurveyApi = createSurveyApi();
