/**
 * The `pattern` of a field, checked in time linear in the length of the text. A schema's pattern is
 * written by an administrator (a schema file, a module, a designed resource, a quick task's form) and is
 * tested against what anyone sends. JavaScript's own engine backtracks: `^(a+)+$` against thirty `a` and
 * a `!` tries every way of splitting the `a` between the groups, some billion steps on the only thread.
 * Here the pattern becomes a set of states (a Thompson automaton) and the text is read once, every
 * possible way of matching advanced together: each state is visited at most once per character, so a test
 * costs at most (characters + 1) × states steps, whatever the pattern and the text. Server and browser
 * run this same code, so a form and the API agree.
 *
 * Only whether the pattern matches is asked (as `RegExp.prototype.test` answers it, with the `u` flag),
 * so greedy and lazy quantifiers and the order of alternatives make no difference, and neither do groups.
 *
 * Accepted: literal characters and escapes (`\n`, `\t`, `\x41`, `\u0041`, `\u{1F600}`, `\cA`, `\0`, `\.`);
 * `.`; classes `[...]`, `[^...]` with ranges and `\d \D \w \W \s \S \p{…} \P{…}`; groups `( )`, `(?: )`,
 * `(?<name> )`; alternatives `|`; quantifiers `* + ? {n} {n,} {n,m}` (lazy or not); anchors `^ $`
 * (the whole text: patterns take no `m` flag); `\b \B`; look-ahead `(?= ) (?! )` and look-behind
 * `(?<= ) (?<! )`. A look-around is settled for every position before the text is read: one more pass of
 * its own states over the text (backwards for a look-ahead), so it stays linear too. However large the
 * text, a check stops after MAX_STEPS steps (some tens of milliseconds) and the text is then refused.
 * Refused: back-references (`\1`, `\k<name>`), which no automaton can check; anything else the syntax
 * of the engine may add; and a pattern of more than MAX_STATES states once its counted repetitions are
 * written out (`x{2,5}` is five `x`), or longer than MAX_SOURCE characters.
 */
import { messageOf } from '../contract/checks.js';

/** Why a pattern cannot be used, in English (the schema checks report it with the field's path). */
export class PatternError extends Error {
  constructor(readonly reason: 'syntax' | 'unsupported' | 'too large', message: string) {
    super(message);
    this.name = 'PatternError';
  }
}

/** A compiled pattern. */
interface Pattern {
  /** whether the pattern matches somewhere in the text, as `new RegExp(source, 'u').test(text)` */
  test(text: string): boolean;
  /**
   * The same answer, with the states visited to reach it: never more than (code points + 1) × states,
   * and the check gives up (does not match) past MAX_STEPS.
   */
  run(text: string): { matched: boolean; steps: number };
  /** the number of states (the `× states` of the bound) */
  readonly states: number;
}

const MAX_STATES = 1000;
const MAX_SOURCE = 1000;
/**
 * The most steps one text is given: a text whose check would take longer does not match. No answer a
 * form expects comes near it (a pattern of 50 states against 20,000 characters takes at most a million),
 * and it bounds what one field of one request can cost the thread whatever its pattern and its text.
 */
const MAX_STEPS = 1_000_000;

type CharTest = (codePoint: number) => boolean;
type Position = 'start' | 'end' | 'word' | 'notWord';

type Node =
  | { kind: 'char'; set: CharClass }
  | { kind: 'sequence'; items: Node[] }
  | { kind: 'choice'; options: Node[] }
  | { kind: 'repeat'; body: Node; min: number; max: number }
  | { kind: 'position'; test: Position }
  | { kind: 'look'; id: number; negate: boolean };

interface Look {
  body: Node;
  ahead: boolean;
}

// --- characters ----------------------------------------------------------------------------------

/** Ranges as a flat sorted list `[from, to, from, to, …]`, inclusive. */
type Ranges = number[];

const MAX_CODE_POINT = 0x10ffff;
const DIGITS: Ranges = [0x30, 0x39];
const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** White space and line terminators, as `\s` takes them */
const SPACE: Ranges = [0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff];
const LINE_TERMINATORS: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

function normalised(ranges: Ranges): Ranges {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i], ranges[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: Ranges = [];
  for (const [from, to] of pairs) {
    if (merged.length > 0 && from <= merged[merged.length - 1] + 1) merged[merged.length - 1] = Math.max(merged[merged.length - 1], to);
    else merged.push(from, to);
  }
  return merged;
}

