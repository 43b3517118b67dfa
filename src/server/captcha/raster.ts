/**
 * A tiny software RGBA canvas: just enough drawing to render captcha images without native
 * dependencies or fonts. Coordinates are in pixels with (0,0) at the top-left corner of the
 * top-left pixel, so the centre of pixel (x,y) is (x+0.5, y+0.5).
 */
import { encodePng } from './png-encoder.js';
import { seededRandom } from '../seeded-random.js';

/** r, g, b in 0..255; a (opacity) in 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

export interface Point {
  x: number;
  y: number;
}

/** A source of uniform numbers in [0, 1), e.g. Math.random or a seeded PRNG in tests. */
export type RandomSource = () => number;

/**
 * Vertical sub-samples per pixel row when filling polygons. Horizontal coverage is computed exactly
 * per span, so 4 sub-rows are enough for smooth edges on shapes of a few dozen pixels.
 */
const POLYGON_SUBSAMPLES = 4;

/** Converts HSL (h in degrees, s and l in 0..1) to an RGB colour with the given opacity. */
export function hsl(h: number, s: number, l: number, a = 1): Rgba {
  const hue = ((h % 360) + 360) % 360;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = l - c / 2;
  let r = 0;
  let g = 0;
  let b = 0;
  if (hue < 60) [r, g, b] = [c, x, 0];
  else if (hue < 120) [r, g, b] = [x, c, 0];
  else if (hue < 180) [r, g, b] = [0, c, x];
  else if (hue < 240) [r, g, b] = [0, x, c];
  else if (hue < 300) [r, g, b] = [x, 0, c];
  else [r, g, b] = [c, 0, x];
  return { r: Math.round((r + m) * 255), g: Math.round((g + m) * 255), b: Math.round((b + m) * 255), a };
}

/** Rotates `points` by `angle` radians (clockwise on screen, since y points down) around the origin, then moves them to (cx, cy). */
export function transformPoints(points: readonly Point[], angle: number, cx: number, cy: number): Point[] {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return points.map((p) => ({ x: cx + p.x * cos - p.y * sin, y: cy + p.x * sin + p.y * cos }));
}

/** Axis-aligned bounding box of a non-empty point list. */
export function boundsOf(points: readonly Point[]): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  return { minX, minY, maxX, maxY };
}

