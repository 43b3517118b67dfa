/**
 * Click captcha: an image with a few distinct shapes; the user is told (as text, outside the image)
 * which shapes to click and in which order. The answer lives only in the server-side puzzle: the PNG
 * carries pixels alone, so the order and positions cannot be read from the image bytes.
 */
import { randomBytes } from 'node:crypto';
import { Raster, boundsOf, hsl, transformPoints } from './raster.js';
import type { Point, RandomSource, Rgba } from './raster.js';
import { isOneOf, isRecord } from '../../contract/checks.js';

export const CAPTCHA_SHAPES = ['circle', 'triangle', 'square', 'star', 'diamond', 'hexagon', 'heart', 'cross'] as const;
type CaptchaShape = (typeof CAPTCHA_SHAPES)[number];

/** x, y = top-left of the target's clickable box in image pixels (integers); the box bounds the drawn, rotated shape. */
export interface ClickTarget {
  shape: CaptchaShape;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Targets are listed in the order the user must click them. Store this server-side; never send it to the client. */
export interface ClickPuzzle {
  width: number;
  height: number;
  targets: ClickTarget[];
}

interface ClickCaptchaOptions {
  /** Shapes the user must click, 1..8 (default 2). */
  targetCount?: number;
  /** Extra shapes of other kinds drawn as distractors, 0.. (default 2); targetCount + decoyCount <= 8. */
  decoyCount?: number;
  /** Uniform [0,1) source; defaults to a crypto-backed one. Tests pass a seeded PRNG. */
  random?: () => number;
}

const IMAGE_WIDTH = 350;
const IMAGE_HEIGHT = 200;
const MIN_SHAPE_SIZE = 34;
const MAX_SHAPE_SIZE = 44;
/**
 * Rotation is limited to ±30°: beyond that a square turns into a "diamond" and a heart or triangle
 * starts to look like a different symbol, which would make the instruction ambiguous for people.
 */
const MAX_ROTATION = Math.PI / 6;
/** Minimum empty space between two shapes' boxes (also keeps drop shadows off neighbouring boxes). */
const BOX_GAP = 10;
/** Minimum distance between a box and the image border. */
const EDGE_MARGIN = 4;
/** Drop-shadow offset in px: lifts shapes off the busy background. */
const SHADOW_OFFSET = 2;
/** Extra px accepted around a target's box when checking a click: fingers and scaled images are imprecise. */
const CLICK_TOLERANCE = 2;
const MAX_INFO_LENGTH = 200;
/**
 * Plain decimal, no sign or exponent: browsers report offsets as non-negative numbers. The fraction
 * allows 17 digits because that is how long a JS double can print (e.g. after client-side scaling).
 */
const DECIMAL = /^\d{1,7}(?:\.\d{1,17})?$/;

const DEFAULT_TARGET_COUNT = 2;
const DEFAULT_DECOY_COUNT = 2;
const RANDOM_ATTEMPTS_PER_SHAPE = 60;
const RANDOM_LAYOUT_ATTEMPTS = 20;

/** Scales and centres an outline so its bounding box is centred on the origin with its longer side = 1. */
function normalise(points: readonly Point[]): Point[] {
  const b = boundsOf(points);
  const cx = (b.minX + b.maxX) / 2;
  const cy = (b.minY + b.maxY) / 2;
  const scale = 1 / Math.max(b.maxX - b.minX, b.maxY - b.minY);
  return points.map((p) => ({ x: (p.x - cx) * scale, y: (p.y - cy) * scale }));
}

/** Regular polygon / star outline: vertex k at angle start + k·2π/n, radius alternating through `radii`. */
function radial(count: number, startDeg: number, radii: readonly number[]): Point[] {
  const points: Point[] = [];
  for (let k = 0; k < count; k++) {
    const angle = ((startDeg + (k * 360) / count) * Math.PI) / 180;
    const r = radii[k % radii.length];
    points.push({ x: Math.cos(angle) * r, y: Math.sin(angle) * r });
  }
  return points;
}

function heartOutline(): Point[] {
  // The classic parametric heart curve; y is negated because image y grows downwards.
  const points: Point[] = [];
  const steps = 96;
  for (let k = 0; k < steps; k++) {
    const t = (k / steps) * Math.PI * 2;
    points.push({
      x: 16 * Math.sin(t) ** 3,
      y: -(13 * Math.cos(t) - 5 * Math.cos(2 * t) - 2 * Math.cos(3 * t) - Math.cos(4 * t)),
    });
  }
  return points;
}

function crossOutline(): Point[] {
  const a = 0.32; // half arm thickness relative to half span 1: thick enough to read as a "+" at 34 px
  return [
    { x: -a, y: -1 },
    { x: a, y: -1 },
    { x: a, y: -a },
    { x: 1, y: -a },
    { x: 1, y: a },
    { x: a, y: a },
    { x: a, y: 1 },
    { x: -a, y: 1 },
    { x: -a, y: a },
    { x: -1, y: a },
    { x: -1, y: -a },
    { x: -a, y: -a },
  ];
}

/** Unit outlines (longer side 1, centred) for every shape kind. */
const SHAPE_OUTLINES: Readonly<Record<CaptchaShape, readonly Point[]>> = {
  circle: normalise(radial(64, 0, [1])),
  triangle: normalise(radial(3, -90, [1])),
  square: normalise(radial(4, 45, [1])),
  star: normalise(radial(10, -90, [1, 0.42])),
  // A narrow rhombus, so it stays distinct from a square even when rotated.
  diamond: normalise([
    { x: 0, y: -1 },
    { x: 0.62, y: 0 },
    { x: 0, y: 1 },
    { x: -0.62, y: 0 },
  ]),
  hexagon: normalise(radial(6, 0, [1])),
  heart: normalise(heartOutline()),
  cross: normalise(crossOutline()),
};

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface PlacedShape {
  shape: CaptchaShape;
  /** Absolute outline, already scaled, rotated and positioned. */
  points: Point[];
  box: Box;
}

/** A crypto-backed uniform [0,1) source drawing 32-bit values from a pooled buffer. */
function secureRandom(): RandomSource {
  let pool = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset + 4 > pool.length) {
      pool = randomBytes(1024);
      offset = 0;
    }
    const value = pool.readUInt32BE(offset);
    offset += 4;
    return value / 0x100000000;
  };
}

