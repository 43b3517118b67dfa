import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadProviderPresets,
  PRESET_IDS,
  presetById,
  presetSignature,
  PresetFileError,
  providerPresets,
  readProviderPresets,
  vectorRequest,
  type PresetVector,
  type ProviderPreset,
} from '../../src/server/services/survey/presets.js';
import { presetNotesFor } from '../../src/contract/provider-tool.js';
import { legacyRecipe, requestParameter, signatureNameIn, verifyRequest, type SignatureRecipe, type SignedRequestInput } from '../../src/server/services/survey/signature-recipe.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = readdirSync(join(ROOT, 'provider-presets')).filter((file) => file.endsWith('.json'));
const PRESETS = loadProviderPresets(ROOT);

/** The preset's recipe and signature name, the name as the vector's own example spells it when it says so. */
function signatureFor(preset: ProviderPreset, vector?: PresetVector): { recipe: SignatureRecipe; sigParam: string } {
  const signature = presetSignature(preset);
  return vector?.sigParam ? { ...signature, sigParam: vector.sigParam } : signature;
}

/** The name the vector's signature travels under: the preset's, or the first of its recipe's aliases the request carries. */
function sentName(preset: ProviderPreset, vector: PresetVector): string {
  const { recipe, sigParam } = signatureFor(preset, vector);
  return signatureNameIn(recipe, sigParam, vectorRequest(vector));
}

/** Whether `name` keys the recipe's HMAC chain: a request without it lacks a key, which is `missing` rather than `wrong`. */
function keysChain(recipe: SignatureRecipe, name: string): boolean {
  return (recipe.chain ?? []).some((step) => step.in !== 'secret' && step.name === name);
}

/** The failure a vector's request gets, or 'ok'. */
function check(preset: ProviderPreset, request: SignedRequestInput, secret: string, now: number, vector?: PresetVector): string {
  const { recipe, sigParam } = signatureFor(preset, vector);
  const result = verifyRequest(recipe, secret, sigParam, request, now);
  return result.ok ? 'ok' : result.failure;
}

