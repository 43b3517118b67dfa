import { REPORTED_STATUSES } from './outcomes.js';

/**
 * What the provider screens and the server say to each other beyond the generic resource calls
 * (`survey.Provider/presets`, `survey.Provider/testReturn`, the addresses an edit row carries): shared by
 * the server, which answers them, and the back office, which draws them. The recipe and the reversal rule
 * are the JSON columns `signature` and `reversal` of a provider (docs/survey-domain.md#signatures).
 */

/** What a recipe signs. */
export const RECIPE_TEXTS = ['url', 'path_query', 'query', 'sorted_query', 'canonical_query', 'values', 'template', 'body'] as const;
/** How the secret goes in: HMAC key, a chain of HMACs keyed in turn, after the text, before it, or nothing checked (tests only). */
export const RECIPE_KEYS = ['hmac', 'hmac_chain', 'append', 'prepend', 'none'] as const;
export const RECIPE_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export const RECIPE_ENCODINGS = ['hex', 'base64', 'base64url'] as const;
/** Where the signature travels; its name is the provider's `sig_param`. */
export const RECIPE_PLACES = ['query', 'field', 'header'] as const;
/**
 * How the signature is cut out of a signed query or form body: its pair and one `&`; its pair but the `&`
 * before it kept; its value only (`sig=` kept).
 */
export const RECIPE_CUTS = ['pair', 'keep_separator', 'value'] as const;
export const EXPIRY_PLACES = ['query', 'header'] as const;
/** Seconds or milliseconds since 1970, or an RFC 3339 date and time. */
export const EXPIRY_UNITS = ['s', 'ms', 'rfc3339'] as const;
/** When the request was made (within a skew either way), or until when it is good. */
export const EXPIRY_KINDS = ['timestamp', 'deadline'] as const;
/** Where a key of an HMAC chain comes from: the secret, a request parameter, a header. */
export const CHAIN_SOURCES = ['secret', 'query', 'header'] as const;

type RecipeText = (typeof RECIPE_TEXTS)[number];
type RecipeKey = (typeof RECIPE_KEYS)[number];
type RecipeAlgorithm = (typeof RECIPE_ALGORITHMS)[number];
type RecipeEncoding = (typeof RECIPE_ENCODINGS)[number];
type RecipePlace = (typeof RECIPE_PLACES)[number];
type RecipeCut = (typeof RECIPE_CUTS)[number];

export interface RecipeExpiry {
  in: (typeof EXPIRY_PLACES)[number];
  name: string;
  unit: (typeof EXPIRY_UNITS)[number];
  /** absent: timestamp */
  kind?: (typeof EXPIRY_KINDS)[number];
  skewSeconds: number;
}

export type RecipeChainKey = { in: 'secret' } | { in: 'query' | 'header'; name: string };

/** The `signature` column as the wire carries it. */
export interface RecipeValue {
  text: RecipeText;
  names?: string[];
  separator?: string;
  template?: string;
  /** the text replaced by the hex of its hash before keying; absent: the text itself */
  textHash?: RecipeAlgorithm;
  key: RecipeKey;
  keySeparator?: string;
  /** key=hmac_chain only */
  chain?: RecipeChainKey[];
  algorithm: RecipeAlgorithm;
  encoding: RecipeEncoding;
  in: RecipePlace;
  /** in=query|field only; absent: `pair` */
  cut?: RecipeCut;
  /** other names of the signature, tried after `sig_param` */
  signatureAliases?: string[];
  expiry: RecipeExpiry | null;
}

export const REVERSAL_KINDS = ['none', 'negative_amount', 'status', 'flag', 'prefix'] as const;
type ReversalKind = (typeof REVERSAL_KINDS)[number];

/** The `reversal` column: how the provider says a credited transaction is taken back. */
export interface ReversalValue {
  by: ReversalKind;
  param?: string;
  /** a list for `status` when several codes mean a reversal */
  value?: string | string[];
}

/** One entry of `GET survey.Provider/presets` (`{list}`), in the reader's language. */
export interface ProviderPreset {
  id: string;
  version: number;
  kind: 'project' | 'wall';
  title: string;
  source: { document: string; url: string; date: string };
  /** what to set up at the provider; `{{column}}` stands for that column's value on the form, `{{exit:<outcome>}}` for the exit codes mapped to it (see `presetNotesFor`) */
  notes: string;
  /** values for the provider's columns; a column left out takes its default */
  fields: Record<string, unknown>;
}

