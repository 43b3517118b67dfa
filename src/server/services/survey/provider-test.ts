import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection.js';
import { errors, type ApiError } from '../../errors.js';
import type { ParameterRole, RecipeValue, ToolBuildInput, ToolCheck, ToolOutcome, ToolRequest, ToolVerdict } from '../../../contract/provider-tool.js';
import { TOOL_OUTCOMES } from '../../../contract/provider-tool.js';
import { OUTCOME_PAGE_OF, statusOfPage, type FinalStatus } from '../../../contract/outcomes.js';
import { findParticipationByRid, isTestRid, newTestRid } from './participations.js';
import { exitMapOf, mapProviderStatus } from './provider-status.js';
import type { ProviderRow } from './returns.js';
import { isReversal, reversalRuleOf } from './reversal-rules.js';
import { transactionIdIn, transactionNames } from './transaction-ids.js';
import { diagnoseWrongSignature, missingSignature } from './signature-diagnosis.js';
import {
  chainKeysOf, computeSignature, expirySeconds, expiryText, requestParameter, signatureNameIn, signatureNames, signedTextOf, signRequest, verifyRequest,
  type SignatureRecipe, type SignedRequestInput,
} from './signature-recipe.js';
import { isOneOf } from '../../../contract/checks.js';

/**
 * The provider test tool, a hash calculator over a provider's saved recipe and secret:
 * - build: the request the provider must send for an outcome (a project's return page and callback, a
 *   wall's callback with member, amount and transaction), signed by the engine's `signRequest`;
 * - check: a pasted request (address, headers, body) through the very `verifyRequest` the endpoints use,
 *   with the signed text, the signatures expected and received, and why a wrong one is wrong;
 * - send: the built test callback through our real callback address (the caller injects it).
 * Nothing is recorded. A signed request for a real attempt or member would credit it, so the tool signs
 * test ids only (`test-…`, which no attempt has, and which the callback endpoint answers as test traffic),
 * and a check withholds the signature a request naming a real attempt should carry. An admin who may
 * reconcile participations, and so can credit an attempt anyway, may do both (docs/survey-domain.md#the-provider-test-tool).
 */

export const TEST_OUTCOMES = TOOL_OUTCOMES;

// The recipe the screens edit (src/contract/provider-tool.ts) is the engine's: each must fit the other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const recipeShapesAgree: Same<SignatureRecipe, RecipeValue> = true;
void recipeShapesAgree;

const CALLBACK_PREFIX = '/api/survey/callback/';
/** Longest address the check reads: a real return's query is cut at 4,000 characters too. */
const MAX_TEST_URL = 4500;
/** Longest pasted body: what the callback endpoint reads. */
const MAX_TEST_BODY = 16_000;
const MAX_HEADER_LINES = 50;
const TEST_ID = /^[A-Za-z0-9_-]{1,64}$/;
const TRANSACTION_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const AMOUNT = /^-?\d{1,9}(?:\.\d{1,6})?$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
const FORM_TYPE = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** Whether the admin using the tool may sign for real attempts and members (holds the right to reconcile). */
interface Signer {
  realAttempts: boolean;
}

/** The provider as the tool works with it, and the site it speaks for. */
export interface ToolProvider {
  row: ProviderRow;
  /** undefined when the stored recipe does not read as one */
  recipe: SignatureRecipe | undefined;
  secret: string;
  /** the origin the callback endpoint reads for requests (`PUBLIC_URL`, else the scheme and host reached) */
  origin: string;
  signer: Signer;
  /** Unix seconds: the timestamp a built request carries, and the clock a check compares with */
  now: number;
}

type TestRequest = ToolRequest;

interface BuiltTest {
  providerKind: 'project' | 'wall';
  outcome: ToolOutcome;
  rid?: string;
  member?: string;
  transaction?: string;
  amount?: string;
  redirect?: TestRequest;
  callback: TestRequest & { status: string };
  /** what the operator should know about the requests built (translated by the caller) */
  notes: ApiError[];
}

/** A new test id: `test-` and 64 random bits (a member's or a transaction's; rids come from participations.ts). */
function newTestId(): string {
  return `test-${randomBytes(8).toString('hex')}`;
}