function complement(ranges: Ranges): Ranges {
  const sorted = normalised(ranges);
  const result: Ranges = [];
  let next = 0;
  for (let i = 0; i < sorted.length; i += 2) {
    if (sorted[i] > next) result.push(next, sorted[i] - 1);
    next = sorted[i + 1] + 1;
  }
  if (next <= MAX_CODE_POINT) result.push(next, MAX_CODE_POINT);
  return result;
}

function inRanges(ranges: Ranges, codePoint: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < ranges[middle * 2]) high = middle - 1;
    else if (codePoint > ranges[middle * 2 + 1]) low = middle + 1;
    else return true;
  }
  return false;
}

/** A set of characters: ranges, plus Unicode properties tested one character at a time by the engine. */
interface CharSet {
  ranges: Ranges;
  properties: CharTest[];
}

/** What one character state takes: a set, or every character outside it. */
interface CharClass extends CharSet {
  negate: boolean;
}

function classOf(set: CharSet, negate: boolean): CharClass {
  return { ranges: normalised(set.ranges), properties: set.properties, negate };
}

const single = (codePoint: number): CharClass => ({ ranges: [codePoint, codePoint], properties: [], negate: false });

const isWordCharacter = (codePoint: number) => inRanges(WORD, codePoint);

// --- parsing -------------------------------------------------------------------------------------

const SYNTAX_CHARACTERS = '^$\\.*+?()[]{}|/';
const CONTROL_ESCAPES: Record<string, number> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

