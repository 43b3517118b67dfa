import { describe, expect, it } from 'vitest';
import { checkResource } from '../../../src/schema/check.js';
import { compilePattern, PatternError } from '../../../src/schema/pattern.js';

/**
 * The linear pattern check answers as the engine's `test` does (with the `u` flag), and its work is
 * bounded by (code points + 1) × states however the pattern could make a backtracking engine try.
 */

const PATTERNS = [
  '^[a-zA-Z][a-zA-Z0-9_]{2,14}$', '^[A-Za-z0-9_]+$', '^[A-Za-z_][A-Za-z0-9_]{0,31}$', '^[a-z0-9][a-z0-9_-]{1,31}$',
  '^(?!.*[&<>"\'\\n\\r]).{6,32}$', 'ab|cd', '^(ab|a)(bc|c)$', 'a*', '^$', '^a?b+c*$', 'x{2}', 'x{2,}', 'x{2,4}?', '^(?:a|b)*c$',
  '\\bfoo\\b', '\\Bo', '^\\d+(\\.\\d{1,2})?$', '[^\\d\\s]', '[\\w-]+@[\\w.-]+', '\\p{Script=Han}+', '^[\\p{L}\\d]+$', '[^\\P{Lu}]',
  '(?<=a)b', '(?<!a)b', 'a(?=b)', 'a(?!b)', '^(?=.*\\d)(?=.*[a-z]).{4,}$', '(?<year>\\d{4})-\\d\\d', '\\u{1F600}', '[\\u{1F600}-\\u{1F64F}]',
  '\\uD83D\\uDE00', '\\x41\\u0042', '\\cJ', '\\0', '[\\b]', '[a\\-z]', '[-a]', '[a-]', '[]', '[^]', '.', '^.$', '\\s', '\\S+', '\\W',
  '(a|ab)(c|bcd)(d*)', '(?:(?=a)\\w)+', '^(a+)+$', '(a*)*b', '(?:)', '()*', 'a{0}', '^(?:a{1,3}){2}$', '[.]\\.', '\\/', '\\^\\$',
  '(?<=(?<!b)a)c', '(?=(?!x)\\w)\\w{2}$', '^\\b$', '\\b', '[\\d-z]'.replace('\\d-z', 'x-z'),
];

const ALPHABET = ['a', 'b', 'c', 'd', 'x', 'z', '0', '5', '_', '-', '.', '@', ' ', '\n', '\r', '&', 'A', 'Q', '中', '文', '😀', '\u2028', '\ud800', 'é'];

function* samples(seed: number): Generator<string> {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  yield '';
  for (const char of ALPHABET) yield char;
  for (let i = 0; i < 400; i++) {
    const length = Math.floor(random() * 12);
    let text = '';
    for (let j = 0; j < length; j++) text += ALPHABET[Math.floor(random() * ALPHABET.length)];
    yield text;
  }
}