/** The provider's own exit code for an outcome (the first the exit map sends there), else our status name. */
function exitCodeFor(provider: ProviderRow, outcome: FinalStatus): string | undefined {
  for (const [code] of Object.entries(exitMapOf(provider))) if (mapProviderStatus(provider, code) === outcome) return code;
  return undefined;
}

/** Ordered request parameters; setting a name again replaces its value where it first stood. */
class Parameters {
  readonly pairs: [string, string][] = [];

  set(name: string, value: string): void {
    if (name === '') return;
    const found = this.pairs.find(([existing]) => existing === name);
    if (found) found[1] = value;
    else this.pairs.push([name, value]);
  }

  get(name: string): string | undefined {
    return this.pairs.find(([existing]) => existing === name)?.[1];
  }

  encoded(): string {
    return this.pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
  }
}

type ReversalRule = ReturnType<typeof reversalRuleOf>;

/**
 * The transaction parameter(s) set to `transaction`: one name takes it; of several joined by `+` (an id made of
 * the survey, the wave and the member), each the request does not carry yet takes it, so the id they make is new.
 */
function setTransaction(transactionParam: string, parameters: Parameters, transaction: string): void {
  const names = transactionNames(transactionParam);
  for (const name of names) if (names.length === 1 || parameters.get(name) === undefined) parameters.set(name, transaction);
}

/** The parameters a reversal adds under the provider's rule; a rule the request cannot express is refused. */
function applyReversal(rule: ReversalRule, provider: ProviderRow, parameters: Parameters): void {
  switch (rule.by) {
    case 'none':
      throw errors.providerTestNoReversal();
    case 'negative_amount': {
      if (provider.amount_param === '') throw errors.providerTestReversalNeedsAmount();
      const amount = parameters.get(provider.amount_param) ?? '1.00';
      parameters.set(provider.amount_param, `-${amount.replace(/^-/, '')}`);
      return;
    }
    case 'status':
      parameters.set(rule.param, Array.isArray(rule.value) ? rule.value[0] : rule.value);
      return;
    case 'flag':
      parameters.set(rule.param, rule.value);
      return;
    case 'prefix':
      parameters.set(rule.param, `${rule.value}${parameters.get(rule.param) ?? newTestId()}`);
  }
}

/** `Name: value` display names of the headers a built request carries (the engine keeps them in lower case). */
function headerNames(provider: ProviderRow, recipe: SignatureRecipe): Map<string, string> {
  const names = new Map<string, string>([['content-type', 'Content-Type']]);
  if (recipe.in === 'header') names.set(provider.sig_param.toLowerCase(), provider.sig_param);
  if (recipe.expiry?.in === 'header') names.set(recipe.expiry.name.toLowerCase(), recipe.expiry.name);
  for (const step of recipe.chain ?? []) if (step.in === 'header') names.set(step.name.toLowerCase(), step.name);
  return names;
}

/** How long a built request stays good under a recipe whose time is a deadline: five minutes, or less if the recipe allows less. */
const BUILT_DEADLINE_SECONDS = 300;

/** The time a built request carries, written as the recipe says: now, or a deadline shortly ahead. */
function timestampOf(recipe: SignatureRecipe, now: number): string {
  const expiry = recipe.expiry;
  const seconds = expiry?.kind === 'deadline' ? now + Math.min(BUILT_DEADLINE_SECONDS, expiry.skewSeconds) : now;
  if (expiry?.unit === 'rfc3339') return new Date(seconds * 1000).toISOString();
  return String(expiry?.unit === 'ms' ? seconds * 1000 : seconds);
}