class Parser {
  private index = 0;
  readonly looks: Look[] = [];

  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.choice();
    if (this.index < this.source.length) throw this.unsupported();
    return node;
  }

  /** What the engine accepts and this reading does not (a construct added to the language later). */
  private unsupported(): PatternError {
    return new PatternError('unsupported', `character ${this.index + 1} starts a construct this check does not read`);
  }

  private peek(offset = 0): string {
    return this.source[this.index + offset] ?? '';
  }

  private eat(text: string): boolean {
    if (!this.source.startsWith(text, this.index)) return false;
    this.index += text.length;
    return true;
  }

  private choice(): Node {
    const options = [this.sequence()];
    while (this.eat('|')) options.push(this.sequence());
    return options.length === 1 ? options[0] : { kind: 'choice', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.index < this.source.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.term());
    return items.length === 1 ? items[0] : { kind: 'sequence', items };
  }

  private term(): Node {
    if (this.eat('^')) return { kind: 'position', test: 'start' };
    if (this.eat('$')) return { kind: 'position', test: 'end' };
    if (this.eat('\\b')) return { kind: 'position', test: 'word' };
    if (this.eat('\\B')) return { kind: 'position', test: 'notWord' };
    for (const [opening, ahead, negate] of [['(?=', true, false], ['(?!', true, true], ['(?<=', false, false], ['(?<!', false, true]] as const) {
      if (!this.eat(opening)) continue;
      const body = this.choice();
      if (!this.eat(')')) throw this.unsupported();
      // inner look-arounds are numbered first, so they are settled before the one around them
      this.looks.push({ body, ahead });
      return { kind: 'look', id: this.looks.length - 1, negate };
    }
    return this.quantified(this.atom());
  }

  private quantified(body: Node): Node {
    let min: number;
    let max: number;
    if (this.eat('*')) [min, max] = [0, Infinity];
    else if (this.eat('+')) [min, max] = [1, Infinity];
    else if (this.eat('?')) [min, max] = [0, 1];
    else {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.index));
      if (!counted) return body;
      this.index += counted[0].length;
      min = Number(counted[1]);
      max = counted[2] === undefined ? min : counted[3] === '' ? Infinity : Number(counted[3]);
      if (max < min) throw this.unsupported();
      // a count beyond what the states allow cannot be written out (checked again as states are made)
      if (min > MAX_STATES || (max !== Infinity && max > MAX_STATES)) throw tooLarge();
    }
    this.eat('?');
    return { kind: 'repeat', body, min, max };
  }

  private atom(): Node {
    const char = this.peek();
    if (char === '.') {
      this.index++;
      return { kind: 'char', set: classOf({ ranges: LINE_TERMINATORS, properties: [] }, true) };
    }
    if (char === '(') {
      // `(?<=` and `(?<!` are look-behinds (`term`); `(?<` is a named group
      if (!this.eat('(?:') && !(this.eat('(?<') && this.groupName())) {
        this.index++;
        if (this.peek() === '?') throw this.unsupported();
      }
      const body = this.choice();
      if (!this.eat(')')) throw this.unsupported();
      return body;
    }
    if (char === '[') return this.characterClass();
    if (char === '\\') {
      const escaped = this.escape(false);
      return { kind: 'char', set: typeof escaped === 'number' ? single(escaped) : classOf(escaped, false) };
    }
    if ('*+?{}])|'.includes(char) || char === '') throw this.unsupported();
    const codePoint = this.source.codePointAt(this.index) ?? 0;
    this.index += codePoint > 0xffff ? 2 : 1;
    return { kind: 'char', set: single(codePoint) };
  }

  /** `name>` of `(?<name>`: the engine has checked the name. */
  private groupName(): boolean {
    const end = this.source.indexOf('>', this.index);
    if (end < 0) throw this.unsupported();
    this.index = end + 1;
    return true;
  }

  private characterClass(): Node {
    this.index++;
    const negate = this.eat('^');
    const set: CharSet = { ranges: [], properties: [] };
    while (!this.eat(']')) {
      if (this.index >= this.source.length) throw this.unsupported();
      const from = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.index++;
        const to = this.classAtom();
        if (typeof from !== 'number' || typeof to !== 'number' || to < from) throw this.unsupported();
        set.ranges.push(from, to);
      } else if (typeof from === 'number') {
        set.ranges.push(from, from);
      } else {
        set.ranges.push(...from.ranges);
        set.properties.push(...from.properties);
      }
    }
    return { kind: 'char', set: classOf(set, negate) };
  }

  /** One character of a class, or the set of a class escape (`\d`, `\p{L}` …). */
  private classAtom(): number | CharSet {
    if (this.peek() === '\\') {
      if (this.eat('\\b')) return 0x08;
      if (this.eat('\\-')) return 0x2d;
      return this.escape(true);
    }
    const codePoint = this.source.codePointAt(this.index) ?? 0;
    this.index += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  /** An escape outside or inside a class: the character it stands for, or the set of a class escape. */
  private escape(inClass: boolean): number | CharSet {
    this.index++;
    const char = this.peek();
    this.index++;
    switch (char) {
      case 'd':
        return { ranges: DIGITS, properties: [] };
      case 'D':
        return { ranges: complement(DIGITS), properties: [] };
      case 'w':
        return { ranges: WORD, properties: [] };
      case 'W':
        return { ranges: complement(WORD), properties: [] };
      case 's':
        return { ranges: SPACE, properties: [] };
      case 'S':
        return { ranges: complement(SPACE), properties: [] };
      case 'p':
      case 'P': {
        const end = this.source.indexOf('}', this.index);
        if (this.peek() !== '{' || end < 0) throw this.unsupported();
        // one code point against the engine's own property tables: a fixed, tiny amount of work
        const property = new RegExp(`^\\${char}${this.source.slice(this.index, end + 1)}$`, 'u');
        this.index = end + 1;
        return { ranges: [], properties: [(c) => property.test(String.fromCodePoint(c))] };
      }
      case 'k':
        throw new PatternError('unsupported', 'a back-reference (\\k<name>) cannot be checked in linear time');
      default:
        break;
    }
    if (/[1-9]/.test(char) && !inClass) throw new PatternError('unsupported', `a back-reference (\\${char}) cannot be checked in linear time`);
    if (char in CONTROL_ESCAPES) return CONTROL_ESCAPES[char];
    if (char === '0' && !/[0-9]/.test(this.peek())) return 0;
    if (char === 'c' && /[A-Za-z]/.test(this.peek())) return this.source.charCodeAt(this.index++) % 32;
    if (char === 'x' && /^[0-9A-Fa-f]{2}/.test(this.source.slice(this.index))) {
      this.index += 2;
      return Number.parseInt(this.source.slice(this.index - 2, this.index), 16);
    }
    if (char === 'u') return this.unicodeEscape();
    if (char !== '' && SYNTAX_CHARACTERS.includes(char)) return char.charCodeAt(0);
    this.index -= 2;
    throw this.unsupported();
  }

  /** After `\u`: `{1F600}`, or four hex digits (a surrogate pair written as two escapes is one character). */
  private unicodeEscape(): number {
    const braced = /^\{([0-9A-Fa-f]+)\}/.exec(this.source.slice(this.index));
    if (braced) {
      this.index += braced[0].length;
      return Number.parseInt(braced[1], 16);
    }
    const four = (at: number) => (/^[0-9A-Fa-f]{4}/.test(this.source.slice(at)) ? Number.parseInt(this.source.slice(at, at + 4), 16) : undefined);
    const lead = four(this.index);
    if (lead === undefined) throw this.unsupported();
    this.index += 4;
    if (lead >= 0xd800 && lead <= 0xdbff && this.source.startsWith('\\u', this.index)) {
      const trail = four(this.index + 2);
      if (trail !== undefined && trail >= 0xdc00 && trail <= 0xdfff) {
        this.index += 6;
        return (lead - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
      }
    }
    return lead;
  }
}

function tooLarge(): PatternError {
  return new PatternError('too large', `the pattern is too large to check: at most ${MAX_STATES} states once counted repetitions are written out, ${MAX_SOURCE} characters`);
}

// --- states --------------------------------------------------------------------------------------

const MATCH = 0;
const CHAR = 1;
const SPLIT = 2;
const POSITION = 3;
const LOOK = 4;
const POSITIONS: Position[] = ['start', 'end', 'word', 'notWord'];

/**
 * The states of one automaton in flat arrays, so that reading a text calls no function per step: state 0
 * is the match; a split goes on to `next` and `other`; a character state's set is its slice of `ranges`
 * (`from` to `to`), negated or not, with the Unicode property tests of `properties[property]`.
 */
class Program {
  readonly op: number[] = [MATCH];
  readonly next: number[] = [0];
  readonly other: number[] = [0];
  /** a character state: its first range; a position: its index in POSITIONS; a look-around: its id */
  readonly argument: number[] = [0];
  /** a character state: after its last range; a look-around: 1 when negated */
  readonly extra: number[] = [0];
  readonly negate: boolean[] = [false];
  readonly property: number[] = [-1];
  readonly ranges: number[] = [];
  readonly properties: CharTest[][] = [];
  start = 0;

  constructor(private readonly budget: { states: number }) {}

  private add(op: number, next: number, other = 0, argument = 0, extra = 0): number {
    if (++this.budget.states > MAX_STATES) throw tooLarge();
    this.op.push(op);
    this.next.push(next);
    this.other.push(other);
    this.argument.push(argument);
    this.extra.push(extra);
    this.negate.push(false);
    this.property.push(-1);
    return this.op.length - 1;
  }

  private char(set: CharClass, next: number): number {
    const state = this.add(CHAR, next, 0, this.ranges.length, this.ranges.length + set.ranges.length);
    this.ranges.push(...set.ranges);
    this.negate[state] = set.negate;
    if (set.properties.length > 0) this.property[state] = this.properties.push(set.properties) - 1;
    return state;
  }

  /** Either of several states: a chain of two-way splits. */
  private split(targets: number[]): number {
    return targets.slice(0, -1).reduceRight((rest, target) => this.add(SPLIT, target, rest), targets[targets.length - 1]);
  }

  /**
   * The states that match `node` and then go on to `next`. Read backwards (`reverse`), a sequence's
   * items come last to first; everything else reads the same both ways.
   */
  build(node: Node, next: number, reverse: boolean): number {
    switch (node.kind) {
      case 'char':
        return this.char(node.set, next);
      case 'position':
        return this.add(POSITION, next, 0, POSITIONS.indexOf(node.test));
      case 'look':
        return this.add(LOOK, next, 0, node.id, node.negate ? 1 : 0);
      case 'sequence': {
        const items = reverse ? node.items : [...node.items].reverse();
        return items.reduce((after, item) => this.build(item, after, reverse), next);
      }
      case 'choice':
        return this.split(node.options.map((option) => this.build(option, next, reverse)));
      case 'repeat': {
        let after: number;
        if (node.max === Infinity) {
          after = this.add(SPLIT, 0, next);
          this.next[after] = this.build(node.body, after, reverse);
        } else {
          after = next;
          for (let i = node.min; i < node.max; i++) after = this.add(SPLIT, this.build(node.body, after, reverse), next);
        }
        for (let i = 0; i < node.min; i++) after = this.build(node.body, after, reverse);
        return after;
      }
    }
  }
}

// --- running -------------------------------------------------------------------------------------

function holds(position: number, text: Int32Array, at: number): boolean {
  if (position === 0) return at === 0;
  if (position === 1) return at === text.length;
  const boundary = (at > 0 && isWordCharacter(text[at - 1])) !== (at < text.length && isWordCharacter(text[at]));
  return position === 2 ? boundary : !boundary;
}

function takes(program: Program, state: number, codePoint: number): boolean {
  const { ranges } = program;
  // binary search of the state's ranges
  let low = program.argument[state] / 2;
  let high = program.extra[state] / 2 - 1;
  let member = false;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < ranges[middle * 2]) high = middle - 1;
    else if (codePoint > ranges[middle * 2 + 1]) low = middle + 1;
    else {
      member = true;
      break;
    }
  }
  const property = program.property[state];
  if (!member && property >= 0) member = program.properties[property].some((test) => test(codePoint));
  return member !== program.negate[state];
}

