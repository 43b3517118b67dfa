import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from '../../errors.js';
import { isOneOf, isRecord } from '../../../contract/checks.js';

/**
 * Signature recipes: how a provider signs what it sends us, written as data (the provider's `signature`
 * column, and `fields.signature` of a preset in provider-presets/). A recipe says which text is signed,
 * how the secret keys the hash, which hash, how the result is written, where it travels, and whether a
 * timestamp limits how long a request stays good. See docs/survey-domain.md#signatures.
 *
 * Everything here is pure: a request comes in as a `SignedRequestInput` (the raw parts as received), and
 * nothing is read from the database or the clock.
 */

export const RECIPE_TEXTS = ['url', 'path_query', 'query', 'sorted_query', 'canonical_query', 'values', 'template', 'body'] as const;
const RECIPE_CUTS = ['pair', 'keep_separator', 'value'] as const;
export const RECIPE_KEYS = ['hmac', 'hmac_chain', 'append', 'prepend', 'none'] as const;
export const RECIPE_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export const RECIPE_ENCODINGS = ['hex', 'base64', 'base64url'] as const;
export const RECIPE_LOCATIONS = ['query', 'field', 'header'] as const;
const EXPIRY_LOCATIONS = ['query', 'header'] as const;
const EXPIRY_UNITS = ['s', 'ms', 'rfc3339'] as const;
const EXPIRY_KINDS = ['timestamp', 'deadline'] as const;
const CHAIN_SOURCES = ['secret', 'query', 'header'] as const;

/** A time the provider sends with the request: when it was signed (close to our clock), or until when it is good. */
interface SignatureExpiry {
  /** `query`: a parameter of the request (the query, then a form or JSON body field); `header`: a header */
  in: (typeof EXPIRY_LOCATIONS)[number];
  name: string;
  /** how the time is written: seconds or milliseconds since 1970, or an RFC 3339 date and time (`2026-01-01T00:05:00.000Z`) */
  unit: (typeof EXPIRY_UNITS)[number];
  /**
   * `timestamp` (absent: the same): when the request was made, good while within `skewSeconds` of our clock
   * either way; `deadline`: until when it is good, refused once our clock reaches it, and refused too when it
   * lies more than `skewSeconds` ahead (a request good for ever could be replayed for ever)
   */
  kind?: (typeof EXPIRY_KINDS)[number];
  skewSeconds: number;
}

/** One key of an HMAC chain: the provider's secret, or a value the request carries (a parameter or a header). */
type ChainKey = { in: 'secret' } | { in: 'query' | 'header'; name: string };

export interface SignatureRecipe {
  /**
   * What is signed (the signature itself taken out where it sits, when it travels in the query or a form field):
   * - `url`: public origin + path + `?` + query as received (no `?` when nothing remains);
   * - `path_query`: the same without the origin;
   * - `query`: the query alone;
   * - `sorted_query`: the query's pairs sorted by decoded name (stable, byte order), each kept as received, joined by `&`;
   * - `canonical_query`: the query's pairs decoded, sorted by name then value (byte order), each name and value
   *   encoded again the one way (letters, digits and `-_.~` kept, a space as `+`, any other byte `%XX`), joined by `&`:
   *   the same text however the sender escaped its query;
   * - `values`: the decoded values of `names`, missing ones empty, joined by `separator`;
   * - `template`: `template` with each `{name}` replaced by that decoded parameter value (missing = empty);
   * - `body`: the raw body as received.
   */
  text: (typeof RECIPE_TEXTS)[number];
  /** text=values only: parameter names in signing order */
  names?: string[];
  /** text=values only: joins the values ("" allowed) */
  separator?: string;
  /** text=template only: literal text with {name} placeholders */
  template?: string;
  /**
   * The text is first replaced by the lowercase hex of its own hash with this algorithm, and that is what
   * is keyed (a provider that signs "the SHA-256 of the body"). Absent: the text itself.
   */
  textHash?: (typeof RECIPE_ALGORITHMS)[number];
  /**
   * hmac: HMAC keyed by the secret; hmac_chain: HMACs one after the other, each keyed by the next of `chain`
   * over the lowercase hex of the one before (the first over the text); append: hash(text + keySeparator +
   * secret); prepend: hash(secret + keySeparator + text); none: nothing checked (tests only)
   */
  key: (typeof RECIPE_KEYS)[number];
  /** key=append/prepend only: put between the text and the secret */
  keySeparator?: string;
  /** key=hmac_chain only: the keys in turn, 2 to 4, the secret among them */
  chain?: ChainKey[];
  algorithm: (typeof RECIPE_ALGORITHMS)[number];
  /** base64url is without padding; hex is compared case-insensitively */
  encoding: (typeof RECIPE_ENCODINGS)[number];
  /**
   * How the signature is cut out of what is signed when it travels in the query or a form field: `pair` (its
   * pair and one `&`), `keep_separator` (its pair and the `&` after it: the `&` before it stays, for providers
   * that sign the URL up to and including that `&`), `value` (its value only: `sig=` stays, for providers that
   * sign the URL with the signature left empty). Absent: `pair`.
   */
  cut?: (typeof RECIPE_CUTS)[number];
  /** where the signature travels; its name is the provider's `sig_param` (a header name is matched case-insensitively) */
  in: (typeof RECIPE_LOCATIONS)[number];
  /**
   * Other names the signature may travel under, for a provider that names it differently in some requests
   * (PureSpectrum: `asr_s_hash` on completes, `ps_s_hash` on reconciliations). `sig_param` is looked for
   * first, then these in order: the first present is the signature, and only it is cut out of the text.
   */
  signatureAliases?: string[];
  expiry: SignatureExpiry | null;
}

