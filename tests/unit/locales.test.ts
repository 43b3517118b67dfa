import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';

/**
 * Every message key the server can send must have a zh-cn translation (the default language), and no
 * translation may lose or reorder a `%s`/`%d` placeholder. Keys are found by scanning the sources.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LANGS = ['zh-cn', 'en'] as const;

function filesUnder(dir: string, extension: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(extension))
    .map((file) => join(ROOT, dir, file))
    .sort();
}

/** The pack of a language as `Messages` builds it: every `locales/<lang>/server/*.json` merged. */
function loadPack(lang: string): Record<string, string> {
  const pack: Record<string, string> = {};
  for (const file of filesUnder(`locales/${lang}/server`, '.json')) Object.assign(pack, JSON.parse(readFileSync(file, 'utf8')));
  return pack;
}

/** A JS string literal in single or double quotes, and its value. */
const STRING = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"`;

function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** Where each key was found, so a failure names the file to look at. */
const used = new Map<string, Set<string>>();

function use(key: string, where: string): void {
  if (key === '') return;
  if (!used.has(key)) used.set(key, new Set());
  used.get(key)?.add(where);
}

/** The raw source text of each top-level argument of the call whose `(` is at `open`. */
function argumentsAt(source: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < source.length; i++) {
    const char = source[i];
    if (char === "'" || char === '"' || char === '`') {
      const end = new RegExp(`${char}(?:[^${char}\\\\]|\\\\.)*${char}`, 'y');
      end.lastIndex = i;
      const match = end.exec(source);
      if (match) i += match[0].length - 1;
    } else if ('([{'.includes(char)) {
      depth++;
    } else if (')]}'.includes(char)) {
      depth--;
      if (depth === 0) {
        args.push(source.slice(start, i).trim());
        return args;
      }
    } else if (char === ',' && depth === 1) {
      args.push(source.slice(start, i).trim());
      start = i + 1;
    }
  }
  return args;
}

/** The value of an argument that is a plain string literal, or undefined. */
function literalValue(argument: string | undefined): string | undefined {
  return argument !== undefined && new RegExp(`^(?:${STRING})$`).test(argument) ? unquote(argument) : undefined;
}

/** The string literals of an argument that is an array literal such as `['Username']` (field titles). */
function arrayLiterals(argument: string | undefined): string[] {
  if (!argument?.startsWith('[')) return [];
  return [...argument.matchAll(new RegExp(STRING, 'g'))].map((match) => unquote(match[0]));
}