/** The addresses an edit row of a provider carries (`survey.Provider/edit?id=`), to hand to the provider. */
export interface ProviderAddresses {
  callback_url?: string;
  /** project providers: outcome → the exit URL with the provider's respondent-id macro */
  exit_urls?: Record<string, string>;
}

/** Outcomes the test tool builds: the four a provider reports, and a reversal of a credited one. */
export const TOOL_OUTCOMES = [...REPORTED_STATUSES, 'reversal'] as const;
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number];

/** `testReturn {id, mode: 'build' | 'send', outcome, …}`: what to build. */
export interface ToolBuildInput {
  outcome: ToolOutcome;
  /** project providers: the attempt's rid (blank: a new test rid) */
  rid?: string;
  /** wall providers: our member id (blank: a new test member id) */
  member?: string;
  /** wall providers: the amount as the provider writes it (its `amount_in`) */
  amount?: string;
  /** wall providers: the provider's transaction id (blank: a new test one) */
  transaction?: string;
}

/** A request as the provider would send it, signed with the provider's recipe and secret. */
export interface ToolRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
  /** the text the signature is made of */
  signedText: string;
  /** empty when the provider's recipe checks nothing */
  signature: string;
}

/** `testReturn {mode: 'build'}`'s answer. */
export interface ToolBuilt {
  providerKind: 'project' | 'wall';
  outcome: ToolOutcome;
  /** project: the rid signed; wall: the member id */
  rid?: string;
  member?: string;
  transaction?: string;
  amount?: string;
  /** project providers: the outcome page the member's browser is sent back to */
  redirect?: ToolRequest;
  /** the provider's call to our callback address; `status` is the provider's code sent with it */
  callback: ToolRequest & { status: string };
  /** what the operator should know about these requests (a return page that records nothing …), translated */
  notes: string[];
}

/** `testReturn {mode: 'send'}`'s answer: the test callback and what our endpoint answered. */
export interface ToolSent {
  request: ToolRequest;
  response: { status: number; contentType: string; body: string };
}

export type ParameterRole = 'rid' | 'member' | 'status' | 'amount' | 'transaction' | 'signature' | 'timestamp' | 'other';

/** The verdict of the very check the callback endpoint makes, or why there was none. */
export type ToolVerdict = 'ok' | 'missing' | 'wrong' | 'expired' | 'no_secret' | 'unsigned';

/** `testReturn {mode: 'check', url, method?, headers?, body?}`'s answer. */
export interface ToolCheck {
  /** the signature verifies exactly as a real request's would, and nothing else is wrong */
  ok: boolean;
  signatureValid: boolean;
  verdict: ToolVerdict;
  /** what the pasted address is */
  kind: 'redirect' | 'callback' | 'unknown';
  /** what a real request like it would record, when it verifies */
  outcome?: string;
  signedText: string;
  /** empty when withheld (a real attempt, without the right to reconcile) or when nothing is signed */
  expectedSignature: string;
  receivedSignature: string;
  parameters: { name: string; value: string; role: ParameterRole }[];
  /** what is wrong, translated; a wrong signature's diagnosis among them */
  problems: string[];
  /** what would go wrong later although the request itself is right, translated */
  warnings: string[];
}

/** A `{{column}}` in a preset's notes: the notes name the parameters the operator may rename. */
const NOTE_COLUMN = /\{\{([a-z_]+)\}\}/g;

/** An `{{exit:<outcome>}}` in a preset's notes: the provider's codes that the exit map gives that outcome. */
const NOTE_EXIT_CODES = /\{\{exit:([a-z]+)\}\}/g;

/** The codes an exit map (`{code: outcome}`, as the form holds it) gives `outcome`, in its order. */
function exitCodesOf(exitMap: unknown, outcome: string): string[] {
  return typeof exitMap === 'object' && exitMap !== null && !Array.isArray(exitMap) ? Object.entries(exitMap).filter(([, mapped]) => mapped === outcome).map(([code]) => code) : [];
}

/**
 * A preset's notes with each `{{column}}` replaced by that column's value as the form holds it now, and each
 * `{{exit:<outcome>}}` by the codes the form's exit map gives that outcome (several joined by "/"), so that
 * the instructions say the same names and codes as the form and the addresses shown under them; a column
 * left empty, or an outcome no code maps to, reads "…".
 */
export function presetNotesFor(notes: string, values: Record<string, unknown>): string {
  return notes
    .replace(NOTE_EXIT_CODES, (_whole, outcome: string) => exitCodesOf(values.exit_map, outcome).join('/') || '…')
    .replace(NOTE_COLUMN, (_whole, column: string) => {
      const value = values[column];
      return typeof value === 'string' && value !== '' ? value : '…';
    });
}
