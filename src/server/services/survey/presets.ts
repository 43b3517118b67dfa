import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../errors.js';
import { isParameterName, legacyRecipe, parseRecipe, type SignatureRecipe, type SignedRequestInput } from './signature-recipe.js';
import { isTransactionParam } from './transaction-ids.js';
import { isOneOf, isRecord, messageOf } from '../../../contract/checks.js';
import { REPORTED_STATUSES, type ReportedStatus } from '../../../contract/outcomes.js';

/**
 * Provider presets: `provider-presets/<id>.json` at the project's root, one file per provider, the values
 * an operator would otherwise copy from the provider's integration guide into a provider's row (its
 * signature recipe, parameter names, reversal rule, answer, wall address), with the guide they come from
 * and test vectors (requests as the provider sends them). Data, not code: read at start beside `schemas/`
 * and `locales/`, from the project root the server finds for itself (`settings.projectRoot`), so the sources
 * and the built bundle read the same files and the build copies nothing. A bad file stops the start with
 * a message naming the file and the part.
 */

export const PRESET_IDS = [
  'cint', 'purespectrum', 'dynata', 'dynata_rex', 'toluna', 'innovatemr', 'tapresearch',
  'pollfish', 'bitlabs', 'cpx', 'theoremreach', 'ayet', 'offerwall', 'custom',
] as const;
type PresetId = (typeof PRESET_IDS)[number];

const PRESETS_DIRECTORY = 'provider-presets';

/** A text in both languages of the product. */
interface PresetText {
  en: string;
  'zh-cn': string;
}

/** What a provider's exit code maps to: a status it reports (contract/outcomes.ts). */
type Outcome = ReportedStatus;

/** How a provider says that an earlier credit is taken back. */
type ReversalRule =
  | { by: 'negative_amount' }
  | { by: 'status'; param: string; value: string | string[] }
  | { by: 'flag'; param: string; value: string }
  /** the reversed transaction's id is the value without the prefix */
  | { by: 'prefix'; param: string; value: string }
  | { by: 'none' };

/** Values for a provider's columns; an absent one keeps the column's default. */
type PresetFields = {
  /** absent: the column's default, the product's own rule (hmac_sha256 over the path and query, in `sig`) */
  signature?: SignatureRecipe;
  sig_param?: string;
  rid_param?: string;
  status_param?: string;
  member_param?: string;
  amount_param?: string;
  transaction_param?: string;
  reason_param?: string;
  test_param?: string;
  test_value?: string;
  exit_map?: Record<string, Outcome>;
  ip_allowlist?: string;
  kind?: 'project' | 'wall';
  reversal?: ReversalRule;
  answer_status?: number;
  answer_body?: string;
  answer_type?: 'text/plain' | 'application/json';
  credit_on?: 'either' | 'callback';
  wall_url?: string;
  exit_placeholder?: string;
  wall_credit?: 'money' | 'score';
  amount_in?: 'major' | 'minor';
  cap_transaction?: number;
  cap_member_day?: number;
  allow_negative?: boolean;
  hold_days?: number;
};

/** A request as the provider sends it, and whether it must verify. */
export interface PresetVector {
  /** true = the guide's own example; false = built from the guide's rule */
  published: boolean;
  note: string;
  method: string;
  /** the whole URL: origin, path and query */
  url: string;
  headers: Record<string, string>;
  body: string;
  secret: string;
  /** the clock, in seconds, at which the request is checked */
  now: number;
  valid: boolean;
  /** the signature's name in this example when the guide's own example names it otherwise than the preset */
  sigParam?: string;
}

export interface ProviderPreset {
  id: PresetId;
  /** raised whenever a field changes */
  version: number;
  title: PresetText;
  kind: 'project' | 'wall';
  /** the public document the preset follows: its own name kept, the words around it in each language */
  source: { document: PresetText; url: string; date: string };
  notes?: PresetText;
  fields: PresetFields;
  vectors: PresetVector[];
}