function scanServerSource(file: string): void {
  const source = readFileSync(file, 'utf8');
  const where = relative(ROOT, file);
  for (const match of source.matchAll(/new ApiError\(/g)) {
    const [message, params] = argumentsAt(source, match.index + match[0].length - 1);
    const key = literalValue(message);
    if (key !== undefined) use(key, where);
    for (const param of arrayLiterals(params)) use(param, where);
  }
  for (const match of source.matchAll(/new Success\(/g)) {
    const [, message, params] = argumentsAt(source, match.index + match[0].length - 1);
    const key = literalValue(message);
    if (key !== undefined) use(key, where);
    for (const param of arrayLiterals(params)) use(param, where);
  }
  for (const match of source.matchAll(/\bt\(/g)) {
    const [message, params] = argumentsAt(source, match.index + match[0].length - 1);
    const key = literalValue(message);
    if (key !== undefined) use(key, where);
    for (const param of arrayLiterals(params)) use(param, where);
  }
}

function scanValidationMessages(): void {
  const file = join(ROOT, 'src/schema/validate-input.ts');
  const source = readFileSync(file, 'utf8');
  const where = relative(ROOT, file);
  // TYPE_MESSAGES and FORMAT_MESSAGES: every value of the two maps.
  for (const map of source.matchAll(/const \w+_MESSAGES\b[^=]*=\s*\{([\s\S]*?)\};/g)) {
    for (const entry of map[1].matchAll(new RegExp(`:\\s*(${STRING})`, 'g'))) use(unquote(entry[1]), where);
  }
  // issueOf and the required check: `message: '…'` and fallbacks `?? '…'`.
  for (const match of source.matchAll(new RegExp(`(?:message:|\\?\\?)\\s*(${STRING})`, 'g'))) use(unquote(match[1]), where);
}

function scanSchemas(): void {
  for (const file of filesUnder('schemas', '.json')) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { title?: unknown; properties?: Record<string, { title?: unknown; 'x-patternMessage'?: string }> };
    const where = relative(ROOT, file);
    // A title written in every language ({"zh-cn", "en"}) carries its own translation: only a string is a key.
    if (typeof schema.title === 'string') use(schema.title, where);
    for (const property of Object.values(schema.properties ?? {})) {
      if (typeof property.title === 'string') use(property.title, where);
      if (property['x-patternMessage']) use(property['x-patternMessage'], where);
    }
  }
}

for (const file of filesUnder('src/server', '.ts')) scanServerSource(file);
scanValidationMessages();
scanSchemas();

const packs = Object.fromEntries(LANGS.map((lang) => [lang, loadPack(lang)])) as Record<(typeof LANGS)[number], Record<string, string>>;

function placeholders(text: string): string {
  return (text.match(/%[sd]/g) ?? []).join(' ');
}

describe('server message translations', () => {
  it('finds the message keys in the sources (the scan itself works)', () => {
    const samples = [
      'Please login first', // errors.ts
      '%s cannot be empty', // credentials.ts and validate-input.ts
      'Login succeeded!', // new Success(data, '…')
      '%s and others, %d rules in all', // t('…', params)
      '%s must be an integer', // TYPE_MESSAGES
      'Please enter the correct email address', // FORMAT_MESSAGES
      '%s has an invalid format', // issueOf fallback
      'Username', // schema property title and ApiError param
      'Member', // schema title
      'Please input correct username', // x-patternMessage
    ];
    expect(samples.filter((key) => !used.has(key))).toEqual([]);
    expect(used.size).toBeGreaterThan(100);
  });

  it('has a zh-cn translation for every key the server uses', () => {
    const missing = [...used]
      .filter(([key]) => !(key in packs['zh-cn']))
      .map(([key, files]) => `${JSON.stringify(key)} (used in ${[...files].join(', ')})`);
    expect(missing, 'message keys without a zh-cn translation in locales/zh-cn/server/*.json').toEqual([]);
  });

  it.each(LANGS)('keeps the placeholders of every key in the %s pack', (lang) => {
    const mismatched = Object.entries(packs[lang])
      .filter(([key, text]) => placeholders(key) !== placeholders(text))
      .map(([key, text]) => `${JSON.stringify(key)} → ${JSON.stringify(text)}`);
    expect(mismatched, `translations in locales/${lang}/server/*.json whose %s/%d placeholders differ from the key`).toEqual([]);
  });
});

/** Every key of a nested message file, as `a.b.c`, with its text. */
function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) for (const [path, text] of flatten(item, prefix ? `${prefix}.${key}` : key)) out.set(path, text);
  }
  return out;
}

/** English-only keys: names of stored (Chinese) rule titles, which zh-cn shows as stored. */
const ENGLISH_ONLY = /^shell\.(menus|buttons)\./;
const HAN = /[\u4e00-\u9fff]/;

