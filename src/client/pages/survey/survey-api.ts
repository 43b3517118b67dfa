import { uploadMemberFile } from '../../member/account-api.js';
import type {
  OutcomePage, OutcomeReport, OutcomeRequest, QuickTask, QuickTaskRecord, QuickTaskSubmitAnswer, QuickTaskSubmitRequest, SubmissionStatus,
  SurveyRecord, SurveyStartAnswer, SurveyStartRequest, SurveyTask, TaggedPage, WallEntry, WallRecord, WallUrlAnswer,
} from '../../../contract/member-api.js';
import { httpClient, type HttpClient } from '../../http/index.js';

/** The member's survey calls (`/api/survey/*`), shared by the survey pages and the member centre. */

export type { OutcomePage, OutcomeReport, QuickTask, QuickTaskRecord, SubmissionStatus, SurveyRecord, SurveyTask, TaggedPage, WallEntry, WallRecord } from '../../../contract/member-api.js';

export interface SurveyApi {
  tasks(): Promise<SurveyTask[]>;
  /** the provider's entry URL with our rid */
  start(id: number): Promise<string>;
  outcome(page: OutcomePage, query: string): Promise<OutcomeReport>;
  records(page: number, limit: number): Promise<TaggedPage<SurveyRecord>>;
  quickTasks(): Promise<QuickTask[]>;
  /** answers the status the submission got and the server's message */
  submitQuickTask(id: number, answers: Record<string, unknown>): Promise<{ status: SubmissionStatus; message: string }>;
  quickTaskRecords(page: number, limit: number): Promise<TaggedPage<QuickTaskRecord>>;
  /** uploads an image as the member; answers its stored URL */
  uploadImage(file: File): Promise<string>;
  /** the site's time zone (member bootstrap), for pages shown outside the member centre */
  siteTimeZone(): Promise<string | undefined>;
  /** the survey walls the member may open ("more surveys") */
  walls(): Promise<WallEntry[]>;
  /** the address of the wall `code` for this member, to navigate to */
  wallUrl(code: string): Promise<string>;
  wallRecords(page: number, limit: number): Promise<TaggedPage<WallRecord>>;
}

export function createSurveyApi(client: HttpClient = httpClient): SurveyApi {
  // Failures are shown on the page itself, not as toasts.
  const quiet = { area: 'user' as const, showErrorMessage: false };
  return {
    async tasks() {
      return (await client.request<{ list: SurveyTask[] }>('/api/survey/tasks', quiet)).data.list;
    },
    async start(id) {
      const data: SurveyStartRequest = { id };
      return (await client.request<SurveyStartAnswer>('/api/survey/start', { ...quiet, method: 'POST', data })).data.url;
    },
    async outcome(page, query) {
      const data: OutcomeRequest = { outcome: page, query };
      return (await client.request<OutcomeReport>('/api/survey/outcome', { ...quiet, method: 'POST', data })).data;
    },
    async records(page, limit) {
      return (await client.request<TaggedPage<SurveyRecord>>('/api/survey/records', { ...quiet, params: { page, limit } })).data;
    },
    async quickTasks() {
      return (await client.request<{ list: QuickTask[] }>('/api/survey/quickTasks', quiet)).data.list;
    },
    async submitQuickTask(id, answers) {
      const data: QuickTaskSubmitRequest = { id, answers };
      const envelope = await client.request<QuickTaskSubmitAnswer>('/api/survey/quickTaskSubmit', { ...quiet, method: 'POST', data });
      return { status: envelope.data.status, message: envelope.msg };
    },
    async siteTimeZone() {
      return (await client.request<{ site?: { timeZone?: string } }>('/api/index/index', quiet)).data.site?.timeZone;
    },
    async quickTaskRecords(page, limit) {
      return (await client.request<TaggedPage<QuickTaskRecord>>('/api/survey/quickTaskRecords', { ...quiet, params: { page, limit } })).data;
    },
    uploadImage: (file) => uploadMemberFile(client, file),
    async walls() {
      return (await client.request<{ list: WallEntry[] }>('/api/survey/walls', quiet)).data.list;
    },
    async wallUrl(code) {
      return (await client.request<WallUrlAnswer>('/api/survey/wall', { ...quiet, params: { provider: code } })).data.url;
    },
    async wallRecords(page, limit) {
      return (await client.request<TaggedPage<WallRecord>>('/api/survey/wallRecords', { ...quiet, params: { page, limit } })).data;
    },
  };
}

export const surveyApi: SurveyApi = createSurveyApi();
