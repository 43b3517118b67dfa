import type { AppContext } from '../../app-context.js';
import type { Db, StoredRow } from '../../db/connection.js';
import { fromJson } from '../../db/values.js';
import { errors } from '../../errors.js';
import { AddressList } from '../../address-list.js';
import { finishParticipation, findParticipationByRid, isReportedStatus, recordForgedReturn, type FinishResult, type ReportedStatus, type SurveyRow } from './participations.js';
import { verifySignature } from './signature.js';

/**
 * A provider reports how an attempt ended: the browser lands on an outcome page (`/success` …) or the
 * provider calls us server to server. Either way: find the rid, check the signature, record the first
 * final status, credit through the ledger.
 */

/** Outcome pages of the site and the status each one reports (docs/survey-domain.md#returns-and-callbacks). */
export const OUTCOME_PAGES: Readonly<Record<string, ReportedStatus>> = {
  success: 'complete', terminate: 'terminate', overquota: 'overquota', security: 'security',
};

const MAX_RETURN_QUERY = 4000;

/** A provider as stored (its secret sealed). */
export type ProviderRow = StoredRow<'survey_provider'>;

/** The provider's exit code map (its own code → our outcome); empty when it is not a map. */
export function exitMapOf(provider: ProviderRow): Record<string, unknown> {
  const map: unknown = fromJson(provider.exit_map || null, {});
  return map && typeof map === 'object' && !Array.isArray(map) ? (map as Record<string, unknown>) : {};
}

/** A status the provider sent: its own exit code through the map, or one of the status names a provider may report. */
export function mapProviderStatus(provider: ProviderRow, reported: string): ReportedStatus | undefined {
  const mapped = exitMapOf(provider)[reported];
  if (isReportedStatus(mapped)) return mapped;
  return isReportedStatus(reported) ? reported : undefined;
}

function secretOf(app: AppContext, provider: ProviderRow): string {
  return provider.secret ? (app.secrets.open(provider.secret) ?? '') : '';
}

interface ReturnInput {
  /** path as received, e.g. `/success` or `/api/survey/callback/acme` */
  path: string;
  /** the query string as received, without `?` */
  query: string;
  ip: string;
  memo: (survey: SurveyRow) => string;
}

async function providerById(db: Db, id: number): Promise<ProviderRow> {
  return db.selectFrom('survey_provider').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The participation a query names, through any provider's rid parameter. */
async function participationOfQuery(app: AppContext, params: URLSearchParams) {
  const names = await app.db.selectFrom('survey_provider').select('rid_param').distinct().execute();
  for (const name of new Set(['rid', ...names.map((row) => row.rid_param)])) {
    const rid = params.get(name);
    if (!rid) continue;
    const participation = await findParticipationByRid(app.db, rid);
    if (!participation) continue;
    const provider = await providerById(app.db, (await app.db.selectFrom('survey').select('provider_id').where('id', '=', participation.survey_id).executeTakeFirstOrThrow()).provider_id);
    // The rid must arrive in the parameter its own provider uses.
    if (provider.rid_param === name) return { participation, provider };
  }
  return undefined;
}

/**
 * The browser came back to an outcome page. Unknown rid: an error and nothing written. A wrong
 * signature: recorded as a security event, then refused.
 */
export async function recordRedirect(app: AppContext, page: unknown, input: ReturnInput): Promise<FinishResult> {
  const reported = typeof page === 'string' ? OUTCOME_PAGES[page] : undefined;
  if (!reported) throw errors.unknownOutcome();
  if (input.query.length > MAX_RETURN_QUERY) throw errors.unknownRid();
  const params = new URLSearchParams(input.query);
  const found = await participationOfQuery(app, params);
  if (!found) throw errors.unknownRid();
  const { participation, provider } = found;
  // Providers with one landing URL say how it ended in a status parameter.
  const statusParam = params.get(provider.status_param);
  const status = (statusParam !== null ? mapProviderStatus(provider, statusParam) : undefined) ?? reported;
  if (!verifySignature(provider.sig_algo, secretOf(app, provider), input.path, input.query, provider.sig_param)) {
    await recordForgedReturn(app, participation.id, { channel: 'redirect', providerId: provider.id, ip: input.ip, rawQuery: input.query, reported: status });
    throw errors.signatureInvalid();
  }
  return finishParticipation(app, participation.id, { status, source: 'redirect', ip: input.ip, rawQuery: input.query, memo: input.memo });
}

export class CallbackRefused extends Error {
  constructor(readonly status: number, readonly error: ReturnType<typeof errors.unknownProvider>) {
    super(error.msg);
  }
}

/** A provider's server-to-server call. Refusals carry the HTTP status to answer with. */
export async function recordCallback(app: AppContext, code: unknown, params: URLSearchParams, input: ReturnInput): Promise<FinishResult> {
  const provider = typeof code === 'string' && code.length <= 32
    ? await app.db.selectFrom('survey_provider').selectAll().where('code', '=', code).executeTakeFirst()
    : undefined;
  if (!provider || provider.status !== 'enable') throw new CallbackRefused(404, errors.unknownProvider());
  if (provider.ip_allowlist.trim() !== '' && !AddressList.parse(provider.ip_allowlist).includes(input.ip)) {
    throw new CallbackRefused(403, errors.callbackAddressRefused());
  }
  const participation = await findParticipationByRid(app.db, params.get(provider.rid_param) ?? '');
  if (!participation) throw new CallbackRefused(200, errors.unknownRid());
  const survey = await app.db.selectFrom('survey').select('provider_id').where('id', '=', participation.survey_id).executeTakeFirstOrThrow();
  if (Number(survey.provider_id) !== Number(provider.id)) throw new CallbackRefused(200, errors.unknownRid());
  const reported = params.get(provider.status_param) ?? '';
  const mapped = mapProviderStatus(provider, reported);
  if (!verifySignature(provider.sig_algo, secretOf(app, provider), input.path, input.query, provider.sig_param)) {
    await recordForgedReturn(app, participation.id, { channel: 'callback', providerId: provider.id, ip: input.ip, rawQuery: input.query, reported: mapped });
    throw new CallbackRefused(200, errors.signatureInvalid());
  }
  if (!mapped) throw new CallbackRefused(200, errors.unknownProviderStatus(reported));
  return finishParticipation(app, participation.id, { status: mapped, source: 'callback', ip: input.ip, rawQuery: input.query, memo: input.memo });
}
