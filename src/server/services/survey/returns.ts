import type { AppContext } from '../../app-context.js';
import { nowSeconds } from '../../clock.js';
import type { Db, StoredRow } from '../../db/connection.js';
import { fromJson } from '../../db/values.js';
import { errors, type ApiError } from '../../errors.js';
import { AddressList } from '../../address-list.js';
import { ledgerNotes } from '../ledger.js';
import {
  finishParticipation, findParticipationByRid, isTestRid, recordForgedReturn,
  type FinishResult, type SurveyRow,
} from './participations.js';
import { reverseParticipation } from './reconcile.js';
import { mapProviderStatus } from './provider-status.js';
import { isReversal, reversalRuleOf } from './reversal-rules.js';
import { providerReversalReason } from './reversal-reasons.js';
import { transactionIdIn } from './transaction-ids.js';
import { statusOfPage } from '../../../contract/outcomes.js';
import { recordWallCallback } from './walls.js';
import { legacyRecipe, parseRecipe, requestParameter, verifyRequest, type SignatureRecipe, type SignedRequestInput } from './signature-recipe.js';

/**
 * A provider reports how an attempt ended: the browser lands on an outcome page (`/success` …) or the
 * provider calls us server to server. Either way: find the rid, check the request against the provider's
 * signature recipe, record the first final status, credit through the ledger. A request that fails a check
 * changes nothing but the security log.
 */

const MAX_RETURN_QUERY = 4000;
const MAX_CALLBACK_BODY = 16_000;

/** A provider as stored (its secret sealed). */
export type ProviderRow = StoredRow<'survey_provider'>;

/** The provider's signature recipe; undefined when what is stored does not read as one (nothing then verifies). */
export function recipeOf(provider: ProviderRow): SignatureRecipe | undefined {
  // A provider saved before recipes, not yet converted by a start (`legacy-signatures.ts`), holds a name.
  const legacy = legacyRecipe(String(provider.signature ?? ''));
  if (legacy) return legacy;
  try {
    return parseRecipe(fromJson<unknown>(provider.signature, null));
  } catch {
    return undefined;
  }
}

function secretOf(app: AppContext, provider: ProviderRow): string {
  return provider.secret ? (app.secrets.open(provider.secret) ?? '') : '';
}

/** What the provider sent, as the signature checks read it. */
interface ReceivedRequest {
  request: SignedRequestInput;
  ip: string;
}

/** The request's parameters: the query first, then the form or JSON body. */
function parameterOf(request: SignedRequestInput, name: string): string | undefined {
  return name === '' ? undefined : requestParameter(request, name);
}

/** The raw query plus a form body, as kept with the attempt and in the security log. */
function rawTextOf(request: SignedRequestInput): string {
  const body = request.body === '' ? '' : `${request.query === '' ? '' : '&'}${request.body}`;
  return `${request.query}${body}`.slice(0, MAX_RETURN_QUERY);
}

type CheckOutcome = { ok: true } | { ok: false; failure: 'missing' | 'wrong' | 'expired' };

