import type { LocalText } from '../../../schema/local-text.js';
import { nowSeconds } from '../../clock.js';
import type { Db } from '../../db/connection.js';
import { errors, type ApiError } from '../../errors.js';
import { findParticipationByRid, isTestRid, newTestRid, type FinalStatus } from './participations.js';
import { exitMapOf, mapProviderStatus, OUTCOME_PAGES, recipeOf, type ProviderRow } from './returns.js';
import { computeSignature, RECIPE_ALGORITHMS, signedTextOf, signRequest, verifyRequest, type SignatureRecipe, type SignedRequestInput } from './signature-recipe.js';

/**
 * The provider test tool: builds the return URL and the callback a provider should send for an outcome,
 * signed by the very code that verifies real returns, and checks a pasted URL the way a real return is
 * checked, naming what is wrong. Nothing is recorded.
 *
 * A signed return for a real attempt would credit it, so the tool signs test rids only (`test-…`, which
 * no attempt has), and a check does not show the signature a URL naming a real attempt should carry.
 * An admin who may reconcile participations, and so can credit an attempt anyway, may do both.
 */

/** Outcomes a provider can report (a timeout is ours, never reported). */
export const TEST_OUTCOMES = ['complete', 'terminate', 'overquota', 'security'] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

const CALLBACK_PREFIX = '/api/survey/callback/';
/** Longest URL the check reads: a real return's query is cut at 4,000 characters too. */
const MAX_TEST_URL = 4500;

interface SignedRequest {
  /** the whole address, to open or send */
  url: string;
  /** what is signed: the path and query without the signature parameter */
  signedText: string;
  /** lowercase hex; empty when the provider does not sign */
  signature: string;
}

interface BuiltReturn {
  outcome: TestOutcome;
  rid: string;
  redirect: SignedRequest;
  /** a GET of the callback; the same query may be POSTed */
  callback: SignedRequest & { method: 'GET'; status: string };
}

const encode = (text: string) => encodeURIComponent(text);

/** The provider's recipe; one that no longer reads as a recipe cannot sign. */
function recipeFor(provider: ProviderRow): SignatureRecipe {
  const recipe = recipeOf(provider);
  if (!recipe) throw errors.providerTestNoSecret();
  return recipe;
}

function getRequest(origin: string, path: string, query: string): SignedRequestInput {
  return { method: 'GET', origin, path, query, headers: {}, body: '', contentType: '' };
}

function signedRequest(provider: ProviderRow, secret: string, origin: string, path: string, pairs: [string, string][]): SignedRequest {
  const query = pairs.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  const recipe = recipeFor(provider);
  const unsigned = getRequest(origin, path, query);
  if (recipe.key === 'none') return { url: `${origin}${path}?${query}`, signedText: signedTextOf(recipe, provider.sig_param, unsigned), signature: '' };
  const signed = signRequest(recipe, secret, provider.sig_param, unsigned);
  const check = verifyRequest(recipe, secret, provider.sig_param, signed, 0);
  return { url: `${origin}${path}?${signed.query}`, signedText: check.signedText, signature: check.expected };
}

/** The provider's own exit code for an outcome (the first the exit map sends there), else our status name. */
function exitCodeFor(provider: ProviderRow, outcome: TestOutcome): string {
  for (const [code] of Object.entries(exitMapOf(provider))) if (mapProviderStatus(provider, code) === outcome) return code;
  return outcome;
}

function pageOf(outcome: TestOutcome): string {
  return Object.entries(OUTCOME_PAGES).find(([, status]) => status === outcome)?.[0] ?? 'security';
}

/** Whether the admin using the tool may sign for real attempts (holds the right to reconcile them). */
interface Signer {
  realAttempts: boolean;
}

/**
 * The signed return URL and callback for an outcome; `origin` is this site (`https://example.com`).
 * Without a rid the tool makes a test one.
 */
export function buildTestReturn(provider: ProviderRow, secret: string, outcome: TestOutcome, given: string | undefined, origin: string, signer: Signer): BuiltReturn {
  const rid = given ?? newTestRid();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(rid)) throw errors.providerTestRidInvalid();
  if (!isTestRid(rid) && !signer.realAttempts) throw errors.providerTestRidNotTest();
  if (recipeFor(provider).key !== 'none' && secret === '') throw errors.providerTestNoSecret();
  const status = exitCodeFor(provider, outcome);
  return {
    outcome,
    rid,
    redirect: signedRequest(provider, secret, origin, `/${pageOf(outcome)}`, [[provider.rid_param, rid]]),
    callback: {
      ...signedRequest(provider, secret, origin, `${CALLBACK_PREFIX}${encode(provider.code)}`, [[provider.rid_param, rid], [provider.status_param, status]]),
      method: 'GET',
      status,
    },
  };
}