/**
 * Read `text` once with `program`, forwards or backwards, starting a new attempt at every position.
 * `reached(at, matched)` hears at each position whether some attempt has matched there; answering true
 * stops, and so does passing `limit` steps. `looks` holds the settled look-arounds. Answers the states
 * visited: each state is visited at most once per position.
 */
function scan(program: Program, text: Int32Array, backwards: boolean, looks: Uint8Array[], limit: number, reached: (at: number, matched: boolean) => boolean): number {
  const op = Int32Array.from(program.op);
  const next = Int32Array.from(program.next);
  const other = Int32Array.from(program.other);
  const argument = Int32Array.from(program.argument);
  const extra = Int32Array.from(program.extra);
  const size = op.length;
  const seen = new Int32Array(size).fill(-1);
  let current = new Int32Array(size);
  let following = new Int32Array(size);
  let currentCount = 0;
  let followingCount = 0;
  const stack = new Int32Array(2 * size + 2);
  let steps = 0;
  const length = text.length;
  for (let step = 0; step <= length; step++) {
    const at = backwards ? length - step : step;
    let matched = false;
    // the attempts that reached this position, then a new one starting here
    const codePoint = step === 0 ? -1 : text[backwards ? at : at - 1];
    for (let i = 0; i <= currentCount; i++) {
      let depth = 0;
      if (i < currentCount) {
        const state = current[i];
        if (!takes(program, state, codePoint)) continue;
        stack[depth++] = next[state];
      } else {
        stack[depth++] = program.start;
      }
      while (depth > 0) {
        const state = stack[--depth];
        if (seen[state] === at) continue;
        seen[state] = at;
        steps++;
        switch (op[state]) {
          case CHAR:
            following[followingCount++] = state;
            break;
          case MATCH:
            matched = true;
            break;
          case SPLIT:
            stack[depth++] = other[state];
            stack[depth++] = next[state];
            break;
          case POSITION:
            if (holds(argument[state], text, at)) stack[depth++] = next[state];
            break;
          case LOOK:
            if (looks[argument[state]][at] !== extra[state]) stack[depth++] = next[state];
            break;
        }
      }
    }
    if (reached(at, matched) || steps > limit) break;
    [current, following] = [following, current];
    currentCount = followingCount;
    followingCount = 0;
  }
  return steps;
}