/** A preset file that cannot be used; the message names the file and the part. */
export class PresetFileError extends Error {
  constructor(file: string, part: string, detail: string) {
    super(`${PRESETS_DIRECTORY}/${file}: ${part ? `${part}: ` : ''}${detail}`);
    this.name = 'PresetFileError';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Checking a file

const PRESET_PARTS = ['id', 'version', 'title', 'kind', 'source', 'notes', 'fields', 'vectors'];
const VECTOR_PARTS = ['published', 'note', 'method', 'url', 'headers', 'body', 'secret', 'now', 'valid', 'sigParam'];
const NAME_FIELDS = ['sig_param', 'rid_param', 'status_param', 'member_param', 'amount_param', 'reason_param', 'test_param'] as const;
/** Columns an operator sets for their own account: never part of a preset. */
const OPERATOR_COLUMNS = ['code', 'name', 'secret', 'status', 'preset'];
const FIELD_NAMES = [...NAME_FIELDS, 'transaction_param', 'signature', 'test_value', 'exit_map', 'ip_allowlist', 'kind', 'reversal', 'answer_status', 'answer_body', 'answer_type', 'credit_on', 'wall_url', 'exit_placeholder', 'wall_credit', 'amount_in', 'cap_transaction', 'cap_member_day', 'allow_negative', 'hold_days'];
const WHOLE_URL = /^(https?:\/\/[^/?#\s]+)([^?#\s]*)(?:\?([^#\s]*))?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type Json = Record<string, unknown>;

/** An ApiError's English text with its params filled in, for a start-up message. */
function englishText(error: ApiError): string {
  let index = 0;
  return error.msg.replace(/%[sd]/g, () => {
    const param = error.params[index++];
    if (param === undefined) return '';
    return typeof param === 'object' ? param.en : String(param);
  });
}

/** The checks of one file: each throws a PresetFileError naming the file. */
class PresetChecker {
  constructor(private readonly file: string) {}

  fail(part: string, detail: string): never {
    throw new PresetFileError(this.file, part, detail);
  }

  onlyParts(value: Json, allowed: readonly string[], prefix: string): void {
    for (const part of Object.keys(value)) if (!allowed.includes(part)) this.fail(prefix + part, `unknown part; the parts are ${allowed.join(', ')}`);
  }

  object(value: unknown, part: string): Json {
    if (!isRecord(value)) this.fail(part, 'must be an object');
    return value;
  }

  text(value: unknown, part: string, options: { max?: number; empty?: boolean } = {}): string {
    const max = options.max ?? 2000;
    if (typeof value !== 'string' || value.length > max || (!options.empty && value.trim() === '')) this.fail(part, `must be ${options.empty ? 'a' : 'a non-empty'} text of at most ${max} characters`);
    return value;
  }

  wholeNumber(value: unknown, part: string, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) this.fail(part, `must be a whole number from ${min} to ${max}`);
    return value;
  }

  boolean(value: unknown, part: string): boolean {
    if (typeof value !== 'boolean') this.fail(part, 'must be true or false');
    return value;
  }

  choice<T extends string>(value: unknown, part: string, allowed: readonly T[]): T {
    if (!isOneOf(allowed, value)) this.fail(part, `must be one of: ${allowed.join(', ')}`);
    return value;
  }

  localText(value: unknown, part: string, options: { max?: number } = {}): PresetText {
    const text = this.object(value, part);
    this.onlyParts(text, ['en', 'zh-cn'], `${part}.`);
    return { en: this.text(text.en, `${part}.en`, options), 'zh-cn': this.text(text['zh-cn'], `${part}.zh-cn`, options) };
  }

  parameter(value: unknown, part: string): string {
    if (typeof value !== 'string' || (value !== '' && !isParameterName(value))) this.fail(part, 'must be empty or a parameter name: a letter or _ first, then at most 63 letters, digits, _ . - [ or ]');
    return value;
  }

  httpUrl(value: unknown, part: string): string {
    const text = this.text(value, part);
    if (!WHOLE_URL.test(text)) this.fail(part, 'must be a whole http or https address');
    return text;
  }

  date(value: unknown, part: string): string {
    const text = this.text(value, part);
    const match = DATE.exec(text);
    const day = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
    if (!day || day.toISOString().slice(0, 10) !== text) this.fail(part, 'must be a date written YYYY-MM-DD');
    return text;
  }

  reversal(value: unknown, part: string): ReversalRule {
    const rule = this.object(value, part);
    const by = this.choice(rule.by, `${part}.by`, ['negative_amount', 'status', 'flag', 'prefix', 'none'] as const);
    if (by === 'negative_amount' || by === 'none') {
      this.onlyParts(rule, ['by'], `${part}.`);
      return { by };
    }
    this.onlyParts(rule, ['by', 'param', 'value'], `${part}.`);
    const param = this.parameter(rule.param, `${part}.param`);
    if (param === '') this.fail(`${part}.param`, 'must name the parameter');
    if (by === 'status' && Array.isArray(rule.value)) {
      if (rule.value.length === 0) this.fail(`${part}.value`, 'must list at least one value');
      return { by, param, value: rule.value.map((item, index) => this.text(item, `${part}.value[${index}]`, { max: 64 })) };
    }
    return { by, param, value: this.text(rule.value, `${part}.value`, { max: 64 }) };
  }

  exitMap(value: unknown, part: string): Record<string, Outcome> {
    const map = this.object(value, part);
    const out: Record<string, Outcome> = {};
    for (const [code, outcome] of Object.entries(map)) {
      if (code === '' || code.length > 40) this.fail(part, `the code "${code.slice(0, 60)}" must be 1 to 40 characters`);
      out[code] = this.choice(outcome, `${part}.${code}`, REPORTED_STATUSES);
    }
    return out;
  }

  fields(value: unknown, kind: ProviderPreset['kind']): PresetFields {
    const fields = this.object(value, 'fields');
    for (const name of Object.keys(fields)) {
      if (OPERATOR_COLUMNS.includes(name)) this.fail(`fields.${name}`, 'is set by the operator for their own account, never by a preset');
      if (!FIELD_NAMES.includes(name)) this.fail(`fields.${name}`, `unknown column; a preset may set ${FIELD_NAMES.join(', ')}`);
    }
    const out: PresetFields = {};
    if (fields.signature !== undefined) {
      try {
        out.signature = parseRecipe(fields.signature);
      } catch (error) {
        if (error instanceof ApiError) this.fail('fields.signature', englishText(error));
        throw error;
      }
    }
    for (const name of NAME_FIELDS) if (fields[name] !== undefined) out[name] = this.parameter(fields[name], `fields.${name}`);
    if (fields.transaction_param !== undefined) {
      const names = fields.transaction_param;
      if (typeof names !== 'string' || !isTransactionParam(names)) this.fail('fields.transaction_param', 'must be empty, a parameter name, or up to 4 of them joined by +');
      out.transaction_param = names;
    }
    // A recipe of its own says where the signature travels, so the preset names it too.
    const signature = out.signature;
    if (signature && signature.key !== 'none' && !out.sig_param) this.fail('fields.sig_param', `must name the ${signature.in === 'header' ? 'header' : 'parameter'} that carries the signature`);
    if (fields.test_value !== undefined) out.test_value = this.text(fields.test_value, 'fields.test_value', { max: 64, empty: true });
    if (fields.exit_map !== undefined) out.exit_map = this.exitMap(fields.exit_map, 'fields.exit_map');
    if (fields.ip_allowlist !== undefined) out.ip_allowlist = this.text(fields.ip_allowlist, 'fields.ip_allowlist', { empty: true });
    if (fields.kind !== undefined && fields.kind !== kind) this.fail('fields.kind', `must be the preset's kind "${kind}" when given`);
    if (fields.kind !== undefined) out.kind = kind;
    if (fields.reversal !== undefined) out.reversal = this.reversal(fields.reversal, 'fields.reversal');
    if (fields.answer_status !== undefined) out.answer_status = this.wholeNumber(fields.answer_status, 'fields.answer_status', 200, 599);
    if (fields.answer_body !== undefined) out.answer_body = this.text(fields.answer_body, 'fields.answer_body', { max: 1000, empty: true });
    if (fields.answer_type !== undefined) out.answer_type = this.choice(fields.answer_type, 'fields.answer_type', ['text/plain', 'application/json'] as const);
    if (fields.credit_on !== undefined) out.credit_on = this.choice(fields.credit_on, 'fields.credit_on', ['either', 'callback'] as const);
    if (fields.wall_url !== undefined) {
      const url = this.text(fields.wall_url, 'fields.wall_url', { empty: true });
      if (url !== '' && (!WHOLE_URL.test(url.replace(/\{member\}/g, 'member')) || !url.includes('{member}'))) this.fail('fields.wall_url', 'must be empty or a whole http or https address holding {member}');
      out.wall_url = url;
    }
    if (fields.exit_placeholder !== undefined) out.exit_placeholder = this.text(fields.exit_placeholder, 'fields.exit_placeholder', { max: 32, empty: true });
    if (fields.wall_credit !== undefined) out.wall_credit = this.choice(fields.wall_credit, 'fields.wall_credit', ['money', 'score'] as const);
    if (fields.amount_in !== undefined) out.amount_in = this.choice(fields.amount_in, 'fields.amount_in', ['major', 'minor'] as const);
    if (fields.cap_transaction !== undefined) out.cap_transaction = this.wholeNumber(fields.cap_transaction, 'fields.cap_transaction', 0, Number.MAX_SAFE_INTEGER);
    if (fields.cap_member_day !== undefined) out.cap_member_day = this.wholeNumber(fields.cap_member_day, 'fields.cap_member_day', 0, Number.MAX_SAFE_INTEGER);
    if (fields.allow_negative !== undefined) out.allow_negative = this.boolean(fields.allow_negative, 'fields.allow_negative');
    if (fields.hold_days !== undefined) out.hold_days = this.wholeNumber(fields.hold_days, 'fields.hold_days', 0, 3650);
    return out;
  }

  vector(value: unknown, part: string): PresetVector {
    const vector = this.object(value, part);
    this.onlyParts(vector, VECTOR_PARTS, `${part}.`);
    const headers = vector.headers === undefined ? {} : this.object(vector.headers, `${part}.headers`);
    for (const [name, header] of Object.entries(headers)) this.text(header, `${part}.headers.${name}`, { empty: true });
    return {
      published: this.boolean(vector.published, `${part}.published`),
      note: vector.note === undefined ? '' : this.text(vector.note, `${part}.note`, { empty: true }),
      method: this.choice(vector.method, `${part}.method`, ['GET', 'POST'] as const),
      url: this.httpUrl(vector.url, `${part}.url`),
      headers: headers as Record<string, string>,
      body: vector.body === undefined ? '' : this.text(vector.body, `${part}.body`, { max: 100_000, empty: true }),
      secret: this.text(vector.secret, `${part}.secret`, { max: 255, empty: true }),
      now: this.wholeNumber(vector.now, `${part}.now`, 1, 99_999_999_999),
      valid: this.boolean(vector.valid, `${part}.valid`),
      ...(vector.sigParam === undefined ? {} : { sigParam: this.parameter(vector.sigParam, `${part}.sigParam`) }),
    };
  }

  preset(value: unknown, id: string): ProviderPreset {
    const preset = this.object(value, '');
    this.onlyParts(preset, PRESET_PARTS, '');
    if (preset.id !== id) this.fail('id', `must be "${id}", the file's name`);
    const kind = this.choice(preset.kind, 'kind', ['project', 'wall'] as const);
    const source = this.object(preset.source, 'source');
    this.onlyParts(source, ['document', 'url', 'date'], 'source.');
    if (!Array.isArray(preset.vectors) || preset.vectors.length === 0) this.fail('vectors', 'must list at least one test vector');
    return {
      id: this.choice(preset.id, 'id', PRESET_IDS),
      version: this.wholeNumber(preset.version, 'version', 1, 1_000_000),
      title: this.localText(preset.title, 'title'),
      kind,
      source: { document: this.localText(source.document, 'source.document', { max: 300 }), url: this.httpUrl(source.url, 'source.url'), date: this.date(source.date, 'source.date') },
      ...(preset.notes === undefined ? {} : { notes: this.localText(preset.notes, 'notes') }),
      fields: this.fields(preset.fields, kind),
      vectors: preset.vectors.map((vector, index) => this.vector(vector, `vectors[${index}]`)),
    };
  }
}

/** Reads and checks one preset file (`<id>.json` in `dir`). */
function readPreset(dir: string, file: string): ProviderPreset {
  const checker = new PresetChecker(file);
  const id = file.slice(0, -'.json'.length);
  if (!isOneOf(PRESET_IDS, id)) checker.fail('', `"${id}" is not a preset id; the ids are ${PRESET_IDS.join(', ')}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch (error) {
    checker.fail('', `not readable JSON: ${messageOf(error)}`);
  }
  return checker.preset(parsed, id);
}

/** Every preset of `<projectRoot>/provider-presets/*.json`, checked, sorted by id; throws a PresetFileError on the first bad file. */
export function readProviderPresets(projectRoot: string): ProviderPreset[] {
  const dir = join(projectRoot, PRESETS_DIRECTORY);
  const files = readdirSync(dir).filter((file) => file.endsWith('.json')).sort();
  return files.map((file) => readPreset(dir, file)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------------------
// The presets of this process

let catalogue: { presets: readonly ProviderPreset[]; byId: ReadonlyMap<string, ProviderPreset> } | undefined;

/** Reads the presets once at start (createServer); later calls read the files again (a test, a restart in-process). */
export function loadProviderPresets(projectRoot: string): readonly ProviderPreset[] {
  const presets = Object.freeze(readProviderPresets(projectRoot));
  catalogue = { presets, byId: new Map(presets.map((preset) => [preset.id, preset])) };
  return presets;
}

function loaded(): NonNullable<typeof catalogue> {
  if (!catalogue) throw new Error('The provider presets are read at start (loadProviderPresets) before they are used');
  return catalogue;
}

/** Every preset, sorted by id. */
export function providerPresets(): readonly ProviderPreset[] {
  return loaded().presets;
}

export function presetById(id: string): ProviderPreset | undefined {
  return loaded().byId.get(id);
}

/** The column defaults of `signature` and `sig_param` (schemas/survey/provider.json), for a preset that leaves them out. */
const DEFAULT_SIGNATURE = legacyRecipe('hmac_sha256') as SignatureRecipe;
const DEFAULT_SIG_PARAM = 'sig';

/** How a provider set from this preset checks signatures: its recipe and signature name, or the columns' defaults. */
export function presetSignature(preset: ProviderPreset): { recipe: SignatureRecipe; sigParam: string } {
  return { recipe: preset.fields.signature ?? DEFAULT_SIGNATURE, sigParam: preset.fields.sig_param ?? DEFAULT_SIG_PARAM };
}

/** A vector's request as the recipe functions read it: its URL split into origin, path and query, header names in lower case. */
export function vectorRequest(vector: PresetVector): SignedRequestInput {
  const [, origin, path, query] = WHOLE_URL.exec(vector.url) ?? ['', '', '', ''];
  const headers = Object.fromEntries(Object.entries(vector.headers).map(([name, value]) => [name.toLowerCase(), value]));
  return { method: vector.method, origin, path, query: query ?? '', headers, body: vector.body, contentType: headers['content-type'] ?? '' };
}