/** Guards against caller-supplied sources returning 1, negatives or NaN, which would index out of range. */
function sanitised(random: RandomSource): RandomSource {
  return () => {
    const v = random();
    return Number.isFinite(v) ? Math.min(Math.max(v, 0), 1 - Number.EPSILON) : 0;
  };
}

function between(random: RandomSource, min: number, max: number): number {
  return min + random() * (max - min);
}

function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function boxesTooClose(a: Box, b: Box): boolean {
  return (
    a.x < b.x + b.width + BOX_GAP &&
    b.x < a.x + a.width + BOX_GAP &&
    a.y < b.y + b.height + BOX_GAP &&
    b.y < a.y + a.height + BOX_GAP
  );
}

/** Random size and rotation; returns the outline around the origin so the caller can choose a position. */
function sizedOutline(shape: CaptchaShape, random: RandomSource): Point[] {
  const size = between(random, MIN_SHAPE_SIZE, MAX_SHAPE_SIZE);
  const angle = between(random, -MAX_ROTATION, MAX_ROTATION);
  return transformPoints(
    SHAPE_OUTLINES[shape].map((p) => ({ x: p.x * size, y: p.y * size })),
    angle,
    0,
    0,
  );
}

/**
 * Moves `outline` so its origin lands on (cx, cy) and computes the integer
 * clickable box (outward-rounded so it fully contains the drawn shape).
 */
function position(shape: CaptchaShape, outline: readonly Point[], cx: number, cy: number): PlacedShape {
  const points = outline.map((p) => ({ x: p.x + cx, y: p.y + cy }));
  const b = boundsOf(points);
  const x = Math.floor(b.minX);
  const y = Math.floor(b.minY);
  return { shape, points, box: { x, y, width: Math.ceil(b.maxX) - x, height: Math.ceil(b.maxY) - y } };
}