function codePointsOf(text: string): Int32Array {
  const points = new Int32Array(text.length);
  let count = 0;
  for (const character of text) points[count++] = character.codePointAt(0) ?? 0;
  return points.subarray(0, count);
}

/** Compile a pattern (a `pattern` of a schema field); throws a PatternError saying why it cannot be used. */
export function compilePattern(source: string): Pattern {
  if (source.length > MAX_SOURCE) throw tooLarge();
  try {
    new RegExp(source, 'u');
  } catch (error) {
    throw new PatternError('syntax', messageOf(error).replace(/^Invalid regular expression: /, ''));
  }
  const parser = new Parser(source);
  const root = parser.parse();
  const budget = { states: 0 };
  const program = (node: Node, reverse: boolean) => {
    const built = new Program(budget);
    built.start = built.build(node, MATCH, reverse);
    return built;
  };
  const main = program(root, false);
  // a look-ahead is read backwards: at each position, whether its body matches from there on
  const looks = parser.looks.map((look) => ({ ahead: look.ahead, program: program(look.body, look.ahead) }));
  const states = budget.states;

  function run(text: string): { matched: boolean; steps: number } {
    const points = codePointsOf(text);
    const settled: Uint8Array[] = [];
    let steps = 0;
    for (const look of looks) {
      const answers = new Uint8Array(points.length + 1);
      steps += scan(look.program, points, look.ahead, settled, MAX_STEPS - steps, (at, matched) => {
        answers[at] = matched ? 1 : 0;
        return false;
      });
      if (steps > MAX_STEPS) return { matched: false, steps };
      settled.push(answers);
    }
    let found = false;
    steps += scan(main, points, false, settled, MAX_STEPS - steps, (_at, matched) => (found = matched));
    return { matched: found, steps };
  }

  return { test: (text) => run(text).matched, run, states };
}