/** The provider's recipe applied to the request; a provider without a usable recipe or secret verifies nothing. */
function checkSignature(app: AppContext, provider: ProviderRow, request: SignedRequestInput): CheckOutcome {
  const recipe = recipeOf(provider);
  if (!recipe) return { ok: false, failure: 'wrong' };
  const result = verifyRequest(recipe, secretOf(app, provider), provider.sig_param, request, nowSeconds());
  if (result.ok) return { ok: true };
  return { ok: false, failure: result.failure === 'no_secret' ? 'wrong' : result.failure };
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

/** A return a provider set to credit on its callback only: the page is shown, nothing is recorded. */
interface AwaitedResult {
  awaitingCallback: true;
  participation: FinishResult['participation'];
  survey: SurveyRow;
}

/**
 * The browser came back to an outcome page. Unknown rid: an error and nothing written. A check that fails:
 * recorded as a security event, then refused. A provider that credits on its callback only (it does not sign
 * redirects) gets nothing recorded from the page.
 */
export async function recordRedirect(app: AppContext, page: unknown, input: ReceivedRequest & { memo: (survey: SurveyRow) => string }): Promise<FinishResult | AwaitedResult> {
  // The outcome pages and the status each reports: contract/outcomes.ts (docs/survey-domain.md#returns-and-callbacks).
  const reported = statusOfPage(page);
  if (!reported) throw errors.unknownOutcome();
  const { request } = input;
  if (request.query.length > MAX_RETURN_QUERY) throw errors.unknownRid();
  const params = new URLSearchParams(request.query);
  const found = await participationOfQuery(app, params);
  if (!found) throw errors.unknownRid();
  const { participation, provider } = found;
  if (provider.credit_on === 'callback') {
    const survey = await app.db.selectFrom('survey').selectAll().where('id', '=', participation.survey_id).executeTakeFirstOrThrow();
    return { awaitingCallback: true, participation, survey };
  }
  // Providers with one landing URL say how it ended in a status parameter.
  const statusParam = params.get(provider.status_param);
  const status = (statusParam !== null ? mapProviderStatus(provider, statusParam) : undefined) ?? reported;
  const check = checkSignature(app, provider, request);
  if (!check.ok) {
    await recordForgedReturn(app, participation.id, { channel: 'redirect', failure: check.failure, providerId: provider.id, ip: input.ip, rawQuery: request.query, reported: status });
    throw errors.signatureInvalid();
  }
  const reason = parameterOf(request, provider.reason_param);
  return finishParticipation(app, participation.id, { status, source: 'redirect', ip: input.ip, rawQuery: request.query, memo: input.memo, ...(reason ? { reason: reason.slice(0, 255) } : {}) });
}

export class CallbackRefused extends Error {
  constructor(readonly status: number, readonly error: ApiError) {
    super(error.msg);
  }
}

/** How a callback that was taken (or was a repeat, or test traffic) is answered, in the provider's terms. */
interface CallbackAccepted {
  provider: ProviderRow;
  /** false: a repeat of what was recorded, or test traffic: nothing changed */
  changed: boolean;
  test: boolean;
}

/** Whether the request names a test id of the provider test tool (a `test-` rid or wall member id): no attempt or member has one. */
function namesTestId(provider: ProviderRow, request: SignedRequestInput): boolean {
  const named = parameterOf(request, provider.kind === 'wall' ? provider.member_param : provider.rid_param);
  return named !== undefined && isTestRid(named);
}

/** Whether the provider marked the request as test traffic (its `test_param` holding its `test_value`). */
function markedAsTest(provider: ProviderRow, request: SignedRequestInput): boolean {
  if (provider.test_param === '') return false;
  const value = parameterOf(request, provider.test_param);
  return value !== undefined && value.toLowerCase() === (provider.test_value || 'true').toLowerCase();
}

/**
 * A provider's server-to-server call. Checks in order: the provider (known, enabled), the caller's address,
 * the signature recipe; then a project provider's callback ends or reverses the attempt it names, a wall's
 * credits or reverses its transaction (`walls.ts`). Test traffic is checked and answered, never recorded.
 * Refusals carry the HTTP status to answer with.
 */
export async function recordCallback(app: AppContext, code: unknown, input: ReceivedRequest): Promise<CallbackAccepted> {
  const { request } = input;
  const provider = typeof code === 'string' && code.length <= 32
    ? await app.db.selectFrom('survey_provider').selectAll().where('code', '=', code).executeTakeFirst()
    : undefined;
  if (!provider || provider.status !== 'enable') throw new CallbackRefused(404, errors.unknownProvider());
  if (request.query.length > MAX_RETURN_QUERY || request.body.length > MAX_CALLBACK_BODY) throw new CallbackRefused(200, errors.unknownRid());
  const rawQuery = rawTextOf(request);
  const rid = parameterOf(request, provider.rid_param) ?? '';
  const participation = provider.kind === 'project' && rid !== '' ? await findParticipationByRid(app.db, rid) : undefined;
  const survey = participation ? await app.db.selectFrom('survey').select('provider_id').where('id', '=', participation.survey_id).executeTakeFirstOrThrow() : undefined;
  // Only an attempt of this provider's surveys is flagged by a refused call naming it.
  const named = participation && survey && Number(survey.provider_id) === Number(provider.id) ? participation : undefined;
  const reportedCode = parameterOf(request, provider.status_param) ?? '';
  const mapped = mapProviderStatus(provider, reportedCode);
  if (provider.ip_allowlist.trim() !== '' && !AddressList.parse(provider.ip_allowlist).includes(input.ip)) {
    await recordForgedReturn(app, named?.id, { channel: 'callback', failure: 'address', providerId: provider.id, ip: input.ip, rawQuery, reported: mapped });
    throw new CallbackRefused(403, errors.callbackAddressRefused());
  }
  const check = checkSignature(app, provider, request);
  if (!check.ok) {
    await recordForgedReturn(app, named?.id, { channel: 'callback', failure: check.failure, providerId: provider.id, ip: input.ip, rawQuery, reported: mapped });
    throw new CallbackRefused(200, errors.signatureInvalid());
  }
  if (namesTestId(provider, request)) return { provider, changed: false, test: true };
  if (provider.kind === 'wall') {
    // A wall records its test traffic too (never credited), so it decides that itself.
    const wall = await recordWallCallback(app, provider, (name) => parameterOf(request, name), { ip: input.ip, rawQuery });
    if (wall.answer === 'refused') throw new CallbackRefused(200, wall.error);
    return { provider, changed: wall.answer === 'ok' && wall.event !== 'test', test: wall.answer === 'ok' && wall.event === 'test' };
  }
  if (markedAsTest(provider, request)) return { provider, changed: false, test: true };
  if (!named) throw new CallbackRefused(200, errors.unknownRid());
  const reason = parameterOf(request, provider.reason_param)?.slice(0, 255);
  if (isReversal(reversalRuleOf(provider), (name) => parameterOf(request, name), provider.amount_param)) {
    // Our reason from the status it carries (its exit map), the provider's own words beside it.
    const outcome = await reverseParticipation(app, named.rid, Number(named.survey_id), { adminId: 0, reason: providerReversalReason(mapped), providerReason: reason ?? '', ip: input.ip });
    // A reversal of what is already reversed (or never completed) is a repeat: answered, nothing changes.
    return { provider, changed: outcome.ok, test: false };
  }
  if (!mapped) throw new CallbackRefused(200, errors.unknownProviderStatus(reportedCode));
  const providerTxid = transactionIdIn(provider.transaction_param, (name) => parameterOf(request, name));
  const result = await finishParticipation(app, named.id, {
    status: mapped, source: 'callback', ip: input.ip, rawQuery, memo: ledgerNotes.surveyReward, ...(reason ? { reason } : {}), ...(providerTxid ? { providerTxid } : {}),
  });
  return { provider, changed: result.changed, test: false };
}