/** Rejection sampling: natural-looking scattered layouts; gives up (null) rather than looping forever. */
function randomLayout(shapes: readonly CaptchaShape[], random: RandomSource): PlacedShape[] | null {
  const placed: PlacedShape[] = [];
  for (const shape of shapes) {
    let done = false;
    for (let attempt = 0; attempt < RANDOM_ATTEMPTS_PER_SHAPE && !done; attempt++) {
      const outline = sizedOutline(shape, random);
      const b = boundsOf(outline);
      // +1 / -1 absorb the outward rounding of the integer box.
      const cx = between(random, EDGE_MARGIN + 1 - b.minX, IMAGE_WIDTH - EDGE_MARGIN - 1 - b.maxX);
      const cy = between(random, EDGE_MARGIN + 1 - b.minY, IMAGE_HEIGHT - EDGE_MARGIN - 1 - b.maxY);
      const candidate = position(shape, outline, cx, cy);
      if (placed.every((p) => !boxesTooClose(p.box, candidate.box))) {
        placed.push(candidate);
        done = true;
      }
    }
    if (!done) return null;
  }
  return placed;
}

/**
 * Fallback that always succeeds: a 4×2 grid of cells (8 = the maximum number of shapes), each shape
 * jittered inside its own randomly chosen cell. A cell (87×100 px) holds the largest rotated shape
 * (~61 px) plus half the gap on every side, so boxes can never come too close.
 */
function gridLayout(shapes: readonly CaptchaShape[], random: RandomSource): PlacedShape[] {
  const cols = 4;
  const rows = 2;
  const cellW = IMAGE_WIDTH / cols;
  const cellH = IMAGE_HEIGHT / rows;
  const cells = shuffled(
    Array.from({ length: cols * rows }, (_, i) => ({ col: i % cols, row: Math.floor(i / cols) })),
    random,
  );
  const pad = Math.max(BOX_GAP / 2, EDGE_MARGIN) + 1;
  return shapes.map((shape, i) => {
    const { col, row } = cells[i];
    const outline = sizedOutline(shape, random);
    const b = boundsOf(outline);
    const left = col * cellW + pad - b.minX;
    const right = (col + 1) * cellW - pad - b.maxX;
    const top = row * cellH + pad - b.minY;
    const bottom = (row + 1) * cellH - pad - b.maxY;
    return position(shape, outline, between(random, left, Math.max(left, right)), between(random, top, Math.max(top, bottom)));
  });
}

function layout(shapes: readonly CaptchaShape[], random: RandomSource): PlacedShape[] {
  for (let attempt = 0; attempt < RANDOM_LAYOUT_ATTEMPTS; attempt++) {
    const result = randomLayout(shapes, random);
    if (result) return result;
  }
  return gridLayout(shapes, random);
}

/** Saturated mid-lightness colours with hues spread around the wheel, so neighbouring shapes differ and all contrast with the pale background. */
function shapeColours(count: number, random: RandomSource): Rgba[] {
  const base = random() * 360;
  const colours = Array.from({ length: count }, (_, i) =>
    hsl(base + (i * 360) / count + between(random, -12, 12), between(random, 0.68, 0.9), between(random, 0.36, 0.48)),
  );
  return shuffled(colours, random);
}