/** A request as received, raw: what a recipe reads. */
export interface SignedRequestInput {
  method: string;
  /** `scheme://host[:port]`, the public origin the provider called */
  origin: string;
  path: string;
  /** raw, without `?` */
  query: string;
  /** lower-case names */
  headers: Record<string, string>;
  /** raw */
  body: string;
  contentType: string;
}

/** `missing` covers a key of an HMAC chain the request does not carry, as it covers the signature itself. */
type SignatureFailure = 'missing' | 'wrong' | 'expired' | 'no_secret';

/** What was compared, for the test tool to show. `expected` is empty when there is no secret (or for key=none). */
interface SignatureExplanation {
  signedText: string;
  expected: string;
  received: string;
}

export type SignatureVerification = ({ ok: true } | { ok: false; failure: SignatureFailure }) & SignatureExplanation;

// ---------------------------------------------------------------------------------------------------------
// Reading a recipe

/** A parameter, header or placeholder name a recipe may hold. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_.\-[\]]{0,63}$/;
const MAX_SEPARATOR = 8;
const MAX_NAMES = 32;
const MAX_TEMPLATE = 1000;
const MAX_SKEW_SECONDS = 86_400;
const MAX_ALIASES = 4;
const MIN_CHAIN = 2;
const MAX_CHAIN = 4;
const RECIPE_PARTS = ['text', 'names', 'separator', 'template', 'textHash', 'key', 'keySeparator', 'chain', 'algorithm', 'encoding', 'in', 'cut', 'signatureAliases', 'expiry'];
const EXPIRY_PARTS = ['in', 'name', 'unit', 'kind', 'skewSeconds'];
/** `{name}` in a template */
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Whether `name` may name a parameter, header or placeholder in a recipe (and a provider's parameter columns). */
export function isParameterName(name: string): boolean {
  return PARAMETER_NAME.test(name);
}

function choice<T extends string>(source: Record<string, unknown>, part: string, allowed: readonly T[], prefix = ''): T {
  const value = source[part];
  if (value === undefined) throw errors.signatureRecipeMissing(prefix + part);
  if (!isOneOf(allowed, value)) throw errors.signatureRecipeChoice(prefix + part, allowed.join(', '));
  return value;
}

function parameterName(value: unknown, part: string): string {
  if (typeof value !== 'string' || !PARAMETER_NAME.test(value)) throw errors.signatureRecipeName(part);
  return value;
}

function shortText(value: unknown, part: string): string {
  if (value === undefined) return '';
  if (typeof value !== 'string' || value.length > MAX_SEPARATOR) throw errors.signatureRecipeText(part, MAX_SEPARATOR);
  return value;
}

/** The placeholders of a template, refusing any `{` or `}` that does not enclose a parameter name. */
function templateNames(template: string): string[] {
  const names: string[] = [];
  const rest = template.replace(PLACEHOLDER, (_whole, name: string) => {
    if (!PARAMETER_NAME.test(name)) throw errors.signatureRecipeTemplate(MAX_TEMPLATE);
    names.push(name);
    return '';
  });
  if (names.length === 0 || /[{}]/.test(rest)) throw errors.signatureRecipeTemplate(MAX_TEMPLATE);
  return names;
}

function parseExpiry(value: unknown): SignatureExpiry | null {
  if (value === undefined || value === null) return null;
  if (!isRecord(value)) throw errors.signatureRecipeExpiry();
  for (const part of Object.keys(value)) if (!EXPIRY_PARTS.includes(part)) throw errors.signatureRecipeUnknownPart(`expiry.${part}`);
  const location = choice(value, 'in', EXPIRY_LOCATIONS, 'expiry.');
  if (value.name === undefined) throw errors.signatureRecipeMissing('expiry.name');
  const name = parameterName(value.name, 'expiry.name');
  const unit = choice(value, 'unit', EXPIRY_UNITS, 'expiry.');
  const skew = value.skewSeconds;
  if (skew === undefined) throw errors.signatureRecipeMissing('expiry.skewSeconds');
  if (typeof skew !== 'number' || !Number.isInteger(skew) || skew < 1 || skew > MAX_SKEW_SECONDS) throw errors.signatureRecipeNumber('expiry.skewSeconds', 1, MAX_SKEW_SECONDS);
  // A timestamp is the usual kind and is written without it.
  const kind = value.kind === undefined ? 'timestamp' : choice(value, 'kind', EXPIRY_KINDS, 'expiry.');
  return { in: location, name, unit, ...(kind === 'deadline' ? { kind } : {}), skewSeconds: skew };
}

/** The keys of an HMAC chain: 2 to 4, each the secret or a named parameter or header, the secret at least once. */
function parseChain(value: unknown): ChainKey[] {
  if (value === undefined) throw errors.signatureRecipeMissing('chain');
  if (!Array.isArray(value) || value.length < MIN_CHAIN || value.length > MAX_CHAIN) throw errors.signatureRecipeChain(MIN_CHAIN, MAX_CHAIN);
  const chain = value.map((step: unknown, index): ChainKey => {
    const part = `chain[${index}]`;
    if (!isRecord(step)) throw errors.signatureRecipeChain(MIN_CHAIN, MAX_CHAIN);
    const source = choice(step, 'in', CHAIN_SOURCES, `${part}.`);
    for (const name of Object.keys(step)) if (name !== 'in' && (name !== 'name' || source === 'secret')) throw errors.signatureRecipeUnknownPart(`${part}.${name}`);
    if (source === 'secret') return { in: 'secret' };
    if (step.name === undefined) throw errors.signatureRecipeMissing(`${part}.name`);
    return { in: source, name: parameterName(step.name, `${part}.name`) };
  });
  // Without the secret anyone could sign.
  if (!chain.some((step) => step.in === 'secret')) throw errors.signatureRecipeChain(MIN_CHAIN, MAX_CHAIN);
  return chain;
}

/**
 * A recipe checked part by part, as a fresh object holding exactly the parts its text and key use (the
 * optional separators filled in with ""); a bad recipe throws the ApiError naming the part. A part that
 * belongs to another text or key (`names` with text=url) is refused rather than kept unused.
 *
 * Every combination of text and location is accepted, but one cannot work for every request: a signature
 * in a body field (in=field) with text=body can be cut out of a form body only. A JSON body cannot be
 * signed that way, and such a request is answered `missing` when verified: put the signature in a header.
 */
export function parseRecipe(value: unknown): SignatureRecipe {
  if (!isRecord(value)) throw errors.signatureRecipeNotObject();
  for (const part of Object.keys(value)) if (!RECIPE_PARTS.includes(part)) throw errors.signatureRecipeUnknownPart(part);
  const text = choice(value, 'text', RECIPE_TEXTS);
  const key = choice(value, 'key', RECIPE_KEYS);
  const recipe: SignatureRecipe = { text, key, algorithm: choice(value, 'algorithm', RECIPE_ALGORITHMS), encoding: choice(value, 'encoding', RECIPE_ENCODINGS), in: choice(value, 'in', RECIPE_LOCATIONS), expiry: parseExpiry(value.expiry) };

  if (text === 'values') {
    const names = value.names;
    if (names === undefined) throw errors.signatureRecipeMissing('names');
    if (!Array.isArray(names) || names.length === 0 || names.length > MAX_NAMES) throw errors.signatureRecipeNames(MAX_NAMES);
    recipe.names = names.map((name, index) => parameterName(name, `names[${index}]`));
    recipe.separator = shortText(value.separator, 'separator');
  } else {
    for (const part of ['names', 'separator']) if (value[part] !== undefined) throw errors.signatureRecipeNotUsed(part, 'text=values');
  }
  if (text === 'template') {
    const template = value.template;
    if (template === undefined) throw errors.signatureRecipeMissing('template');
    if (typeof template !== 'string' || template.length > MAX_TEMPLATE) throw errors.signatureRecipeTemplate(MAX_TEMPLATE);
    templateNames(template);
    recipe.template = template;
  } else if (value.template !== undefined) {
    throw errors.signatureRecipeNotUsed('template', 'text=template');
  }
  if (value.cut !== undefined) {
    if (recipe.in === 'header') throw errors.signatureRecipeNotUsed('cut', 'in=query|field');
    recipe.cut = choice(value, 'cut', RECIPE_CUTS);
  }
  if (key === 'append' || key === 'prepend') recipe.keySeparator = shortText(value.keySeparator, 'keySeparator');
  else if (value.keySeparator !== undefined) throw errors.signatureRecipeNotUsed('keySeparator', 'key=append|prepend');
  if (key === 'hmac_chain') recipe.chain = parseChain(value.chain);
  else if (value.chain !== undefined) throw errors.signatureRecipeNotUsed('chain', 'key=hmac_chain');
  if (value.textHash !== undefined) {
    if (key === 'none') throw errors.signatureRecipeNotUsed('textHash', 'key=hmac|hmac_chain|append|prepend');
    recipe.textHash = choice(value, 'textHash', RECIPE_ALGORITHMS);
  }
  if (value.signatureAliases !== undefined) {
    const aliases = value.signatureAliases;
    if (!Array.isArray(aliases) || aliases.length === 0 || aliases.length > MAX_ALIASES) throw errors.signatureRecipeAliases(MAX_ALIASES);
    recipe.signatureAliases = aliases.map((name, index) => parameterName(name, `signatureAliases[${index}]`));
  }
  return recipe;
}

/** The names of the old `sig_algo` column, each the same as one recipe. */
export const LEGACY_SIGNATURES = ['hmac_sha256', 'sha256_append', 'md5_append', 'none'] as const;

/**
 * The recipe equal to an old `sig_algo` value: the path and query as received, hex, signature in the query,
 * no timestamp. Undefined for any other name.
 */
export function legacyRecipe(name: string): SignatureRecipe | undefined {
  const base = { text: 'path_query', encoding: 'hex', in: 'query', expiry: null } as const;
  switch (name) {
    case 'hmac_sha256':
      return { ...base, key: 'hmac', algorithm: 'sha256' };
    case 'sha256_append':
      return { ...base, key: 'append', keySeparator: '', algorithm: 'sha256' };
    case 'md5_append':
      return { ...base, key: 'append', keySeparator: '', algorithm: 'md5' };
    case 'none':
      return { ...base, key: 'none', algorithm: 'sha256' };
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading a request

const FORM_TYPE = 'application/x-www-form-urlencoded';

function mediaType(contentType: string): string {
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

function isFormBody(request: SignedRequestInput): boolean {
  return mediaType(request.contentType) === FORM_TYPE;
}

function isJsonBody(request: SignedRequestInput): boolean {
  const type = mediaType(request.contentType);
  return type === 'application/json' || type.endsWith('+json');
}

/** Percent-decoding that keeps a malformed text as it is. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A pair's name or value as a form decodes it (`+` is a space). */
function formDecoded(text: string): string {
  return decoded(text.replace(/\+/g, ' '));
}

function pairName(pair: string): string {
  const equals = pair.indexOf('=');
  return formDecoded(equals < 0 ? pair : pair.slice(0, equals));
}

function pairValue(pair: string): string {
  const equals = pair.indexOf('=');
  return equals < 0 ? '' : formDecoded(pair.slice(equals + 1));
}

/**
 * The value of a signature pair. A `+` stays a `+` (not a space, as a form would have it): base64
 * signatures hold `+`, and providers often leave it unencoded.
 */
function signatureValue(pair: string): string {
  const equals = pair.indexOf('=');
  return equals < 0 ? '' : decoded(pair.slice(equals + 1));
}

/** The `&`-separated pieces of a query or form body, empty pieces included (they are part of the text as received). */
function pieces(text: string): string[] {
  return text.split('&');
}

/** The query or form body without every `name` pair and its `&`, everything else untouched. */
/** `text` (a query or form body) with the pairs named `name` cut out as `cut` says (see SignatureRecipe.cut). */
function withoutPair(text: string, name: string, cut: SignatureRecipe['cut'] = 'pair'): string {
  const parts = pieces(text);
  const isSignature = (pair: string) => pair !== '' && pairName(pair) === name;
  switch (cut) {
    case 'pair':
      return parts.filter((pair) => !isSignature(pair)).join('&');
    case 'value':
      return parts.map((pair) => (isSignature(pair) ? `${pair.split('=', 1)[0]}=` : pair)).join('&');
    case 'keep_separator':
      // Each piece but the last brings the `&` after it; a signature pair brings nothing, so the `&` before it stays.
      return parts.map((pair, index) => (isSignature(pair) ? '' : index < parts.length - 1 ? `${pair}&` : pair)).join('');
  }
}

function firstPair(text: string, name: string): string | undefined {
  return pieces(text).find((pair) => pair !== '' && pairName(pair) === name);
}

const JSON_STRING = /"(?:[^"\\]|\\.)*"/y;
const JSON_NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The numbers of a JSON object's top level as written (`1.50` stays `1.50`, where JSON.parse would give
 * 1.5): a provider signs the text it sent. The body is known to be valid JSON.
 */
function topLevelNumbers(body: string): Map<string, string> {
  const numbers = new Map<string, string>();
  let depth = 0;
  let key: string | undefined;
  let awaitingValue = false;
  for (let index = 0; index < body.length; index++) {
    const char = body[index];
    if (char === '"') {
      JSON_STRING.lastIndex = index;
      const token = JSON_STRING.exec(body)?.[0] ?? '""';
      if (depth === 1 && !awaitingValue) key = JSON.parse(token) as string;
      if (depth === 1) awaitingValue = false;
      index += token.length - 1;
    } else if (char === ':' && depth === 1) {
      awaitingValue = true;
    } else if (char === '{' || char === '[') {
      depth++;
      awaitingValue = false;
    } else if (char === '}' || char === ']') {
      depth--;
    } else if (depth === 1 && awaitingValue && (char === '-' || (char >= '0' && char <= '9'))) {
      JSON_NUMBER.lastIndex = index;
      const token = JSON_NUMBER.exec(body)?.[0] ?? char;
      if (key !== undefined) numbers.set(key, token);
      index += token.length - 1;
      awaitingValue = false;
    } else if (awaitingValue && !/\s/.test(char)) {
      awaitingValue = false;
    }
  }
  return numbers;
}

/** The top-level string, number and boolean fields of a JSON object body, as text; undefined for any other body. */
function jsonFields(body: string): Map<string, string> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const numbers = topLevelNumbers(body);
  const fields = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') fields.set(name, value);
    else if (typeof value === 'boolean') fields.set(name, String(value));
    else if (typeof value === 'number') fields.set(name, numbers.get(name) ?? String(value));
  }
  return fields;
}