/** The value a built request gives a key of an HMAC chain that it does not carry otherwise (an access key the provider would send). */
function chainValueOf(name: string): string {
  return `test-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

/**
 * One request signed as the provider must sign it. The parameters go in the query, or in a body when the
 * recipe signs the body or carries the signature in a body field (a JSON body when it signs the body and
 * puts the signature in a header, as webhooks do; a form body otherwise).
 */
function signedRequest(tool: ToolProvider, recipe: SignatureRecipe, path: string, parameters: Parameters, { bodyAllowed = true } = {}): TestRequest {
  const { row, secret } = tool;
  const headers: Record<string, string> = {};
  const inBody = bodyAllowed && (recipe.in === 'field' || recipe.text === 'body');
  const json = inBody && recipe.text === 'body' && recipe.in === 'header';
  let query = inBody ? '' : parameters.encoded();
  let body = '';
  if (inBody) {
    body = json ? JSON.stringify(Object.fromEntries(parameters.pairs)) : parameters.encoded();
    headers['content-type'] = json ? JSON_TYPE : FORM_TYPE;
  }
  const addToQuery = (name: string, value: string) => {
    const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
    query = query === '' ? pair : `${query}&${pair}`;
  };
  if (recipe.expiry) {
    const stamp = timestampOf(recipe, tool.now);
    if (recipe.expiry.in === 'header') headers[recipe.expiry.name.toLowerCase()] = stamp;
    else addToQuery(recipe.expiry.name, stamp);
  }
  // The keys of an HMAC chain the request carries: the time where it is one, else a test value (an access key).
  for (const step of recipe.chain ?? []) {
    if (step.in === 'secret') continue;
    const value = recipe.expiry && recipe.expiry.in === step.in && recipe.expiry.name === step.name ? timestampOf(recipe, tool.now) : chainValueOf(step.name);
    if (step.in === 'header') headers[step.name.toLowerCase()] ??= value;
    else if (!parameters.get(step.name) && !(recipe.expiry?.in === 'query' && recipe.expiry.name === step.name)) addToQuery(step.name, value);
  }
  const unsigned: SignedRequestInput = {
    method: inBody ? 'POST' : 'GET', origin: tool.origin, path, query, headers, body, contentType: headers['content-type'] ?? '',
  };
  const signed = recipe.key === 'none' ? unsigned : signRequest(recipe, secret, row.sig_param, unsigned);
  const signedText = signedTextOf(recipe, row.sig_param, signed);
  const names = headerNames(row, recipe);
  return {
    method: signed.method === 'POST' ? 'POST' : 'GET',
    url: `${signed.origin}${signed.path}${signed.query === '' ? '' : `?${signed.query}`}`,
    headers: Object.fromEntries(Object.entries(signed.headers).map(([name, value]) => [names.get(name) ?? name, value])),
    body: signed.body,
    signedText,
    signature: recipe.key === 'none' ? '' : computeSignature(recipe, secret, signedText, chainKeysOf(recipe, secret, signed)),
  };
}

/** The recipe and secret a signing needs, or the error saying what is missing. */
function signingRecipe(tool: ToolProvider): SignatureRecipe {
  if (!tool.recipe) throw errors.providerTestRecipeUnreadable();
  if (tool.recipe.key !== 'none' && tool.secret === '') throw errors.providerTestNoSecret();
  return tool.recipe;
}

function testIdOf(given: string | undefined, make: () => string, signer: Signer, invalid: () => ApiError, notTest: () => ApiError): string {
  const id = given ?? make();
  if (!TEST_ID.test(id)) throw invalid();
  if (!isTestRid(id) && !signer.realAttempts) throw notTest();
  return id;
}

/**
 * The signed requests for an outcome. A project provider: the return page the member's browser is sent to
 * (signed when the recipe can be carried by a browser's return) and the callback. A wall: the callback,
 * with our member id, the amount as the provider writes it and a transaction id.
 */
export function buildTest(tool: ToolProvider, input: ToolBuildInput): BuiltTest {
  const { row } = tool;
  if (!isOneOf(TOOL_OUTCOMES, input.outcome)) throw errors.providerTestOutcomeInvalid();
  const recipe = signingRecipe(tool);
  const rule = reversalRuleOf(row);
  const outcome = input.outcome;
  const parameters = new Parameters();
  const notes: ApiError[] = [];
  const built: Omit<BuiltTest, 'callback' | 'notes'> = { providerKind: row.kind, outcome };

  if (row.kind === 'wall') {
    built.member = testIdOf(input.member, newTestId, tool.signer, errors.providerTestMemberInvalid, errors.providerTestMemberNotTest);
    built.transaction = input.transaction ?? newTestId();
    if (!TRANSACTION_ID.test(built.transaction)) throw errors.providerTestTransactionInvalid();
    built.amount = input.amount ?? (row.amount_in === 'minor' ? '100' : '1.00');
    if (!AMOUNT.test(built.amount)) throw errors.providerTestAmountInvalid();
    parameters.set(row.member_param, built.member);
    setTransaction(row.transaction_param, parameters, built.transaction);
    parameters.set(row.amount_param, built.amount);
  } else {
    built.rid = testIdOf(input.rid, newTestRid, tool.signer, errors.providerTestRidInvalid, errors.providerTestRidNotTest);
    parameters.set(row.rid_param, built.rid);
    if (input.transaction !== undefined) {
      if (!TRANSACTION_ID.test(input.transaction)) throw errors.providerTestTransactionInvalid();
      setTransaction(row.transaction_param, parameters, input.transaction);
    }
  }

  let status = '';
  if (outcome === 'reversal') {
    applyReversal(rule, row, parameters);
    if (rule.by === 'status' && rule.param === row.status_param) status = parameters.get(row.status_param) ?? '';
  } else {
    // A project's callback always says how the attempt ended; a wall's only when its exit map has a code for it.
    const code = exitCodeFor(row, outcome) ?? (row.kind === 'project' ? outcome : undefined);
    if (code !== undefined) {
      parameters.set(row.status_param, code);
      status = code;
    }
  }
  if (built.amount !== undefined) built.amount = parameters.get(row.amount_param) ?? built.amount;
  if (built.transaction !== undefined) built.transaction = transactionIdIn(row.transaction_param, (name) => parameters.get(name)) || built.transaction;

  const callback = { ...signedRequest(tool, recipe, `${CALLBACK_PREFIX}${encodeURIComponent(row.code)}`, parameters), status };
  let redirect: TestRequest | undefined;
  if (row.kind === 'project' && outcome !== 'reversal') {
    const returned = new Parameters();
    returned.set(row.rid_param, built.rid ?? '');
    // A browser's return carries an address only: a recipe wanting a header or a body cannot sign it.
    const browserCanCarry = recipe.in === 'query' && recipe.text !== 'body' && recipe.expiry?.in !== 'header';
    redirect = browserCanCarry
      ? signedRequest(tool, recipe, `/${OUTCOME_PAGE_OF[outcome]}`, returned, { bodyAllowed: false })
      : { method: 'GET', url: `${tool.origin}/${OUTCOME_PAGE_OF[outcome]}?${returned.encoded()}`, headers: {}, body: '', signedText: '', signature: '' };
    if (row.credit_on === 'callback') notes.push(errors.providerTestCreditsOnCallback());
    else if (!browserCanCarry) notes.push(errors.providerTestRedirectUnsigned());
  }
  if (recipe.key === 'none') notes.push(errors.providerTestUnsigned());
  return { ...built, ...(redirect ? { redirect } : {}), callback, notes };
}

/** A request pasted into the check. */
interface PastedRequest {
  url: string;
  method?: string;
  /** `Name: value`, one a line */
  headers?: string;
  body?: string;
}

type CheckedParameter = ToolCheck['parameters'][number];

/** The check's answer (`ToolCheck`) before its problems and warnings are translated for the admin. */
type TestCheck = Omit<ToolCheck, 'problems' | 'warnings'> & { problems: ApiError[]; warnings: ApiError[] };

/** The origin, path and raw query of a pasted address (a whole address, or a path starting with `/`). */
function splitPastedUrl(pasted: string): { origin: string; path: string; query: string } {
  const text = pasted.trim().replace(/#.*$/, '');
  let origin = '';
  let rest = text;
  const absolute = /^(https?:\/\/[^/?#\s]+)(.*)$/i.exec(text);
  if (absolute) {
    origin = absolute[1].toLowerCase();
    rest = absolute[2] || '/';
  }
  if (!rest.startsWith('/') || /\s/.test(rest)) throw errors.providerTestUrlInvalid();
  const mark = rest.indexOf('?');
  return mark < 0 ? { origin, path: rest, query: '' } : { origin, path: rest.slice(0, mark), query: rest.slice(mark + 1) };
}

/** `Name: value` lines → lower-case header names; a line that is not one is refused, naming it. */
function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  if (lines.length > MAX_HEADER_LINES) throw errors.providerTestHeaderInvalid(lines[MAX_HEADER_LINES]);
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) throw errors.providerTestHeaderInvalid(line);
    headers[name.toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The parameters a request carries: query pairs, then form pairs or a JSON object's top-level fields. */
function parametersOf(request: SignedRequestInput): [string, string][] {
  const pairs = (text: string): [string, string][] =>
    text.split('&').filter((pair) => pair !== '').map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0 ? [decodeOr(pair), ''] : [decodeOr(pair.slice(0, equals)), decodeOr(pair.slice(equals + 1))];
    });
  const listed = pairs(request.query);
  if (/^application\/x-www-form-urlencoded/i.test(request.contentType)) listed.push(...pairs(request.body));
  else if (/json/i.test(request.contentType)) {
    try {
      const parsed: unknown = JSON.parse(request.body);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        for (const [name, value] of Object.entries(parsed)) listed.push([name, typeof value === 'string' ? value : JSON.stringify(value)]);
      }
    } catch {
      // not JSON after all: the body has no fields to list
    }
  }
  return listed;
}

/**
 * Whether any value the request carries is the rid of an attempt, under whatever name: a return finds its
 * attempt through the rid parameter of any provider, so the name alone proves nothing.
 */
async function namesRealAttempt(db: Db, values: readonly string[]): Promise<boolean> {
  const rids = [...new Set(values)].filter((value) => value !== '' && value.length <= 64 && !isTestRid(value));
  if (rids.length === 0) return false;
  return (await db.selectFrom('survey_participation').select('id').where('rid', 'in', rids).limit(1).executeTakeFirst()) !== undefined;
}

function roleOf(row: ProviderRow, recipe: SignatureRecipe | undefined, name: string): ParameterRole {
  if (signatureNames(recipe, row.sig_param).includes(name) && recipe && recipe.key !== 'none' && recipe.in !== 'header') return 'signature';
  if (recipe?.expiry && recipe.expiry.in === 'query' && name === recipe.expiry.name) return 'timestamp';
  if (row.kind === 'wall' && name === row.member_param) return 'member';
  if (row.kind === 'project' && name === row.rid_param) return 'rid';
  if (name === row.status_param) return 'status';
  if (name !== '' && name === row.amount_param) return 'amount';
  if (name !== '' && transactionNames(row.transaction_param).includes(name)) return 'transaction';
  return 'other';
}

/** What is wrong with who the request names (rid or member) and how it says the outcome, besides its signature. */
async function checkContent(db: Db, row: ProviderRow, kind: TestCheck['kind'], read: (name: string) => string | undefined, problems: ApiError[], warnings: ApiError[]): Promise<FinalStatus | 'reversal' | undefined> {
  const rule = reversalRuleOf(row);
  const reversal = isReversal(rule, read, row.amount_param);
  if (row.kind === 'wall') {
    const member = read(row.member_param);
    if (!member) problems.push(errors.providerTestMemberMissing(row.member_param));
    else if (isTestRid(member)) warnings.push(errors.providerTestMemberIsTest(member));
    if (row.transaction_param !== '' && transactionIdIn(row.transaction_param, read) === '') problems.push(errors.providerTestTransactionMissing(row.transaction_param));
    if (row.amount_param !== '' && !read(row.amount_param)) problems.push(errors.providerTestAmountMissing(row.amount_param));
  } else {
    const rid = read(row.rid_param);
    if (!rid) {
      const elsewhere = ['rid', 'RID', 'uid', 'transaction_id', 'session'].find((name) => name !== row.rid_param && read(name));
      problems.push(elsewhere ? errors.providerTestRidElsewhere(row.rid_param, elsewhere) : errors.providerTestRidMissing(row.rid_param));
    } else if (isTestRid(rid)) {
      warnings.push(errors.providerTestRidIsTest(rid));
    } else {
      const participation = await findParticipationByRid(db, rid);
      if (!participation) warnings.push(errors.providerTestRidUnknown(rid));
      else {
        const survey = await db.selectFrom('survey').select('provider_id').where('id', '=', participation.survey_id).executeTakeFirst();
        if (Number(survey?.provider_id) !== Number(row.id)) warnings.push(errors.providerTestRidOtherProvider(rid));
      }
    }
  }
  if (reversal && kind === 'callback') return 'reversal';
  const status = read(row.status_param);
  if (status !== undefined) {
    const mapped = mapProviderStatus(row, status);
    // A callback with an unknown status is refused; an outcome page then reports its own outcome.
    if (!mapped) (kind === 'callback' ? problems : warnings).push(errors.providerTestStatusUnknown(row.status_param, status));
    return mapped;
  }
  if (kind === 'callback' && row.kind === 'project') problems.push(errors.providerTestStatusMissing(row.status_param));
  // A wall's callback without a status is a credit.
  return kind === 'callback' && row.kind === 'wall' ? 'complete' : undefined;
}

/** The problem an expired request has: its time absent or unreadable, how far a timestamp is from our clock, or how a deadline misses. */
function expiryProblem(recipe: SignatureRecipe, request: SignedRequestInput, now: number): ApiError {
  const expiry = recipe.expiry;
  if (!expiry) return errors.providerTestTimestampMissing('');
  const raw = expiryText(expiry, request);
  const seconds = raw === undefined ? undefined : expirySeconds(expiry.unit, raw);
  if (seconds === undefined) return expiry.unit === 'rfc3339' ? errors.providerTestTimeUnreadable(expiry.name) : errors.providerTestTimestampMissing(expiry.name);
  if (expiry.kind !== 'deadline') return errors.providerTestTimestampExpired(expiry.name, Math.round(Math.abs(now - seconds)), expiry.skewSeconds);
  if (seconds <= now) return errors.providerTestDeadlinePassed(expiry.name, Math.round(now - seconds));
  return errors.providerTestDeadlineTooFar(expiry.name, Math.round(seconds - now), expiry.skewSeconds);
}

/** The first key of the recipe's HMAC chain the request does not carry, by name. */
function missingChainKey(recipe: SignatureRecipe, secret: string, request: SignedRequestInput): string | undefined {
  const keys = chainKeysOf(recipe, secret, request);
  const step = (recipe.chain ?? []).find((_step, index) => keys[index] === undefined);
  return step && step.in !== 'secret' ? step.name : undefined;
}

/**
 * Check a pasted request as the endpoint it is addressed to would: the return page reads the address
 * alone; the callback reads the address, headers and body. The verdict is the engine's `verifyRequest` on
 * the request as the endpoint would see it (at this site's public origin, whatever host the pasted address
 * names); a wrong signature is diagnosed, the pasted address's own origin among what is tried.
 */
export async function checkTest(db: Db, tool: ToolProvider, pasted: PastedRequest): Promise<TestCheck> {
  const { row, recipe, secret, signer } = tool;
  if (pasted.url.trim() === '') throw errors.providerTestUrlMissing();
  if (pasted.url.length > MAX_TEST_URL) throw errors.providerTestUrlInvalid();
  const body = pasted.body ?? '';
  if (body.length > MAX_TEST_BODY) throw errors.providerTestBodyTooLong(MAX_TEST_BODY);
  const method = (pasted.method ?? '').toUpperCase() || (body === '' ? 'GET' : 'POST');
  if (method !== 'GET' && method !== 'POST') throw errors.providerTestMethodInvalid();
  const headers = parseHeaders(pasted.headers ?? '');
  const { origin: pastedOrigin, path, query } = splitPastedUrl(pasted.url);
  const problems: ApiError[] = [];
  const warnings: ApiError[] = [];

  const page = path.replace(/^\//, '');
  let kind: TestCheck['kind'] = 'unknown';
  const pageOutcome: FinalStatus | undefined = statusOfPage(page);
  if (pageOutcome) {
    kind = 'redirect';
  } else if (path.startsWith(CALLBACK_PREFIX)) {
    kind = 'callback';
    const code = decodeOr(path.slice(CALLBACK_PREFIX.length));
    if (code !== row.code) problems.push(errors.providerTestOtherProvider(code, row.code));
  } else {
    problems.push(errors.providerTestUnknownPath(path, row.code));
  }

  // The origin the endpoint reads (PUBLIC_URL, else the scheme and host the proxies report, as for this very
  // request); a provider that signs the full URL must have called exactly it.
  const origin = tool.origin;
  if (recipe?.text === 'url' && pastedOrigin !== '' && pastedOrigin !== origin) warnings.push(errors.providerTestOriginNotOurs(pastedOrigin, origin));
  let request: SignedRequestInput;
  if (kind === 'redirect') {
    if (body !== '' || Object.keys(headers).length > 0) warnings.push(errors.providerTestRedirectIgnores());
    if (row.credit_on === 'callback') warnings.push(errors.providerTestCreditsOnCallback());
    request = { method: 'GET', origin, path, query, headers: {}, body: '', contentType: '' };
  } else {
    const contentType = headers['content-type'] ?? (body === '' ? '' : body.trimStart().startsWith('{') ? JSON_TYPE : FORM_TYPE);
    request = { method, origin, path, query, headers: contentType ? { ...headers, 'content-type': contentType } : headers, body, contentType };
  }

  const read = (name: string) => (name === '' ? undefined : requestParameter(request, name));
  const parameters: CheckedParameter[] = parametersOf(request).map(([name, value]) => ({ name, value, role: roleOf(row, recipe, name) }));
  const sigName = recipe ? signatureNameIn(recipe, row.sig_param, request) : row.sig_param;
  if (recipe?.in === 'header' && request.headers[sigName.toLowerCase()] !== undefined) parameters.push({ name: sigName, value: request.headers[sigName.toLowerCase()], role: 'signature' });
  if (recipe?.expiry?.in === 'header' && request.headers[recipe.expiry.name.toLowerCase()] !== undefined) parameters.push({ name: recipe.expiry.name, value: request.headers[recipe.expiry.name.toLowerCase()], role: 'timestamp' });

  const reported = await checkContent(db, row, kind, read, problems, warnings);
  if (row.test_param !== '' && (read(row.test_param) ?? '').toLowerCase() === (row.test_value || 'true').toLowerCase()) {
    warnings.push(errors.providerTestMarkedTest(row.test_param, read(row.test_param) ?? ''));
  }

  let verdict: ToolVerdict;
  let signedText = '';
  let expected = '';
  let received = '';
  if (!recipe) {
    verdict = 'wrong';
    problems.push(errors.providerTestRecipeUnreadable());
  } else {
    const verification = verifyRequest(recipe, secret, row.sig_param, request, tool.now);
    ({ signedText, expected, received } = verification);
    if (recipe.key === 'none') {
      verdict = 'unsigned';
      warnings.push(errors.providerTestUnsigned());
    } else if (verification.ok) {
      verdict = 'ok';
    } else {
      verdict = verification.failure;
      if (verification.failure === 'no_secret') problems.push(errors.providerTestNoSecret());
      else if (verification.failure === 'missing') {
        const chainKey = received === '' ? undefined : missingChainKey(recipe, secret, request);
        problems.push(chainKey ? errors.providerTestChainKeyMissing(chainKey) : missingSignature(recipe, sigName, request));
      } else if (verification.failure === 'expired') problems.push(expiryProblem(recipe, request, tool.now));
      else problems.push(diagnoseWrongSignature(recipe, secret, sigName, request, received, [pastedOrigin].filter(Boolean)));
    }
  }

  // A signature that would credit a real attempt or member is shown only to whoever may credit one anyway.
  if (expected !== '' && !signer.realAttempts) {
    const member = row.kind === 'wall' ? read(row.member_param) : undefined;
    if (member && !isTestRid(member)) {
      expected = '';
      warnings.push(errors.providerTestSignatureWithheldMember());
    } else if (await namesRealAttempt(db, [...parameters.map((parameter) => parameter.value), ...Object.values(request.headers)])) {
      expected = '';
      warnings.push(errors.providerTestSignatureWithheld());
    }
  }

  const signatureValid = verdict === 'ok' || verdict === 'unsigned';
  const outcome = reported ?? pageOutcome;
  return {
    ok: problems.length === 0 && signatureValid,
    signatureValid,
    verdict,
    kind,
    // What a real request would record: a project's refused return is kept as a security event, a wall's is not credited.
    ...(outcome ? (signatureValid ? { outcome } : row.kind === 'project' ? { outcome: 'security' } : {}) : {}),
    signedText,
    expectedSignature: expected,
    receivedSignature: received,
    parameters,
    problems,
    warnings,
  };
}

/** What our callback address answered to the test callback. */
export interface CallbackAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * Build the test callback for an outcome and send it through our callback address (`send` is the
 * caller's: an injection into this server), answering both. Test ids only, whoever asks: what this sends
 * must never credit anyone.
 */
export async function sendTest(tool: ToolProvider, input: ToolBuildInput, send: (request: ToolRequest) => Promise<CallbackAnswer>): Promise<{ request: ToolRequest; response: CallbackAnswer }> {
  for (const id of [input.rid, input.member]) if (id !== undefined && !isTestRid(id)) throw errors.providerTestSendTestOnly();
  const built = buildTest({ ...tool, signer: { realAttempts: false } }, input);
  const { status: _status, ...request } = built.callback;
  return { request, response: await send(request) };
}