function countOption(value: number | undefined, fallback: number, name: string, min: number): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${n}`);
  return n;
}

/**
 * Renders a new puzzle. Throws RangeError only for invalid options (a programming error):
 * targetCount must be an integer >= 1, decoyCount an integer >= 0, and their sum at most
 * CAPTCHA_SHAPES.length because every drawn shape is a different kind.
 */
export function createClickCaptcha(options: ClickCaptchaOptions = {}): { puzzle: ClickPuzzle; png: Buffer } {
  const targetCount = countOption(options.targetCount, DEFAULT_TARGET_COUNT, 'targetCount', 1);
  const decoyCount = countOption(options.decoyCount, DEFAULT_DECOY_COUNT, 'decoyCount', 0);
  if (targetCount + decoyCount > CAPTCHA_SHAPES.length) {
    throw new RangeError(`targetCount + decoyCount must be <= ${CAPTCHA_SHAPES.length}`);
  }
  const random = sanitised(options.random ?? secureRandom());

  // Shuffled kinds: the first `targetCount` are the targets, in click order; the rest are decoys.
  const kinds = shuffled(CAPTCHA_SHAPES, random).slice(0, targetCount + decoyCount);
  const placed = layout(kinds, random);

  const raster = new Raster(IMAGE_WIDTH, IMAGE_HEIGHT);
  raster.fillNoisyBackground(random);
  const colours = shapeColours(placed.length, random);
  const shadow: Rgba = { r: 0, g: 0, b: 0, a: 0.3 };
  // Paint in random order so nothing about target vs decoy is implied by overdraw.
  for (const i of shuffled(
    placed.map((_, k) => k),
    random,
  )) {
    const { points } = placed[i];
    raster.fillPolygon(
      points.map((p) => ({ x: p.x + SHADOW_OFFSET, y: p.y + SHADOW_OFFSET })),
      shadow,
    );
    raster.fillPolygon(points, colours[i]);
  }
  // A little clutter over the shapes too, so they are not perfectly flat, easily thresholded regions.
  raster.addNoiseLines(random, 2, 0.35);
  raster.addNoiseDots(random, 40);

  const targets: ClickTarget[] = placed.slice(0, targetCount).map((p) => ({ shape: p.shape, ...p.box }));
  return { puzzle: { width: IMAGE_WIDTH, height: IMAGE_HEIGHT, targets }, png: raster.toPng() };
}

function parseDecimal(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** A target as stored: a known shape and a box of finite numbers; anything else is none. */
function isClickTarget(value: unknown): value is ClickTarget {
  if (!isRecord(value)) return false;
  const { shape, x, y, width, height } = value;
  return isOneOf(CAPTCHA_SHAPES, shape) && isFiniteNumber(x) && isFiniteNumber(y) && isFiniteNumber(width) && isFiniteNumber(height);
}

/**
 * `value` as a puzzle when it is one (what `createClickCaptcha` makes, read back from storage): a positive
 * size and a list of targets, each a known shape in a box of finite numbers. Anything else is none.
 */
export function clickPuzzleOf(value: unknown): ClickPuzzle | undefined {
  if (!isRecord(value)) return undefined;
  const { width, height, targets } = value;
  if (!isFiniteNumber(width) || !isFiniteNumber(height) || width <= 0 || height <= 0) return undefined;
  if (!Array.isArray(targets) || !targets.every(isClickTarget)) return undefined;
  return { width, height, targets };
}

function verify(puzzle: ClickPuzzle, info: string): boolean {
  if (typeof info !== 'string' || info.length === 0 || info.length > MAX_INFO_LENGTH) return false;

  const sections = info.split(';');
  if (sections.length !== 3) return false;
  const renderedWidth = parseDecimal(sections[1]);
  const renderedHeight = parseDecimal(sections[2]);
  if (renderedWidth === null || renderedHeight === null || renderedWidth <= 0 || renderedHeight <= 0) return false;

  const clicks = sections[0].split('-');
  if (clicks.length !== puzzle.targets.length || clicks.length === 0) return false;

  const scaleX = puzzle.width / renderedWidth;
  const scaleY = puzzle.height / renderedHeight;
  for (let i = 0; i < clicks.length; i++) {
    const coords = clicks[i].split(',');
    if (coords.length !== 2) return false;
    const cx = parseDecimal(coords[0]);
    const cy = parseDecimal(coords[1]);
    if (cx === null || cy === null) return false;
    const x = cx * scaleX;
    const y = cy * scaleY;
    const { x: tx, y: ty, width: tw, height: th } = puzzle.targets[i];
    // Written so that any NaN that slipped through makes the comparison, and thus the answer, fail.
    const inside =
      x >= tx - CLICK_TOLERANCE &&
      x <= tx + tw + CLICK_TOLERANCE &&
      y >= ty - CLICK_TOLERANCE &&
      y <= ty + th + CLICK_TOLERANCE;
    if (!inside) return false;
  }
  return true;
}

/**
 * Checks the client's answer `"x1,y1-x2,y2;W;H"`: click offsets within the rendered image (in click
 * order), then the rendered width and height, used to scale clicks back to puzzle pixels. Returns
 * false for any wrong or malformed answer (including a malformed puzzle) and never throws.
 */
export function verifyClickAnswer(puzzle: unknown, info: string): boolean {
  const checked = clickPuzzleOf(puzzle);
  if (!checked) return false;
  try {
    return verify(checked, info);
  } catch {
    return false;
  }
}