type ParameterRole = 'rid' | 'status' | 'signature' | 'other';

interface CheckedParameter {
  name: string;
  value: string;
  role: ParameterRole;
}

interface ReturnCheck {
  /** the signature verifies exactly as a real return's would, and nothing else is wrong */
  ok: boolean;
  signatureValid: boolean;
  kind: 'redirect' | 'callback' | 'unknown';
  /** what a real return with this URL would record, when it verifies */
  outcome?: FinalStatus;
  signedText: string;
  expectedSignature: string;
  receivedSignature: string;
  parameters: CheckedParameter[];
  /** what is wrong, each a translatable message */
  problems: ApiError[];
  /** what would go wrong later although the URL itself is right (an unknown rid) */
  warnings: ApiError[];
}

/** `path` and the raw query of a pasted URL (a whole address, or a path starting with `/`). */
function splitPastedUrl(pasted: string): { origin: string; path: string; query: string } {
  const text = pasted.trim().replace(/#.*$/, '');
  let origin = '';
  let rest = text;
  const absolute = /^(https?:\/\/[^/?#\s]+)(.*)$/i.exec(text);
  if (absolute) {
    origin = absolute[1];
    rest = absolute[2] || '/';
  }
  if (!rest.startsWith('/') || /\s/.test(rest)) throw errors.providerTestUrlInvalid();
  const mark = rest.indexOf('?');
  return mark < 0 ? { origin, path: rest, query: '' } : { origin, path: rest.slice(0, mark), query: rest.slice(mark + 1) };
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Texts a provider commonly signs by mistake, and the message naming each mistake. */
function misreadings(origin: string, path: string, text: string): { text: string; problem: () => ApiError }[] {
  const query = text.includes('?') ? text.slice(text.indexOf('?') + 1) : '';
  const sorted = query.split('&').filter(Boolean).sort().join('&');
  return [
    // The address as pasted, and with the other scheme (signed before a proxy changed it).
    ...(origin
      ? [`${origin}${text}`, `${origin.replace(/^https?:/i, (scheme) => (scheme.toLowerCase() === 'https:' ? 'http:' : 'https:'))}${text}`].map((whole) => ({ text: whole, problem: () => errors.providerTestSignedWithHost(text) }))
      : []),
    { text: query, problem: () => errors.providerTestSignedQueryOnly(text) },
    { text: `${path}?${sorted}`, problem: () => errors.providerTestSignedSorted(text) },
    { text: decodeOr(text), problem: () => errors.providerTestSignedDecoded(text) },
  ].filter((candidate) => candidate.text !== text);
}

/**
 * What a signature that does not verify was made of: another algorithm, or a text other than the one
 * signed (the host included, the query alone, sorted or decoded). Only the provider's secret is tried.
 */
function diagnoseSignature(recipe: SignatureRecipe, secret: string, origin: string, path: string, text: string, received: string, labels: AlgorithmLabels): ApiError {
  const given = received.toLowerCase();
  for (const key of ['hmac', 'append', 'prepend'] as const) {
    for (const algorithm of RECIPE_ALGORITHMS) {
      const other: SignatureRecipe = { ...recipe, key, algorithm, ...(key === 'hmac' ? {} : { keySeparator: recipe.keySeparator ?? '' }) };
      if ((key !== recipe.key || algorithm !== recipe.algorithm) && computeSignature(other, secret, text).toLowerCase() === given) {
        return errors.providerTestOtherAlgorithm(labels(other), labels(recipe));
      }
    }
  }
  for (const candidate of misreadings(origin, path, text)) {
    if (computeSignature(recipe, secret, candidate.text).toLowerCase() === given) return candidate.problem();
  }
  const expectedLength = computeSignature(recipe, secret, text).length;
  if (given.length !== expectedLength) return errors.providerTestSignatureShape(given.length, labels(recipe), expectedLength);
  return errors.providerTestSignatureMismatch(text);
}

/** How the test tool names a recipe's hashing: "HMAC-SHA256", "MD5 with the secret appended". */
export type AlgorithmLabels = (recipe: Pick<SignatureRecipe, 'key' | 'algorithm'>) => LocalText;

/**
 * Whether any value of the query is the rid of an attempt, under whatever parameter name: a return
 * finds its attempt through the rid parameter of any provider, so the name alone proves nothing.
 */
async function namesRealAttempt(db: Db, params: URLSearchParams): Promise<boolean> {
  const rids = [...new Set(params.values())].filter((value) => value !== '' && value.length <= 64 && !isTestRid(value));
  if (rids.length === 0) return false;
  return (await db.selectFrom('survey_participation').select('id').where('rid', 'in', rids).limit(1).executeTakeFirst()) !== undefined;
}

/** Check a pasted return URL or callback as a real one would be checked, and say what is wrong. */
export async function checkTestReturn(db: Db, provider: ProviderRow, secret: string, pasted: string, signer: Signer, labels: AlgorithmLabels): Promise<ReturnCheck> {
  if (pasted.trim() === '') throw errors.providerTestUrlMissing();
  if (pasted.length > MAX_TEST_URL) throw errors.providerTestUrlInvalid();
  const { origin, path, query } = splitPastedUrl(pasted);
  const problems: ApiError[] = [];
  const warnings: ApiError[] = [];
  const params = new URLSearchParams(query);
  const recipe = recipeFor(provider);
  const parameters: CheckedParameter[] = [...params].map(([name, value]) => ({
    name, value,
    role: name === provider.sig_param && recipe.key !== 'none' ? 'signature' : name === provider.rid_param ? 'rid' : name === provider.status_param ? 'status' : 'other',
  }));

  const page = path.replace(/^\//, '');
  let kind: ReturnCheck['kind'] = 'unknown';
  let reported: FinalStatus | undefined;
  if (OUTCOME_PAGES[page]) {
    kind = 'redirect';
    reported = OUTCOME_PAGES[page];
  } else if (path.startsWith(CALLBACK_PREFIX)) {
    kind = 'callback';
    const code = decodeOr(path.slice(CALLBACK_PREFIX.length));
    if (code !== provider.code) problems.push(errors.providerTestOtherProvider(code, provider.code));
  } else {
    problems.push(errors.providerTestUnknownPath(path, provider.code));
  }

  const rid = params.get(provider.rid_param);
  if (rid === null || rid === '') {
    const elsewhere = ['rid', 'RID', 'uid', 'transaction_id', 'session'].find((name) => name !== provider.rid_param && params.get(name));
    problems.push(elsewhere ? errors.providerTestRidElsewhere(provider.rid_param, elsewhere) : errors.providerTestRidMissing(provider.rid_param));
  } else if (isTestRid(rid)) {
    warnings.push(errors.providerTestRidIsTest(rid));
  } else {
    const participation = await findParticipationByRid(db, rid);
    if (!participation) warnings.push(errors.providerTestRidUnknown(rid));
    else {
      const survey = await db.selectFrom('survey').select('provider_id').where('id', '=', participation.survey_id).executeTakeFirst();
      if (Number(survey?.provider_id) !== Number(provider.id)) warnings.push(errors.providerTestRidOtherProvider(rid));
    }
  }

  const status = params.get(provider.status_param);
  if (status !== null) {
    const mapped = mapProviderStatus(provider, status);
    // A callback with an unknown status is refused; an outcome page then reports its own outcome.
    if (!mapped) (kind === 'callback' ? problems : warnings).push(errors.providerTestStatusUnknown(provider.status_param, status));
    else if (kind !== 'unknown') reported = mapped;
  } else if (kind === 'callback') {
    problems.push(errors.providerTestStatusMissing(provider.status_param));
  }

  // The verdict is the one a real return gets: the same function, on the same request.
  const pastedRequest = getRequest(origin, path, query);
  const verdict = verifyRequest(recipe, secret, provider.sig_param, pastedRequest, nowSeconds());
  const text = verdict.signedText;
  const signature = verdict.received;
  let expectedSignature = '';
  let signatureValid = true;
  if (recipe.key !== 'none') {
    if (secret === '') throw errors.providerTestNoSecret();
    if (signer.realAttempts || !(await namesRealAttempt(db, params))) expectedSignature = verdict.expected;
    else warnings.push(errors.providerTestSignatureWithheld());
    signatureValid = verdict.ok;
    if (signature === '') {
      problems.push(errors.providerTestSignatureMissing(provider.sig_param));
    } else if (!signatureValid) {
      problems.push(diagnoseSignature(recipe, secret, origin, path, text, signature, labels));
    }
  }
  return {
    ok: problems.length === 0 && signatureValid,
    signatureValid,
    kind,
    ...(reported ? { outcome: signatureValid ? reported : 'security' } : {}),
    signedText: text,
    expectedSignature,
    receivedSignature: signature,
    parameters,
    problems,
    warnings,
  };
}