describe('compilePattern', () => {
  it.each(PATTERNS)('answers as the engine does for %s', (source) => {
    const engine = new RegExp(source, 'u');
    const pattern = compilePattern(source);
    const words = source.replace(/[^a-z0-9 _.@&\-中文]/giu, '');
    for (const text of [...samples(source.length), words, `${words}${words}`, 'abcd', 'abc', 'ab', 'aab', 'aaaa', 'abcbcd', 'foo bar', 'aa1b', 'Abc_12', '2024-01', '12.50', '1.234']) {
      expect(pattern.test(text), `${source} on ${JSON.stringify(text)}`).toBe(engine.test(text));
    }
  });

  it('reads every character as the engine does in each kind of class', () => {
    const classes = ['.', '\\s', '\\S', '\\d', '\\D', '\\w', '\\W', '[^a-z\\d]', '[\\s\\w]', '[^\\S]', '\\p{L}', '[\\p{N}a]'];
    for (const source of classes) {
      const engine = new RegExp(`^${source}$`, 'u');
      const pattern = compilePattern(`^${source}$`);
      for (let codePoint = 0; codePoint <= 0xffff; codePoint += source.startsWith('\\p') || source.includes('\\p') ? 7 : 1) {
        const text = String.fromCodePoint(codePoint);
        if (pattern.test(text) !== engine.test(text)) expect(`${source} on U+${codePoint.toString(16)}: ${pattern.test(text)}`).toBe(`${source} on U+${codePoint.toString(16)}: ${engine.test(text)}`);
      }
    }
  });

  it('stays within (code points + 1) × states steps on the texts that make backtracking blow up', () => {
    const hostile: [string, (n: number) => string][] = [
      ['^(a+)+$', (n) => `${'a'.repeat(n)}!`],
      ['^(a|a)*$', (n) => `${'a'.repeat(n)}!`],
      ['^(a|aa)+$', (n) => `${'a'.repeat(n)}!`],
      ['(\\w+\\s?)+$', (n) => `${'word '.repeat(n)}!`],
      ['^(?:a*)*b$', (n) => 'a'.repeat(n)],
      ['\\d*\\d*\\d*\\d*x', (n) => '1'.repeat(n)],
      ['^(?=(a+)+$)', (n) => `${'a'.repeat(n)}!`],
    ];
    for (const [source, textOf] of hostile) {
      const pattern = compilePattern(source);
      for (const n of [30, 1000, 20000]) {
        const text = textOf(n);
        const { matched, steps } = pattern.run(text);
        expect(matched, source).toBe(false);
        expect(steps, `${source} on ${n}`).toBeLessThanOrEqual((Array.from(text).length + 1) * pattern.states);
      }
    }
  });

  it('gives a text up, as not matching, after a million steps, however many states and characters', () => {
    const wide = compilePattern('x.{0,450}y');
    expect(wide.states).toBeGreaterThan(900);
    const { matched, steps } = wide.run('x'.repeat(1_000_000));
    expect(matched).toBe(false);
    // the last position read may finish: at most one position's worth (every state once) past the limit
    expect(steps).toBeLessThanOrEqual(1_000_000 + wide.states);
    // a match found within the limit is a match
    expect(wide.test(`${'x'.repeat(300)}y`)).toBe(true);
  });

  it('refuses back-references and patterns too large to check, saying why', () => {
    const reason = (source: string) => {
      try {
        compilePattern(source);
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(PatternError);
        return `${(error as PatternError).reason}: ${(error as PatternError).message}`;
      }
    };
    expect(reason('^(a+)\\1$')).toBe('unsupported: a back-reference (\\1) cannot be checked in linear time');
    expect(reason('^(?<x>a+)\\k<x>$')).toBe('unsupported: a back-reference (\\k<x>) cannot be checked in linear time'.replace('\\k<x>', '\\k<name>'));
    expect(reason('(a{1000}){1000}')).toMatch(/^too large: /);
    expect(reason('a{99999999}')).toMatch(/^too large: /);
    expect(reason('a'.repeat(1001))).toMatch(/^too large: /);
    expect(reason('(unclosed')).toMatch(/^syntax: /);
    expect(reason('a{2,1}')).toMatch(/^syntax: /);
  });

  it('is where every schema is checked: a schema file, a module or a designed one with such a pattern names the field', () => {
    const schema = (pattern: string) => ({
      $id: 'demo/thing', title: 'Thing', type: 'object', 'x-table': 'demo_thing',
      properties: { id: { type: 'integer', readOnly: true }, code: { type: 'string', pattern } },
    });
    expect(() => checkResource('schemas/demo/thing.json', schema('^(a+)\\1$'))).toThrow('schemas/demo/thing.json: /properties/code/pattern: the pattern of "code" cannot be used: a back-reference (\\1) cannot be checked in linear time');
    expect(checkResource('schemas/demo/thing.json', schema('^(a+)+$')).fields.map((field) => field.name)).toEqual(['id', 'code']);
  });
});