/** A field of the body: form pairs (decoded) or a JSON object's top-level field, whichever the content type says. */
function bodyField(request: SignedRequestInput, name: string): string | undefined {
  if (isFormBody(request)) {
    const pair = firstPair(request.body, name);
    return pair === undefined ? undefined : pairValue(pair);
  }
  if (isJsonBody(request)) return jsonFields(request.body)?.get(name);
  return undefined;
}

/**
 * A parameter of the request, decoded: the query first, then the body (a form's pair, or a JSON object's
 * top-level string, number or boolean field, as text). The first one wins when a name repeats.
 */
export function requestParameter(request: SignedRequestInput, name: string): string | undefined {
  const pair = firstPair(request.query, name);
  if (pair !== undefined) return pairValue(pair);
  return bodyField(request, name);
}

/** The signature the request carries where the recipe says, or undefined (an empty one counts as none). */
function receivedSignature(recipe: SignatureRecipe, sigParam: string, request: SignedRequestInput): string | undefined {
  let value: string | undefined;
  if (recipe.in === 'header') {
    value = request.headers[sigParam.toLowerCase()];
  } else if (recipe.in === 'query') {
    const pair = firstPair(request.query, sigParam);
    value = pair === undefined ? undefined : signatureValue(pair);
  } else if (isFormBody(request)) {
    const pair = firstPair(request.body, sigParam);
    value = pair === undefined ? undefined : signatureValue(pair);
  } else if (recipe.text !== 'body') {
    // A JSON body signed whole cannot carry its own signature: that request has none.
    value = bodyField(request, sigParam);
  }
  return value === undefined || value === '' ? undefined : value;
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A name or value written the one way text=canonical_query writes it: `-_.~`, letters and digits kept, a space as `+`, the rest `%XX`. */
function canonicalEncoded(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
}

/**
 * The name the signature travels under in this request: the provider's `sig_param`, else the first of the
 * recipe's `signatureAliases` the request carries where the recipe puts the signature; `sig_param` when none is.
 */
export function signatureNameIn(recipe: SignatureRecipe, sigParam: string, request: SignedRequestInput): string {
  for (const name of [sigParam, ...(recipe.signatureAliases ?? [])]) if (receivedSignature(recipe, name, request) !== undefined) return name;
  return sigParam;
}

/** Every name the signature may travel under: `sig_param`, then the recipe's aliases. */
export function signatureNames(recipe: SignatureRecipe | undefined, sigParam: string): string[] {
  return [sigParam, ...(recipe?.signatureAliases ?? [])];
}

/** The text the recipe signs for this request, the signature taken out where it sits. */
export function signedTextOf(recipe: SignatureRecipe, sigParam: string, request: SignedRequestInput): string {
  const query = recipe.in === 'query' ? withoutPair(request.query, sigParam, recipe.cut) : request.query;
  const parameter = (name: string) => requestParameter(request, name) ?? '';
  switch (recipe.text) {
    case 'url':
      return `${request.origin}${request.path}${query === '' ? '' : `?${query}`}`;
    case 'path_query':
      return `${request.path}${query === '' ? '' : `?${query}`}`;
    case 'query':
      return query;
    case 'sorted_query': {
      const pairs = pieces(query).filter((pair) => pair !== '');
      // Array.prototype.sort is stable: pairs of one name keep the order they came in.
      return pairs
        .map((pair) => ({ pair, name: pairName(pair) }))
        .sort((a, b) => byteOrder(a.name, b.name))
        .map(({ pair }) => pair)
        .join('&');
    }
    case 'canonical_query':
      return pieces(query)
        .filter((pair) => pair !== '')
        .map((pair) => ({ name: pairName(pair), value: pairValue(pair) }))
        .sort((a, b) => byteOrder(a.name, b.name) || byteOrder(a.value, b.value))
        .map(({ name, value }) => `${canonicalEncoded(name)}=${canonicalEncoded(value)}`)
        .join('&');
    case 'values':
      return (recipe.names ?? []).map(parameter).join(recipe.separator ?? '');
    case 'template':
      return (recipe.template ?? '').replace(PLACEHOLDER, (_whole, name: string) => parameter(name));
    case 'body':
      return recipe.in === 'field' && isFormBody(request) ? withoutPair(request.body, sigParam, recipe.cut) : request.body;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Signing and checking

/** The value each key of an HMAC chain takes in this request (the secret for `in: secret`); undefined where the request lacks one. */
export function chainKeysOf(recipe: SignatureRecipe, secret: string, request: SignedRequestInput): (string | undefined)[] {
  return (recipe.chain ?? []).map((step) => {
    if (step.in === 'secret') return secret;
    const value = step.in === 'header' ? request.headers[step.name.toLowerCase()] : requestParameter(request, step.name);
    return value === undefined || value === '' ? undefined : value;
  });
}

/**
 * The signature of `text` under the recipe and secret, written in the recipe's encoding ('' for key=none).
 * An HMAC chain takes its keys from `chainKeys` (`chainKeysOf`), a missing one as empty.
 */
export function computeSignature(recipe: SignatureRecipe, secret: string, text: string, chainKeys: readonly (string | undefined)[] = []): string {
  const separator = recipe.keySeparator ?? '';
  const keyed = recipe.textHash ? createHash(recipe.textHash).update(text, 'utf8').digest('hex') : text;
  let digest: Buffer;
  switch (recipe.key) {
    case 'none':
      return '';
    case 'hmac':
      digest = createHmac(recipe.algorithm, secret).update(keyed, 'utf8').digest();
      break;
    case 'hmac_chain': {
      // Each step keys the lowercase hex of the one before; the last is written in the recipe's encoding.
      let message = keyed;
      digest = Buffer.alloc(0);
      for (const [index] of (recipe.chain ?? []).entries()) {
        digest = createHmac(recipe.algorithm, chainKeys[index] ?? '').update(message, 'utf8').digest();
        message = digest.toString('hex');
      }
      break;
    }
    case 'append':
      digest = createHash(recipe.algorithm).update(keyed + separator + secret, 'utf8').digest();
      break;
    case 'prepend':
      digest = createHash(recipe.algorithm).update(secret + separator + keyed, 'utf8').digest();
      break;
  }
  return digest.toString(recipe.encoding);
}

/** The received signature in the form the expected one is written: hex in lower case, base64 with its `+` back. */
function comparable(encoding: SignatureRecipe['encoding'], signature: string): string {
  if (encoding === 'hex') return signature.toLowerCase();
  // a `+` read as a space by something on the way
  if (encoding === 'base64') return signature.replace(/ /g, '+');
  // base64url is written without padding; some senders pad it anyway
  return signature.replace(/=+$/, '');
}

/** Equal texts, in time that depends on their length only. */
function equalInConstantTime(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** An RFC 3339 date and time: a date, `T`, the time with optional fractions, and `Z` or an offset. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Seconds since 1970 of a time written as `unit` says, or undefined when it is not one. */
export function expirySeconds(unit: SignatureExpiry['unit'], raw: string): number | undefined {
  const text = raw.trim();
  if (unit !== 'rfc3339') {
    if (!/^\d{1,16}(?:\.\d{1,6})?$/.test(text)) return undefined;
    return unit === 'ms' ? Number(text) / 1000 : Number(text);
  }
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const utc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  const date = new Date(utc);
  // 2026-02-30 is no date: Date.UTC would roll it over.
  if (date.getUTCDate() !== Number(day) || date.getUTCMonth() !== Number(month) - 1 || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const offset = zone.toUpperCase() === 'Z' ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60;
  return utc / 1000 - offset + (fraction ? Number(fraction) : 0);
}

/** The time as written in the request, or undefined when it carries none. */
export function expiryText(expiry: SignatureExpiry, request: SignedRequestInput): string | undefined {
  return expiry.in === 'header' ? request.headers[expiry.name.toLowerCase()] : requestParameter(request, expiry.name);
}

/** The request's time in seconds, or undefined when it is absent or not written as the recipe says. */
function timestampOf(expiry: SignatureExpiry, request: SignedRequestInput): number | undefined {
  const raw = expiryText(expiry, request);
  return raw === undefined ? undefined : expirySeconds(expiry.unit, raw);
}

/** Whether a request with this time is good at `nowSeconds`: within the skew of a timestamp, before a deadline not too far ahead. */
function withinExpiry(expiry: SignatureExpiry, seconds: number, nowSeconds: number): boolean {
  if (expiry.kind === 'deadline') return nowSeconds < seconds && seconds - nowSeconds <= expiry.skewSeconds;
  return Math.abs(nowSeconds - seconds) <= expiry.skewSeconds;
}

/**
 * Whether the request is signed as the recipe says, and with what. In order: no secret → `no_secret`; no
 * signature where the recipe puts it (under `sig_param` or one of the recipe's aliases), or a key of an HMAC
 * chain the request lacks → `missing`; a signature that differs → `wrong`; then, for a recipe with expiry,
 * a time absent, unreadable or out of bounds (`withinExpiry`) → `expired` (so a right signature with a stale
 * time says expired, a wrong one says wrong). key=none checks nothing.
 */
export function verifyRequest(recipe: SignatureRecipe, secret: string, sigParam: string, request: SignedRequestInput, nowSeconds: number): SignatureVerification {
  const name = signatureNameIn(recipe, sigParam, request);
  const signedText = signedTextOf(recipe, name, request);
  const received = receivedSignature(recipe, name, request);
  const explanation = { signedText, received: received ?? '' };
  if (recipe.key === 'none') return { ok: true, ...explanation, expected: '' };
  if (secret === '') return { ok: false, failure: 'no_secret', ...explanation, expected: '' };
  const keys = chainKeysOf(recipe, secret, request);
  const expected = computeSignature(recipe, secret, signedText, keys);
  if (received === undefined || keys.includes(undefined)) return { ok: false, failure: 'missing', ...explanation, expected };
  if (!equalInConstantTime(expected, comparable(recipe.encoding, received))) return { ok: false, failure: 'wrong', ...explanation, expected };
  if (recipe.expiry) {
    const seconds = timestampOf(recipe.expiry, request);
    if (seconds === undefined || !withinExpiry(recipe.expiry, seconds, nowSeconds)) return { ok: false, failure: 'expired', ...explanation, expected };
  }
  return { ok: true, ...explanation, expected };
}

function appendPair(text: string, name: string, value: string): string {
  const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  return text === '' ? pair : `${text}&${pair}`;
}

/** A JSON object body with one more top-level string field, the rest of its text untouched. */
function withJsonField(body: string, name: string, value: string): string {
  const fields = jsonFields(body);
  const end = body.lastIndexOf('}');
  if (!fields || end < 0) return JSON.stringify({ [name]: value });
  const hasMembers = body.slice(body.indexOf('{') + 1, end).trim() !== '';
  return `${body.slice(0, end)}${hasMembers ? ',' : ''}${JSON.stringify(name)}:${JSON.stringify(value)}${body.slice(end)}`;
}

/**
 * The request signed as the recipe says (a copy): the signature appended to the query (`&sig=…` at its
 * end), appended to a form body (an empty body becomes a form), added to a JSON object body, or set as a
 * header. Any signature it had is taken out first, so signing twice gives one signature. What the tests and
 * the test tool use to build a valid callback. A JSON body with text=body and in=field gets its field, but
 * such a request cannot verify (see parseRecipe).
 */
export function signRequest(recipe: SignatureRecipe, secret: string, sigParam: string, request: SignedRequestInput): SignedRequestInput {
  const unsigned: SignedRequestInput = { ...request, headers: { ...request.headers } };
  if (recipe.in === 'query') unsigned.query = withoutPair(request.query, sigParam);
  if (recipe.in === 'header') delete unsigned.headers[sigParam.toLowerCase()];
  if (recipe.in === 'field' && isFormBody(request)) unsigned.body = withoutPair(request.body, sigParam);
  // The text is read off the request as it will be sent, an empty signature standing where the real one goes,
  // so a recipe that keeps the `&` before the signature, or its `name=`, signs what the receiver will cut.
  const placed = { ...unsigned };
  if (recipe.in === 'query') placed.query = appendPair(unsigned.query, sigParam, '');
  if (recipe.in === 'field' && (isFormBody(unsigned) || unsigned.body === '')) placed.body = appendPair(unsigned.body, sigParam, '');
  const signature = computeSignature(recipe, secret, signedTextOf(recipe, sigParam, placed), chainKeysOf(recipe, secret, placed));
  switch (recipe.in) {
    case 'query':
      return { ...unsigned, query: appendPair(unsigned.query, sigParam, signature) };
    case 'header':
      return { ...unsigned, headers: { ...unsigned.headers, [sigParam.toLowerCase()]: signature } };
    case 'field':
      if (isJsonBody(unsigned)) return { ...unsigned, body: withJsonField(unsigned.body, sigParam, signature) };
      if (isFormBody(unsigned) || unsigned.body === '') return { ...unsigned, contentType: unsigned.contentType || FORM_TYPE, body: appendPair(unsigned.body, sigParam, signature) };
      throw new Error(`signRequest: a ${unsigned.contentType || 'body without a content type'} cannot carry the signature field ${sigParam}`);
  }
}