function clampByte(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

export class Raster {
  readonly width: number;
  readonly height: number;
  /** Straight (non-premultiplied) RGBA, row-major. Starts fully transparent. */
  readonly data: Uint8Array;

  constructor(width: number, height: number) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new RangeError(`Raster dimensions must be positive integers, got ${width}x${height}`);
    }
    this.width = width;
    this.height = height;
    this.data = new Uint8Array(width * height * 4);
  }

  getPixel(x: number, y: number): Rgba {
    const i = (y * this.width + x) * 4;
    return { r: this.data[i], g: this.data[i + 1], b: this.data[i + 2], a: this.data[i + 3] / 255 };
  }

  /** Overwrites a pixel, ignoring coordinates outside the canvas. */
  setPixel(x: number, y: number, c: Rgba): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = clampByte(c.r);
    this.data[i + 1] = clampByte(c.g);
    this.data[i + 2] = clampByte(c.b);
    this.data[i + 3] = clampByte(c.a * 255);
  }

  /**
   * Composites `c` over the pixel ("source over"), with its opacity scaled by `coverage` (0..1):
   * coverage is how anti-aliasing is expressed, so edges blend instead of stair-stepping.
   */
  blendPixel(x: number, y: number, c: Rgba, coverage = 1): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const sa = Math.min(1, Math.max(0, c.a * coverage));
    if (sa <= 0) return;
    const i = (y * this.width + x) * 4;
    const d = this.data;
    const da = d[i + 3] / 255;
    const outA = sa + da * (1 - sa);
    // Straight-alpha "over": weight the destination by its own alpha so blending onto transparent
    // pixels does not darken towards black.
    const dw = (da * (1 - sa)) / outA;
    const sw = sa / outA;
    d[i] = clampByte(c.r * sw + d[i] * dw);
    d[i + 1] = clampByte(c.g * sw + d[i + 1] * dw);
    d[i + 2] = clampByte(c.b * sw + d[i + 2] * dw);
    d[i + 3] = clampByte(outA * 255);
  }

  /**
   * Fills the whole canvas with an opaque linear gradient from `from` to `to` along `angle`
   * (radians), optionally adding per-pixel luminance grain of ±`grain` levels. Grain is costly: with
   * unfiltered scanlines even ±3 levels roughly triples the PNG size, so captchas leave it off.
   */
  fillGradient(from: Rgba, to: Rgba, angle: number, grain = 0, grainSeed = 0): void {
    const dx = Math.cos(angle);
    const dy = Math.sin(angle);
    // Project the four corners to normalise the gradient parameter to 0..1 across the canvas.
    const projections = [0, this.width * dx, this.height * dy, this.width * dx + this.height * dy];
    const pMin = Math.min(...projections);
    const span = Math.max(...projections) - pMin || 1;
    const noise = seededRandom(grainSeed);
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const t = ((x + 0.5) * dx + (y + 0.5) * dy - pMin) / span;
        const n = grain > 0 ? (noise() * 2 - 1) * grain : 0;
        const i = (y * this.width + x) * 4;
        this.data[i] = clampByte(from.r + (to.r - from.r) * t + n);
        this.data[i + 1] = clampByte(from.g + (to.g - from.g) * t + n);
        this.data[i + 2] = clampByte(from.b + (to.b - from.b) * t + n);
        this.data[i + 3] = 255;
      }
    }
  }

  /** Anti-aliased filled circle. */
  fillCircle(cx: number, cy: number, radius: number, c: Rgba): void {
    if (!(radius > 0)) return;
    const x0 = Math.max(0, Math.floor(cx - radius - 1));
    const x1 = Math.min(this.width - 1, Math.ceil(cx + radius + 1));
    const y0 = Math.max(0, Math.floor(cy - radius - 1));
    const y1 = Math.min(this.height - 1, Math.ceil(cy + radius + 1));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const dist = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        // Distance to the rim approximates the covered fraction of a 1-px pixel well enough.
        const coverage = Math.min(1, Math.max(0, radius - dist + 0.5));
        if (coverage > 0) this.blendPixel(x, y, c, coverage);
      }
    }
  }

  /**
   * Fills a polygon (convex or concave, any winding) with the even-odd rule. Each pixel row is
   * sampled at several sub-rows; on each, edge crossings are sorted and consecutive pairs form
   * spans whose exact horizontal overlap with each pixel accumulates into a coverage value.
   */
  fillPolygon(points: readonly Point[], c: Rgba): void {
    if (points.length < 3) return;
    const b = boundsOf(points);
    if (!Number.isFinite(b.minX + b.minY + b.maxX + b.maxY)) return;
    const xStart = Math.max(0, Math.floor(b.minX));
    const xEnd = Math.min(this.width, Math.ceil(b.maxX)); // exclusive
    const yStart = Math.max(0, Math.floor(b.minY));
    const yEnd = Math.min(this.height, Math.ceil(b.maxY)); // exclusive
    if (xStart >= xEnd || yStart >= yEnd) return;

    const coverage = new Float64Array(xEnd - xStart);
    const crossings: number[] = [];
    const weight = 1 / POLYGON_SUBSAMPLES;
    for (let py = yStart; py < yEnd; py++) {
      coverage.fill(0);
      for (let s = 0; s < POLYGON_SUBSAMPLES; s++) {
        const sy = py + (s + 0.5) * weight;
        crossings.length = 0;
        for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
          const a = points[j];
          const e = points[i];
          // Half-open test so a vertex exactly on the sample row is counted once, not twice.
          if ((a.y <= sy && e.y > sy) || (e.y <= sy && a.y > sy)) {
            crossings.push(a.x + ((sy - a.y) * (e.x - a.x)) / (e.y - a.y));
          }
        }
        crossings.sort((m, n) => m - n);
        for (let k = 0; k + 1 < crossings.length; k += 2) {
          const left = Math.max(crossings[k], xStart);
          const right = Math.min(crossings[k + 1], xEnd);
          if (right <= left) continue;
          for (let px = Math.floor(left); px < Math.ceil(right); px++) {
            const overlap = Math.min(right, px + 1) - Math.max(left, px);
            if (overlap > 0) coverage[px - xStart] += overlap * weight;
          }
        }
      }
      for (let px = xStart; px < xEnd; px++) {
        const cov = coverage[px - xStart];
        if (cov > 0) this.blendPixel(px, py, c, Math.min(1, cov));
      }
    }
  }

  /** Fills a shape given in its own local coordinates, rotated by `angle` radians and centred at (cx, cy). */
  fillShape(localPoints: readonly Point[], cx: number, cy: number, angle: number, c: Rgba): void {
    this.fillPolygon(transformPoints(localPoints, angle, cx, cy), c);
  }

  /** A straight line of the given thickness, drawn as a thin anti-aliased quad. */
  drawLine(x0: number, y0: number, x1: number, y1: number, thickness: number, c: Rgba): void {
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (!(len > 0)) return;
    const nx = (-(y1 - y0) / len) * (thickness / 2);
    const ny = ((x1 - x0) / len) * (thickness / 2);
    this.fillPolygon(
      [
        { x: x0 + nx, y: y0 + ny },
        { x: x1 + nx, y: y1 + ny },
        { x: x1 - nx, y: y1 - ny },
        { x: x0 - nx, y: y0 - ny },
      ],
      c,
    );
  }

  /**
   * Strokes an open polyline as one outline polygon (left side forwards, right side backwards), so a
   * translucent stroke is blended once everywhere instead of darkening where segments would overlap.
   * Meant for gently curving paths; sharp turns narrower than the thickness may self-intersect.
   */
  strokePolyline(path: readonly Point[], thickness: number, c: Rgba): void {
    if (path.length < 2) return;
    const half = thickness / 2;
    const left: Point[] = [];
    const right: Point[] = [];
    for (let i = 0; i < path.length; i++) {
      // The normal at a vertex follows the chord between its neighbours, which smooths the joins.
      const prev = path[Math.max(0, i - 1)];
      const next = path[Math.min(path.length - 1, i + 1)];
      const len = Math.hypot(next.x - prev.x, next.y - prev.y) || 1;
      const nx = (-(next.y - prev.y) / len) * half;
      const ny = ((next.x - prev.x) / len) * half;
      left.push({ x: path[i].x + nx, y: path[i].y + ny });
      right.push({ x: path[i].x - nx, y: path[i].y - ny });
    }
    this.fillPolygon([...left, ...right.reverse()], c);
  }

  /** Scatters small translucent dots of random colours over the canvas. */
  addNoiseDots(random: RandomSource, count: number): void {
    for (let i = 0; i < count; i++) {
      this.fillCircle(
        random() * this.width,
        random() * this.height,
        0.7 + random() * 1.6,
        hsl(random() * 360, 0.4 + random() * 0.5, 0.3 + random() * 0.5, 0.25 + random() * 0.45),
      );
    }
  }

  /** Draws thin translucent lines/curves edge to edge, so shapes cannot be cut out by colour thresholding alone. */
  addNoiseLines(random: RandomSource, count: number, maxOpacity = 0.55): void {
    for (let i = 0; i < count; i++) {
      const colour = hsl(random() * 360, 0.35 + random() * 0.45, 0.35 + random() * 0.35, 0.2 + random() * (maxOpacity - 0.2));
      const thickness = 0.8 + random() * 1.2;
      // A gentle sine wobble around a straight chord reads as "scribble" rather than an edge of a shape.
      const x0 = -10;
      const x1 = this.width + 10;
      const yA = random() * this.height;
      const yB = random() * this.height;
      const amplitude = 4 + random() * 14;
      const phase = random() * Math.PI * 2;
      const freq = (1 + random() * 2) * ((Math.PI * 2) / this.width);
      const steps = 48;
      const path: Point[] = [];
      for (let s = 0; s <= steps; s++) {
        const t = s / steps;
        const x = x0 + (x1 - x0) * t;
        path.push({ x, y: yA + (yB - yA) * t + Math.sin(phase + freq * (x - x0)) * amplitude });
      }
      this.strokePolyline(path, thickness, colour);
    }
  }

  /**
   * A soft, random two-colour gradient with noise dots and a few thin wavy lines: pale enough that
   * the saturated shapes drawn on top stay clearly visible to people, busy enough that the shapes are
   * not the only non-flat regions. (No per-pixel grain: it would bloat the PNG ~3x.)
   */
  fillNoisyBackground(random: RandomSource): void {
    const hue = random() * 360;
    const from = hsl(hue, 0.35 + random() * 0.3, 0.86 + random() * 0.06);
    const to = hsl(hue + 60 + random() * 120, 0.35 + random() * 0.3, 0.84 + random() * 0.06);
    this.fillGradient(from, to, random() * Math.PI * 2);
    this.addNoiseDots(random, Math.round((this.width * this.height) / 450));
    this.addNoiseLines(random, 4);
  }

  toPng(): Buffer {
    return encodePng(this.width, this.height, this.data);
  }
}