describe('client message files', () => {
  const areas = ['admin', 'common', 'member'];
  const files = areas.flatMap((area) => filesUnder(`locales/en/${area}`, '.json').map((file) => relative(join(ROOT, 'locales/en'), file)));

  it('exist in both languages with the same keys', () => {
    expect(files.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const file of files) {
      const en = flatten(JSON.parse(readFileSync(join(ROOT, 'locales/en', file), 'utf8')));
      const zh = flatten(JSON.parse(readFileSync(join(ROOT, 'locales/zh-cn', file), 'utf8')));
      for (const key of en.keys()) if (!zh.has(key) && !ENGLISH_ONLY.test(key)) problems.push(`${file}: zh-cn lacks ${key}`);
      for (const key of zh.keys()) if (!en.has(key)) problems.push(`${file}: en lacks ${key}`);
    }
    expect(problems).toEqual([]);
  });

  it('are written in their language: no Chinese in English, no English copied into Chinese', () => {
    const problems: string[] = [];
    for (const file of files) {
      const en = flatten(JSON.parse(readFileSync(join(ROOT, 'locales/en', file), 'utf8')));
      const zh = flatten(JSON.parse(readFileSync(join(ROOT, 'locales/zh-cn', file), 'utf8')));
      for (const [key, text] of en) if (HAN.test(text)) problems.push(`${file}: en ${key} is Chinese`);
      // Copied English: a Chinese text equal to the English one, unless it has no words to translate
      // (codes) or is a name (the product's brand).
      for (const [key, text] of zh) {
        if (en.get(key) === text && !key.endsWith('.brand') && /[a-z]{3,}/.test(text.replace(/%\{\w+\}|%[sd]/g, ''))) problems.push(`${file}: zh-cn ${key} is English: ${text}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * A screen whose keys share a prefix names it once: `const tr = usePrefixedTranslate('survey.reconcile')`
 * (src/client/i18n/prefixed-translate.ts), then `tr('title')` reads `survey.reconcile.title`.
 */
const PREFIXED_HELPER = /\bconst (\w+) = usePrefixedTranslate\(\s*'([\w.-]+)'\s*\)/g;

/**
 * The full keys a source names through its prefixing helpers, each call belonging to the nearest helper of
 * its name above it. A key built at run time (`tr(`roles.${role}`)`) gives its written start as a group
 * (`survey.providerTest.roles.`), of which at least one key must exist. `unowned`: calls above every helper.
 */
function keysThroughHelpers(source: string): { keys: { key: string; group: boolean }[]; unowned: string[] } {
  const helpers = [...source.matchAll(PREFIXED_HELPER)].map((match) => ({ name: match[1], prefix: match[2], at: match.index }));
  const keys: { key: string; group: boolean }[] = [];
  const unowned: string[] = [];
  for (const name of new Set(helpers.map((helper) => helper.name))) {
    for (const call of source.matchAll(new RegExp(`(?<![\\w.])${name}\\(\\s*(?:'([^'\\\\\\n]+)'|\`([^\`$]*)\\$\\{)`, 'g'))) {
      const owner = helpers.filter((helper) => helper.name === name && helper.at < call.index).at(-1);
      if (!owner) unowned.push(call[0]);
      else if (call[1] !== undefined) keys.push({ key: `${owner.prefix}.${call[1]}`, group: false });
      else if (call[2]) keys.push({ key: `${owner.prefix}.${call[2]}`, group: true });
    }
  }
  return { keys, unowned };
}

/** Where the string or template starting at `i` ends (the index of its closing quote), else `i`. */
function skipQuoted(source: string, i: number): number {
  const char = source[i];
  if (char !== "'" && char !== '"' && char !== '`') return i;
  const end = new RegExp(`${char}(?:[^${char}\\\\]|\\\\.)*${char}`, 'y');
  end.lastIndex = i;
  const match = end.exec(source);
  return match ? i + match[0].length - 1 : i;
}

/** The body of a function starting at `start`: a `{…}` block, or an expression up to where it closes. */
function bodyAt(source: string, start: number): string {
  let depth = 0;
  const block = source[start] === '{';
  for (let i = start; i < source.length; i++) {
    i = skipQuoted(source, i);
    const char = source[i];
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) {
      depth--;
      if (depth < 0 || (block && depth === 0)) return source.slice(start, i + 1);
    } else if (!block && depth === 0 && ',;\n'.includes(char)) return source.slice(start, i);
  }
  return source.slice(start);
}

/** The parameter names of a parameter list's text (`key: string, fallback = ''`); destructured ones are left out. */
function parameterNames(list: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= list.length; i++) {
    const char = list[i] ?? ',';
    if ('<{['.includes(char)) depth++;
    else if ('>}]'.includes(char)) depth--;
    else if (char === ',' && depth === 0) {
      const name = /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(list.slice(start, i))?.[1];
      if (name) names.push(name);
      start = i + 1;
    }
  }
  return names;
}

/** The arrow functions and function declarations of a source, with their parameters and bodies. */
function functionsOf(source: string): { params: string[]; body: string }[] {
  const found: { params: string[]; body: string }[] = [];
  const heads = [
    /(?<![\w$])(?:\(([^()]*)\)|([A-Za-z_$][\w$]*))(?:\s*:\s*[\w$<>[\]|., ]+)?\s*=>\s*/g,
    /\bfunction\b\s*\*?\s*[\w$]*\s*(?:<[^>]*>)?\s*\(([^()]*)\)[^{;]*/g,
  ];
  for (const head of heads) {
    for (const match of source.matchAll(head)) {
      found.push({ params: parameterNames(match[1] ?? match[2] ?? ''), body: bodyAt(source, match.index + match[0].length) });
    }
  }
  return found;
}

/** The expression starting at `start`, without the bracket closing around it (`{ _: x }` gives `x`). */
function expressionAt(source: string, start: number): string {
  const body = bodyAt(source, start).trim();
  const opened = body.match(/[([{]/g)?.length ?? 0;
  const closed = body.match(/[)\]}]/g)?.length ?? 0;
  return closed > opened ? body.slice(0, -1).trim() : body;
}

/** A name, or a path into it (`texts.label[1]`, `entry.label`, `UploadProblem[refused]`), as a default's whole value. */
const REFERENCE = /^([A-Za-z_$][\w$]*)(?:\??\.[\w$]+|\[[^\]]*\])*$/;

/**
 * Whether `name` in `source` holds texts written in the code: a `const` of a string or of an object or array
 * literal with strings in it, a `const` reading into one (`const texts = TEXTS[decision]`), the item of a loop
 * over one (`TOOLS.map((tool) => …)`, `for (const tool of TOOLS)`), or such a `const` imported from a sibling file.
 */
function fromTextTable(file: string, source: string, name: string, seen: Set<string>): boolean {
  if (seen.has(`${file}:${name}`)) return false;
  seen.add(`${file}:${name}`);
  const declared = new RegExp(`\\bconst ${name}\\b(?:\\s*:[^=]*)?\\s*=\\s*`).exec(source);
  if (declared) {
    const value = expressionAt(source, declared.index + declared[0].length);
    if (literalValue(value) !== undefined) return true;
    if (/^[[{]/.test(value)) return new RegExp(STRING).test(value);
    const root = REFERENCE.exec(value)?.[1];
    return root !== undefined && fromTextTable(file, source, root, seen);
  }
  const looped = new RegExp(`\\b([A-Za-z_$][\\w$]*)\\.(?:map|flatMap|forEach|filter|find|some|every)\\(\\s*\\(?\\s*${name}\\b|\\bfor\\s*\\(\\s*const ${name} of ([A-Za-z_$][\\w$]*)`).exec(source);
  if (looped) return fromTextTable(file, source, looped[1] ?? looped[2], seen);
  const imported = new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*'(\\.[^']+)\\.js'`).exec(source);
  if (imported) {
    const base = join(file, '..', imported[1]);
    const target = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
    return target !== undefined && fromTextTable(target, readFileSync(target, 'utf8'), name, seen);
  }
  return false;
}

/**
 * The screens' texts have one home, the message files: a key a screen names exists in both languages
 * (react-admin's own `ra.*` keys in its English pack and our Chinese one), and no call carries an English
 * text of its own as react-admin's `_` default, which would show instead of a missing translation and
 * drift from the file.
 */
describe('texts the screens name', () => {
  const areas = ['admin', 'common', 'member'];
  const packs = Object.fromEntries(
    LANGS.map((lang) => {
      const keys = new Set<string>(lang === 'en' ? flatten(englishMessages).keys() : []);
      for (const area of areas) for (const file of filesUnder(`locales/${lang}/${area}`, '.json')) for (const key of flatten(JSON.parse(readFileSync(file, 'utf8'))).keys()) keys.add(key);
      return [lang, keys];
    }),
  );
  const sources = filesUnder('src/client', '.ts').concat(filesUnder('src/client', '.tsx'));
  /** A key written out where a text is asked for: `translate('generated.list.empty')`, `notify('generated.sort.sameLevel')`. */
  const KEY_CALL = /\b(?:translate|t|notify)\(\s*'([A-Za-z][\w-]*(?:\.[\w-]+)+)'/g;

  it('exist in zh-cn and en', () => {
    const problems: string[] = [];
    let keys = 0;
    for (const file of sources) {
      for (const [, key] of readFileSync(file, 'utf8').matchAll(KEY_CALL)) {
        keys += 1;
        for (const lang of LANGS) if (!packs[lang].has(key) && !(lang === 'zh-cn' && ENGLISH_ONLY.test(key))) problems.push(`${relative(ROOT, file)}: ${lang} lacks ${key}`);
      }
    }
    expect(keys).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });

  it('carry no English default beside the key', () => {
    const fallback = new RegExp(`\\b_:\\s*(?:${STRING}|\`)`, 'g');
    const problems = sources.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(fallback)].map((match) => `${relative(ROOT, file)}: ${match[0]}`));
    expect(problems).toEqual([]);
  });

  it('carry no default taken from a table of texts in the code', () => {
    // `{ _: TEXTS[decision].label }`, `{ _: entry.label }` in `FAMILIES.map((entry) => …)`, `{ _: UploadProblem[refused] }`
    // imported from a table: an English copy all the same. A default read from data (a server message, a stored
    // title, a schema's own language) is none of these and may stay.
    const problems: string[] = [];
    for (const file of sources) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/\b_:\s*/g)) {
        const value = expressionAt(source, match.index + match[0].length);
        const root = REFERENCE.exec(value)?.[1];
        if (root && fromTextTable(file, source, root, new Set())) problems.push(`${relative(ROOT, file)}: _: ${value}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('named through a prefixing helper exist in zh-cn and en', () => {
    const problems: string[] = [];
    const found = new Set<string>();
    for (const file of sources) {
      const where = relative(ROOT, file);
      const { keys, unowned } = keysThroughHelpers(readFileSync(file, 'utf8'));
      for (const call of unowned) problems.push(`${where}: ${call} comes before the usePrefixedTranslate that names its prefix`);
      for (const { key, group } of keys) {
        found.add(group ? `${key}*` : key);
        for (const lang of LANGS) {
          const known = group ? [...packs[lang]].some((existing) => existing.startsWith(key)) : packs[lang].has(key);
          if (!known) problems.push(`${where}: ${lang} lacks ${group ? `any key ${key}…` : key}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The scan itself works: plain keys and keys built at run time, in each screen using the helper.
    expect(found.size).toBeGreaterThan(150);
    expect([...found]).toEqual(expect.arrayContaining([
      'survey.providerTest.button', 'survey.providerTest.roles.*', 'survey.providerForm.recipe.chainFrom', 'survey.providerForm.reversal.value.*',
      'survey.providerForm.addresses.callback', 'survey.formBuilder.problems.*', 'survey.reconcile.title',
    ]));
  });

  it('are not given an English default by a helper or its callers', () => {
    const problems: string[] = [];
    for (const file of sources) {
      const source = readFileSync(file, 'utf8');
      const where = relative(ROOT, file);
      // `tr('title', 'Reconcile participations')`: a text beside the key, whatever the helper does with it.
      const names = new Set(['translate', 't', ...[...source.matchAll(PREFIXED_HELPER)].map((match) => match[1])]);
      for (const call of source.matchAll(new RegExp(`(?<![\\w.])(${[...names].join('|')})\\(`, 'g'))) {
        const [, second] = argumentsAt(source, call.index + call[0].length - 1);
        if (second !== undefined && (literalValue(second) !== undefined || second.startsWith('`'))) problems.push(`${where}: ${call[1]}(…, ${second})`);
      }
      // `(key, fallback) => translate(`x.${key}`, { _: fallback })`: a parameter that only ever becomes the default.
      for (const { params, body } of functionsOf(source)) {
        for (const param of params) {
          const defaults = body.match(new RegExp(`\\b_:\\s*${param}\\b(?!\\s*[.([?])`, 'g'))?.length ?? 0;
          const uses = body.match(new RegExp(`(?<![\\w.$])${param}\\b`, 'g'))?.length ?? 0;
          if (defaults > 0 && defaults === uses) problems.push(`${where}: the parameter ${param} is only a translate default (_: ${param})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