function isForm(request: SignedRequestInput): boolean {
  return request.contentType.split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

function pairName(pair: string): string {
  return decodeURIComponent(pair.split('=', 1)[0].replace(/\+/g, ' '));
}

/** The `&`-joined text with the pairs named `name` replaced by `replace` (or dropped when it gives undefined). */
function editPairs(text: string, name: string, replace: (pair: string) => string | undefined): string {
  return text
    .split('&')
    .flatMap((pair) => (pair !== '' && pairName(pair) === name ? [replace(pair)].filter((kept): kept is string => kept !== undefined) : [pair]))
    .join('&');
}

/** The request with its signature's first character changed to another the encoding allows (0 and 1 have no case). */
function tamperedSignature(recipe: SignatureRecipe, sigParam: string, request: SignedRequestInput): SignedRequestInput {
  const flip = (signature: string) => (signature.startsWith('0') ? '1' : '0') + signature.slice(1);
  const flipPair = (pair: string) => {
    const equals = pair.indexOf('=');
    return `${pair.slice(0, equals + 1)}${flip(pair.slice(equals + 1))}`;
  };
  if (recipe.in === 'header') {
    const name = sigParam.toLowerCase();
    return { ...request, headers: { ...request.headers, [name]: flip(request.headers[name]) } };
  }
  if (recipe.in === 'query') return { ...request, query: editPairs(request.query, sigParam, flipPair) };
  if (isForm(request)) return { ...request, body: editPairs(request.body, sigParam, flipPair) };
  const body = JSON.parse(request.body) as Record<string, string>;
  return { ...request, body: JSON.stringify({ ...body, [sigParam]: flip(String(body[sigParam])) }) };
}

/** Every parameter a name in the query or body could be, except the signature. */
function parameterNames(request: SignedRequestInput, sigParam: string): string[] {
  const fromPairs = (text: string) => text.split('&').filter((pair) => pair !== '').map(pairName);
  const names = [...fromPairs(request.query), ...(isForm(request) ? fromPairs(request.body) : [])];
  if (request.body.trim().startsWith('{')) names.push(...Object.keys(JSON.parse(request.body) as object));
  return names.filter((name) => name !== sigParam);
}

/** The names the recipe signs, with a value in this request (removing an empty one would change nothing). */
function signedNames(recipe: SignatureRecipe, sigParam: string, request: SignedRequestInput): string[] {
  const candidates =
    recipe.text === 'values' ? (recipe.names ?? [])
    : recipe.text === 'template' ? [...(recipe.template ?? '').matchAll(/\{([^{}]+)\}/g)].map((match) => match[1])
    : recipe.text === 'body' ? parameterNames({ ...request, query: '' }, sigParam)
    : parameterNames({ ...request, body: '', contentType: '' }, sigParam);
  return candidates.filter((name) => name !== sigParam && (requestParameter(request, name) ?? '') !== '');
}

/** The request without the parameter `name`, taken from the query if it is there, else from the body. */
function withoutParameter(request: SignedRequestInput, name: string): SignedRequestInput {
  const inQuery = request.query.split('&').some((pair) => pair !== '' && pairName(pair) === name);
  if (inQuery) return { ...request, query: editPairs(request.query, name, () => undefined) };
  if (isForm(request)) return { ...request, body: editPairs(request.body, name, () => undefined) };
  const body = JSON.parse(request.body) as Record<string, unknown>;
  delete body[name];
  return { ...request, body: JSON.stringify(body) };
}

function cases(): Array<[string, ProviderPreset, PresetVector]> {
  return PRESETS.flatMap((preset) => preset.vectors.map((vector, index) => [`${preset.id} #${index} (${vector.note})`, preset, vector] as [string, ProviderPreset, PresetVector]));
}

function validCases(): Array<[string, ProviderPreset, PresetVector]> {
  return cases().filter(([, , vector]) => vector.valid);
}

describe('the preset files', () => {
  it('are all loaded, one per file, sorted by id, each a known id', () => {
    expect(PRESETS.map((preset) => `${preset.id}.json`).sort()).toEqual([...FILES].sort());
    expect(PRESETS.map((preset) => preset.id)).toEqual([...PRESETS.map((preset) => preset.id)].sort());
    expect(providerPresets()).toBe(PRESETS);
    for (const preset of PRESETS) expect(PRESET_IDS).toContain(preset.id);
    expect(presetById('custom')?.title.en).toBe('Custom provider');
    expect(presetById('no-such-provider')).toBeUndefined();
  });

  it('a preset without a recipe checks signatures as a provider row does by default', () => {
    const bare = structuredClone(presetById('custom') as ProviderPreset);
    delete bare.fields.signature;
    delete bare.fields.sig_param;
    expect(presetSignature(bare)).toEqual({ recipe: legacyRecipe('hmac_sha256'), sigParam: 'sig' });
  });

  it('the custom preset signs as the product always has', () => {
    const custom = presetById('custom');
    expect(custom?.kind).toBe('project');
    expect(custom?.fields.signature).toEqual(legacyRecipe('hmac_sha256'));
    expect(custom?.fields.sig_param).toBe('sig');
  });

  it('name their public document in words an operator can follow, never a file of this repository', () => {
    // the provider form shows the document's name as the link to its public address
    for (const preset of PRESETS) for (const text of Object.values(preset.source.document)) expect(text, preset.id).not.toMatch(/(?:^|[\s(])docs\/[\w-]+\.md\b/);
  });

  it('name their document in both languages, its own name kept and the words around it translated', () => {
    const bitlabs = PRESETS.find((preset) => preset.id === 'bitlabs');
    expect(bitlabs?.source.document).toEqual({ en: 'Securing callbacks through hashing (BitLabs developer documentation)', 'zh-cn': 'Securing callbacks through hashing（BitLabs 开发者文档）' });
    // Every title but one that is nothing but the document's own name (an RFC's) says something in Chinese.
    const untranslated = PRESETS.filter((preset) => !/\p{Script=Han}/u.test(preset.source.document['zh-cn'])).map((preset) => preset.id);
    expect(untranslated).toEqual(['custom']);
  });

  it('say in their notes the parameter names the form holds, renamed ones included', () => {
    const named = ['rid_param', 'sig_param', 'member_param', 'amount_param', 'transaction_param', 'status_param', 'reason_param', 'test_param'] as const;
    for (const preset of PRESETS) {
      // Every parameter name renamed, as an operator might: the notes must say the new names and none of the old.
      const renamed: Record<string, unknown> = Object.fromEntries(Object.entries(preset.fields).map(([column, value]) => [column, typeof value !== 'string' || value === '' ? value : column === 'exit_placeholder' ? '{MACRO}' : `${value}_renamed`]));
      for (const lang of ['en', 'zh-cn'] as const) {
        const notes = preset.notes?.[lang] ?? '';
        for (const [, column] of notes.matchAll(/\{\{([a-z_]+)\}\}/g)) expect(preset.fields, `${preset.id} ${lang} {{${column}}}`).toHaveProperty(column);
        const shown = presetNotesFor(notes, renamed);
        expect(shown, `${preset.id} ${lang}`).not.toMatch(/\{\{|\}\}/);
        for (const column of named) {
          const value = preset.fields[column];
          if (typeof value !== 'string' || value === '') continue;
          expect(shown, `${preset.id} ${lang} ${column}`).not.toMatch(new RegExp(`(?<![\\w-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=`));
        }
        const placeholder = preset.fields.exit_placeholder;
        if (typeof placeholder === 'string' && placeholder !== '') expect(shown, `${preset.id} ${lang} exit_placeholder`).not.toContain(placeholder);
      }
    }
    // The walk's case: Cint with the rid parameter renamed to ref says ref=[%PID%], as its exit addresses do.
    const cint = presetById('cint');
    expect(presetNotesFor(cint?.notes?.en ?? '', { ...cint?.fields, rid_param: 'ref' })).toContain('pages with ref=[%PID%],');
  });

  it('name exit codes only through the exit map: each {{exit:…}} an outcome the map gives, any other code a reversal', () => {
    const outcomes = ['complete', 'terminate', 'overquota', 'security'];
    for (const preset of PRESETS) {
      const exitMap = (preset.fields.exit_map ?? {}) as Record<string, string>;
      const reversal = preset.fields.reversal as { by: string; param?: string; value?: string | string[] } | undefined;
      for (const lang of ['en', 'zh-cn'] as const) {
        const notes = preset.notes?.[lang] ?? '';
        // an outcome named must be one the preset's exit map gives to some code, so the note never reads "…"
        for (const [, outcome] of notes.matchAll(/\{\{exit:([a-z]+)\}\}/g)) {
          expect(outcomes, `${preset.id} ${lang} {{exit:${outcome}}}`).toContain(outcome);
          expect(Object.values(exitMap), `${preset.id} ${lang} {{exit:${outcome}}}`).toContain(outcome);
        }
        // a status value written out (not the provider's own macro such as [%TYPE%]) is not an exit code, those are
        // placeholders, but the status that reverses a credit
        const statusParam = preset.fields.status_param;
        if (typeof statusParam !== 'string') continue;
        for (const [, value] of notes.matchAll(/\{\{status_param\}\}=(?![[{%])([^\s&,，；;）)]+)/g)) {
          expect(Object.keys(exitMap), `${preset.id} ${lang}: ${value} is written out`).not.toContain(value);
          expect(reversal, `${preset.id} ${lang}: ${value}`).toMatchObject({ by: 'status', param: statusParam });
          expect([reversal?.value].flat(), `${preset.id} ${lang}: ${value}`).toContain(value);
        }
      }
    }
  });

  it('say the exit codes the form’s exit map holds, changed ones included', () => {
    const innovate = presetById('innovatemr');
    // the form's values: the preset's columns spread into a plain row
    const fields: Record<string, unknown> = { ...innovate?.fields };
    expect(presetNotesFor(innovate?.notes?.en ?? '', fields)).toContain('(status 1 complete, 2/5 terminate, 3/7 over quota, 4/8 quality termination)');
    expect(presetNotesFor(innovate?.notes?.['zh-cn'] ?? '', fields)).toContain('（status 1 完成，2/5 甄别，3/7 配额满，4/8 质量终止）');
    // the operator maps 6 to terminate and drops 5: the instructions follow
    const changed = { ...fields, exit_map: { '1': 'complete', '2': 'terminate', '6': 'terminate', '3': 'overquota', '7': 'overquota', '4': 'security', '8': 'security' } };
    expect(presetNotesFor(innovate?.notes?.en ?? '', changed)).toContain('2/6 terminate');
    const pure = presetById('purespectrum');
    expect(presetNotesFor(pure?.notes?.en ?? '', { ...pure?.fields })).toContain('followed by ?ps_rstatus=21 and');
    // an outcome no code maps to reads "…", as an empty column does
    expect(presetNotesFor(pure?.notes?.en ?? '', { ...pure?.fields, exit_map: {} })).toContain('followed by ?ps_rstatus=… and');
  });

  it.each(cases())('%s verifies as it says', (_name, preset, vector) => {
    const result = check(preset, vectorRequest(vector), vector.secret, vector.now, vector);
    if (vector.valid) expect(result).toBe('ok');
    else expect(result).not.toBe('ok');
  });
});

describe.each(validCases())('the valid vector %s', (_name, preset, vector) => {
  const { recipe } = signatureFor(preset, vector);
  const sigParam = sentName(preset, vector);
  const request = vectorRequest(vector);

  it('is refused with one byte of its signature changed', () => {
    expect(check(preset, tamperedSignature(recipe, sigParam, request), vector.secret, vector.now, vector)).toBe('wrong');
  });

  it('is refused with a signed parameter removed', () => {
    const names = signedNames(recipe, sigParam, request);
    expect(names.length, 'a signed parameter with a value').toBeGreaterThan(0);
    for (const name of names) expect(check(preset, withoutParameter(request, name), vector.secret, vector.now, vector), name).toBe(keysChain(recipe, name) ? 'missing' : 'wrong');
  });

  it('is refused under another key', () => {
    expect(check(preset, request, `${vector.secret}x`, vector.now, vector)).toBe('wrong');
    expect(check(preset, request, '', vector.now, vector)).toBe('no_secret');
  });

  // only a recipe with a timestamp has this test (registered, not skipped, when it applies)
  const expiry = recipe.expiry;
  if (expiry) {
    it('is refused once its timestamp is past the skew', () => {
      expect(check(preset, request, vector.secret, vector.now + 2 * expiry.skewSeconds + 1, vector)).toBe('expired');
      expect(check(preset, request, vector.secret, vector.now - 2 * expiry.skewSeconds - 1, vector)).toBe('expired');
    });
  }
});

describe('a bad preset file stops the start, naming the file and the part', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  const custom = JSON.parse(readFileSync(join(ROOT, 'provider-presets/custom.json'), 'utf8')) as Record<string, unknown>;

  /** The message readProviderPresets gives for a directory holding `file` with `content`. */
  function refusal(file: string, content: unknown): string {
    const root = mkdtempSync(join(tmpdir(), 'presets-'));
    roots.push(root);
    mkdirSync(join(root, 'provider-presets'));
    writeFileSync(join(root, 'provider-presets', file), typeof content === 'string' ? content : JSON.stringify(content));
    try {
      readProviderPresets(root);
    } catch (error) {
      expect(error).toBeInstanceOf(PresetFileError);
      return (error as Error).message;
    }
    throw new Error('the preset was accepted');
  }

  const changed = (path: string[], value: unknown): Record<string, unknown> => {
    const copy = structuredClone(custom);
    let target = copy as Record<string, unknown>;
    for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
    if (value === undefined) delete target[path[path.length - 1]];
    else target[path[path.length - 1]] = value;
    return copy;
  };

  it('accepts the custom preset as it is', () => {
    const root = mkdtempSync(join(tmpdir(), 'presets-'));
    roots.push(root);
    mkdirSync(join(root, 'provider-presets'));
    writeFileSync(join(root, 'provider-presets', 'custom.json'), JSON.stringify(custom));
    writeFileSync(join(root, 'provider-presets', 'README.txt'), 'not a preset');
    expect(readProviderPresets(root).map((preset) => preset.id)).toEqual(['custom']);
    // the fields are any subset of the columns: a preset may leave the signature to the columns' defaults
    const { signature: _signature, sig_param: _sigParam, ...rest } = custom.fields as Record<string, unknown>;
    writeFileSync(join(root, 'provider-presets', 'cint.json'), JSON.stringify({ ...custom, id: 'cint', fields: rest }));
    const [cint] = readProviderPresets(root);
    expect(cint.id).toBe('cint');
    expect(cint.fields.signature).toBeUndefined();
  });

  it('refuses a file that is not JSON, an unknown id, or an id that is not the file name', () => {
    expect(refusal('custom.json', '{"id": ')).toMatch(/^provider-presets\/custom\.json: not readable JSON/);
    expect(refusal('acme.json', { ...custom, id: 'acme' })).toMatch(/^provider-presets\/acme\.json: "acme" is not a preset id; the ids are cint, /);
    expect(refusal('cpx.json', custom)).toBe('provider-presets/cpx.json: id: must be "cpx", the file\'s name');
  });

  it('refuses bad top-level parts', () => {
    expect(refusal('custom.json', { ...custom, extra: 1 })).toMatch(/^provider-presets\/custom\.json: extra: unknown part/);
    expect(refusal('custom.json', { ...custom, version: 0 })).toBe('provider-presets/custom.json: version: must be a whole number from 1 to 1000000');
    expect(refusal('custom.json', { ...custom, version: '1' })).toMatch(/version: must be a whole number/);
    expect(refusal('custom.json', changed(['title', 'zh-cn'], undefined))).toMatch(/title\.zh-cn: must be a non-empty text/);
    expect(refusal('custom.json', { ...custom, kind: 'panel' })).toBe('provider-presets/custom.json: kind: must be one of: project, wall');
    expect(refusal('custom.json', changed(['source', 'date'], '2026-13-01'))).toBe('provider-presets/custom.json: source.date: must be a date written YYYY-MM-DD');
    expect(refusal('custom.json', changed(['source', 'url'], 'rfc2104'))).toMatch(/source\.url: must be a whole http or https address/);
    expect(refusal('custom.json', changed(['source', 'document'], undefined))).toBe('provider-presets/custom.json: source.document: must be an object');
    // A title in one language only is refused: the form shows it in the reader's language.
    expect(refusal('custom.json', changed(['source', 'document'], 'RFC 2104'))).toBe('provider-presets/custom.json: source.document: must be an object');
    expect(refusal('custom.json', changed(['source', 'document', 'zh-cn'], undefined))).toMatch(/source\.document\.zh-cn: must be a non-empty text/);
    expect(refusal('custom.json', changed(['source', 'document', 'en'], 'x'.repeat(301)))).toMatch(/source\.document\.en: must be a non-empty text of at most 300 characters/);
    expect(refusal('custom.json', changed(['source', 'document', 'fr'], 'RFC 2104'))).toMatch(/source\.document\.fr: unknown part/);
    expect(refusal('custom.json', { ...custom, vectors: [] })).toMatch(/vectors: must list at least one test vector/);
  });

  it('refuses fields outside the provider columns and bad values', () => {
    expect(refusal('custom.json', changed(['fields', 'secret'], 'x'))).toMatch(/fields\.secret: is set by the operator/);
    expect(refusal('custom.json', changed(['fields', 'colour'], 'x'))).toMatch(/fields\.colour: unknown column; a preset may set sig_param, /);
    expect(refusal('custom.json', changed(['fields', 'rid_param'], 'r id'))).toMatch(/fields\.rid_param: must be empty or a parameter name/);
    expect(refusal('custom.json', changed(['fields', 'exit_map'], { 10: 'done' }))).toMatch(/fields\.exit_map\.10: must be one of: complete, terminate, overquota, security/);
    expect(refusal('custom.json', changed(['fields', 'reversal'], { by: 'status', param: 'status' }))).toMatch(/fields\.reversal\.value: must be a non-empty text/);
    expect(refusal('custom.json', changed(['fields', 'answer_type'], 'text/html'))).toMatch(/fields\.answer_type: must be one of/);
    expect(refusal('custom.json', changed(['fields', 'wall_url'], 'https://wall.example.com/?uid=USER'))).toMatch(/fields\.wall_url: must be empty or a whole http or https address holding \{member\}/);
    expect(refusal('custom.json', changed(['fields', 'kind'], 'wall'))).toMatch(/fields\.kind: must be the preset's kind "project"/);
    expect(refusal('custom.json', changed(['fields', 'sig_param'], undefined))).toMatch(/fields\.sig_param: must name the parameter that carries the signature/);
    expect(refusal('custom.json', changed(['fields', 'transaction_param'], 'a+b c'))).toMatch(/fields\.transaction_param: must be empty, a parameter name, or up to 4 of them joined by \+/);
  });

  it('refuses a bad signature recipe with the recipe\'s own message', () => {
    expect(refusal('custom.json', changed(['fields', 'signature', 'algorithm'], 'sha3'))).toBe(
      'provider-presets/custom.json: fields.signature: The signature recipe part "algorithm" must be one of: md5, sha1, sha256, sha512',
    );
    expect(refusal('custom.json', changed(['fields', 'signature', 'expiry'], { in: 'query', name: 'ts', unit: 's', skewSeconds: 0 }))).toBe(
      'provider-presets/custom.json: fields.signature: The signature recipe part "expiry.skewSeconds" must be a whole number from 1 to 86400',
    );
  });

  it('refuses bad vectors', () => {
    const vector = (custom.vectors as object[])[0];
    expect(refusal('custom.json', { ...custom, vectors: [{ ...vector, url: '/api/survey/callback/acme?rid=1' }] })).toMatch(/vectors\[0\]\.url: must be a whole http or https address/);
    expect(refusal('custom.json', { ...custom, vectors: [{ ...vector, valid: 'yes' }] })).toMatch(/vectors\[0\]\.valid: must be true or false/);
    expect(refusal('custom.json', { ...custom, vectors: [{ ...vector, now: 1.5 }] })).toMatch(/vectors\[0\]\.now: must be a whole number/);
    expect(refusal('custom.json', { ...custom, vectors: [vector, { ...vector, method: 'PATCH' }] })).toMatch(/vectors\[1\]\.method: must be one of: GET, POST/);
    expect(refusal('custom.json', { ...custom, vectors: [{ ...vector, expected: 'x' }] })).toMatch(/vectors\[0\]\.expected: unknown part/);
  });
});
