import { readFileSync } from 'node:fs';
import { crc32 as zlibCrc32, inflateSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import { CAPTCHA_SHAPES, clickPuzzleOf, createClickCaptcha, verifyClickAnswer } from '../../../src/server/captcha/click-captcha.js';
import type { ClickPuzzle, ClickTarget } from '../../../src/server/captcha/click-captcha.js';
import { encodePng } from '../../../src/server/captcha/png-encoder.js';

/** sfc32 seeded through splitmix32: a deterministic [0,1) source so layouts are reproducible per seed. */
function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  const splitmix = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  return () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
}

interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  chunkTypes: string[];
  /** RGBA, row-major. */
  pixels: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Test-side decoder for exactly what the encoder promises: 8-bit RGBA, non-interlaced, filter 0 rows. */
function decodePng(png: Buffer): DecodedPng {
  expect([...png.subarray(0, 8)]).toEqual(SIGNATURE);
  let offset = 8;
  const chunkTypes: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  let bitDepth = 0;
  let colourType = 0;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    const type = typeAndData.subarray(0, 4).toString('latin1');
    const data = typeAndData.subarray(4);
    const storedCrc = png.readUInt32BE(offset + 8 + length);
    // zlib's CRC is an independent reference implementation for the encoder's own table.
    expect(storedCrc, `CRC of ${type}`).toBe(zlibCrc32(typeAndData));
    chunkTypes.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      bitDepth = data[8];
      colourType = data[9];
      expect([data[10], data[11], data[12]]).toEqual([0, 0, 0]);
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    offset += 12 + length;
  }
  expect(offset).toBe(png.length);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  expect(raw.length).toBe((stride + 1) * height);
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (stride + 1)]).toBe(0);
    pixels.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
  }
  return { width, height, bitDepth, colourType, chunkTypes, pixels };
}

/** Fails the test unless every box lies inside the image and no two boxes overlap. */
function expectSeparateBoxesInside(puzzle: ClickPuzzle, label: string): void {
  for (const t of puzzle.targets) {
    const where = `${label} ${JSON.stringify(t)}`;
    expect(Number.isInteger(t.x) && Number.isInteger(t.y), where).toBe(true);
    expect(t.x >= 0 && t.y >= 0, where).toBe(true);
    expect(t.x + t.width <= puzzle.width && t.y + t.height <= puzzle.height, where).toBe(true);
    expect(Math.max(t.width, t.height) >= 30 && Math.max(t.width, t.height) <= 64, where).toBe(true);
  }
  for (let i = 0; i < puzzle.targets.length; i++) {
    for (let j = i + 1; j < puzzle.targets.length; j++) {
      const a = puzzle.targets[i];
      const b = puzzle.targets[j];
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlap, `${label}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(false);
    }
  }
}

function centre(t: ClickTarget): [number, number] {
  return [t.x + t.width / 2, t.y + t.height / 2];
}

function answer(points: ReadonlyArray<readonly [number, number]>, w: number, h: number): string {
  return `${points.map(([x, y]) => `${x},${y}`).join('-')};${w};${h}`;
}

function centresAnswer(puzzle: ClickPuzzle): string {
  return answer(puzzle.targets.map(centre), puzzle.width, puzzle.height);
}

describe('encodePng', () => {
  it('round-trips exact pixel values through a standard inflate', () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 40, 1, 2, 3, 4, 5, 6, 7, 8]);
    const decoded = decodePng(encodePng(3, 2, rgba));
    expect(decoded).toMatchObject({ width: 3, height: 2, bitDepth: 8, colourType: 6, chunkTypes: ['IHDR', 'IDAT', 'IEND'] });
    expect([...decoded.pixels]).toEqual([...rgba]);
  });

  it('rejects dimensions and buffers that do not match', () => {
    expect(() => encodePng(0, 1, new Uint8Array(0))).toThrow(RangeError);
    expect(() => encodePng(1.5, 1, new Uint8Array(6))).toThrow(RangeError);
    expect(() => encodePng(2, 2, new Uint8Array(15))).toThrow(RangeError);
  });
});

describe('createClickCaptcha', () => {
  it('produces a valid ~350x200 RGBA PNG with only IHDR/IDAT/IEND chunks', () => {
    const { puzzle, png } = createClickCaptcha({ random: seededRandom(1) });
    expect([...png.subarray(0, 8)]).toEqual(SIGNATURE);
    const decoded = decodePng(png);
    expect(decoded.width).toBe(puzzle.width);
    expect(decoded.height).toBe(puzzle.height);
    expect([decoded.bitDepth, decoded.colourType]).toEqual([8, 6]);
    // No text or other ancillary chunks that could carry the answer.
    expect(decoded.chunkTypes[0]).toBe('IHDR');
    expect(decoded.chunkTypes.at(-1)).toBe('IEND');
    expect(new Set(decoded.chunkTypes)).toEqual(new Set(['IHDR', 'IDAT', 'IEND']));
    expect(png.includes(Buffer.from(puzzle.targets[0].shape))).toBe(false);
    // Fully opaque image.
    for (let i = 3; i < decoded.pixels.length; i += 4) {
      if (decoded.pixels[i] !== 255) throw new Error(`pixel ${i >> 2} is not opaque`);
    }
  });

  it('uses the default counts and distinct shape kinds', () => {
    const { puzzle } = createClickCaptcha({ random: seededRandom(2) });
    expect(puzzle.targets).toHaveLength(2);
    const all = createClickCaptcha({ targetCount: 8, decoyCount: 0, random: seededRandom(3) }).puzzle;
    expect(new Set(all.targets.map((t) => t.shape))).toEqual(new Set(CAPTCHA_SHAPES));
  });

  it('is deterministic for a given random source and varies by default', () => {
    const a = createClickCaptcha({ random: seededRandom(42) });
    const b = createClickCaptcha({ random: seededRandom(42) });
    expect(b.puzzle).toEqual(a.puzzle);
    expect(b.png.equals(a.png)).toBe(true);
    const c = createClickCaptcha();
    const d = createClickCaptcha();
    expect(c.png.equals(d.png)).toBe(false);
    expect(verifyClickAnswer(c.puzzle, centresAnswer(c.puzzle))).toBe(true);
  });

  it('survives degenerate random sources (exercising the fallback layout)', () => {
    for (const random of [() => 0, () => 1, () => Number.NaN, () => 0.5]) {
      const { puzzle } = createClickCaptcha({ targetCount: 8, decoyCount: 0, random });
      expect(puzzle.targets).toHaveLength(8);
      expectSeparateBoxesInside(puzzle, String(random));
      expect(verifyClickAnswer(puzzle, centresAnswer(puzzle))).toBe(true);
    }
  });

  it('rejects invalid option combinations', () => {
    expect(() => createClickCaptcha({ targetCount: 0 })).toThrow(RangeError);
    expect(() => createClickCaptcha({ targetCount: 1.5 })).toThrow(RangeError);
    expect(() => createClickCaptcha({ decoyCount: -1 })).toThrow(RangeError);
    expect(() => createClickCaptcha({ targetCount: 5, decoyCount: 4 })).toThrow(RangeError);
  });

  it('keeps targets inside the image and apart for 200 seeds', () => {
    for (let seed = 1; seed <= 200; seed++) {
      // Every puzzle shape is exposed when there are no decoys, so the layout of all of them is checked;
      // alternating counts also covers the crowded 8-shape case (which may use the grid fallback).
      const targetCount = seed % 4 === 0 ? 8 : 2 + (seed % 3);
      const { puzzle } = createClickCaptcha({ targetCount, decoyCount: 0, random: seededRandom(seed) });
      expect(puzzle.targets).toHaveLength(targetCount);
      expectSeparateBoxesInside(puzzle, `seed ${seed}`);
      expect(verifyClickAnswer(puzzle, centresAnswer(puzzle)), `seed ${seed}`).toBe(true);
    }
  });

  it('actually draws each shape: pixels at target centres stand out from the background', () => {
    for (let seed = 10; seed < 20; seed++) {
      const { puzzle, png } = createClickCaptcha({ targetCount: 8, decoyCount: 0, random: seededRandom(seed) });
      const { pixels, width } = decodePng(png);
      const inAnyBox = (x: number, y: number): boolean =>
        puzzle.targets.some((t) => x >= t.x - 3 && x < t.x + t.width + 3 && y >= t.y - 3 && y < t.y + t.height + 3);
      const sum = [0, 0, 0];
      let n = 0;
      for (let y = 0; y < puzzle.height; y++) {
        for (let x = 0; x < puzzle.width; x++) {
          if (inAnyBox(x, y)) continue;
          const i = (y * width + x) * 4;
          sum[0] += pixels[i];
          sum[1] += pixels[i + 1];
          sum[2] += pixels[i + 2];
          n++;
        }
      }
      const bg = sum.map((s) => s / n);
      for (const t of puzzle.targets) {
        const [cx, cy] = centre(t).map(Math.floor);
        // Most of the 5x5 block must differ clearly; a single noise dot may sit on top.
        let differing = 0;
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) {
            const i = ((cy + dy) * width + cx + dx) * 4;
            const dist = Math.hypot(pixels[i] - bg[0], pixels[i + 1] - bg[1], pixels[i + 2] - bg[2]);
            if (dist > 60) differing++;
          }
        }
        expect(differing, `seed ${seed} ${t.shape}`).toBeGreaterThanOrEqual(18);
      }
    }
  });
});

describe('verifyClickAnswer', () => {
  const { puzzle } = createClickCaptcha({ random: seededRandom(7) });
  const [first, second] = puzzle.targets;
  const good = centresAnswer(puzzle);

  it('accepts clicks at the centre of each target in order', () => {
    expect(verifyClickAnswer(puzzle, good)).toBe(true);
  });

  it('accepts fractional offsets and the box corners within tolerance', () => {
    expect(
      verifyClickAnswer(
        puzzle,
        answer(
          [
            [first.x - 1.5, first.y + first.height + 1.5],
            [second.x + second.width, second.y],
          ],
          350,
          200,
        ),
      ),
    ).toBe(true);
  });

  it('rejects the right targets in the wrong order', () => {
    expect(verifyClickAnswer(puzzle, answer([centre(second), centre(first)], 350, 200))).toBe(false);
  });

  it('rejects a click outside the target', () => {
    expect(verifyClickAnswer(puzzle, answer([[first.x + first.width + 6, first.y], centre(second)], 350, 200))).toBe(false);
    expect(verifyClickAnswer(puzzle, answer([centre(first), [second.x, second.y - 6]], 350, 200))).toBe(false);
  });

  it('scales clicks from the rendered size', () => {
    const half = puzzle.targets.map((t) => centre(t).map((v) => v / 2) as [number, number]);
    expect(verifyClickAnswer(puzzle, answer(half, 175, 100))).toBe(true);
    const double = puzzle.targets.map((t) => centre(t).map((v) => v * 2) as [number, number]);
    expect(verifyClickAnswer(puzzle, answer(double, 700, 400))).toBe(true);
    // Unscaled coordinates claimed for a half-size rendering land elsewhere.
    expect(verifyClickAnswer(puzzle, answer(puzzle.targets.map(centre), 175, 100))).toBe(false);
  });

  it('requires exactly one click per target', () => {
    expect(verifyClickAnswer(puzzle, answer([centre(first)], 350, 200))).toBe(false);
    expect(verifyClickAnswer(puzzle, answer([centre(first), centre(second), centre(second)], 350, 200))).toBe(false);
  });

  const clicks = good.split(';')[0];
  const hostile: Array<[string, string]> = [
    ['empty', ''],
    ['garbage', 'hello'],
    ['only separators', ';;'],
    ['missing size', clicks],
    ['missing height', `${clicks};350`],
    ['too many parts', `${good};1`],
    ['zero width', `${clicks};0;200`],
    ['zero height', `${clicks};350;0`],
    ['negative width', `${clicks};-350;200`],
    ['NaN width', `${clicks};NaN;200`],
    ['Infinity height', `${clicks};350;Infinity`],
    ['exponent', `${clicks};3.5e2;200`],
    ['hex', `${clicks};0x15e;200`],
    ['huge number', `${clicks};${'9'.repeat(150)};200`],
    ['too long', `${'0'.repeat(201)}`],
    ['whitespace', ` ${good}`],
    ['three coordinates', good.replace(',', ',1,')],
    ['empty coordinate', good.replace(/^\d+(\.\d+)?/, '')],
    ['negative click', `-${good}`],
    ['trailing dash', `${clicks}-;350;200`],
    ['JSON', JSON.stringify(puzzle.targets.map(centre))],
    ['unicode digits', good.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))],
  ];
  it.each(hostile)('rejects malformed input: %s', (_name, info) => {
    expect(verifyClickAnswer(puzzle, info)).toBe(false);
  });

  it('rejects answers longer than 200 characters even if otherwise correct', () => {
    const big = createClickCaptcha({ targetCount: 8, decoyCount: 0, random: seededRandom(8) }).puzzle;
    const exact = centresAnswer(big);
    expect(verifyClickAnswer(big, exact)).toBe(true);
    // Same numbers, just printed with trailing zeros: each stays a valid decimal, only the total is too long.
    const padded = `${big.targets.map((t) => centre(t).map((v) => v.toFixed(10)).join(',')).join('-')};350;200`;
    expect(padded.length).toBeGreaterThan(200);
    expect(verifyClickAnswer(big, padded)).toBe(false);
  });

  it('never throws on non-string input or a malformed puzzle', () => {
    for (const info of [null, undefined, 42, {}, ['1,2'], Symbol('x')]) {
      expect(verifyClickAnswer(puzzle, info as unknown as string)).toBe(false);
    }
    const broken: unknown[] = [
      null,
      {},
      { width: 350, height: 200 },
      { width: 0, height: 200, targets: puzzle.targets },
      { width: 350, height: 200, targets: [null, null] },
      { width: 350, height: 200, targets: [{ x: 'a', y: 0, width: 10, height: 10 }, second] },
      { width: 350, height: 200, targets: [] },
    ];
    for (const p of broken) {
      expect(verifyClickAnswer(p as ClickPuzzle, good)).toBe(false);
    }
    expect(verifyClickAnswer({ width: 350, height: 200, targets: [] }, ';350;200')).toBe(false);
  });

  it('reads a stored puzzle back only when it has a puzzle\'s shape', () => {
    expect(clickPuzzleOf(JSON.parse(JSON.stringify(puzzle)))).toEqual(puzzle);
    const [first, ...rest] = puzzle.targets;
    expect(clickPuzzleOf({ ...puzzle, targets: [{ ...first, shape: 'moon' }, ...rest] })).toBeUndefined();
    expect(clickPuzzleOf({ ...puzzle, targets: [{ ...first, x: Number.NaN }, ...rest] })).toBeUndefined();
    expect(clickPuzzleOf({ ...puzzle, height: -1 })).toBeUndefined();
    expect(clickPuzzleOf('{"width":350}')).toBeUndefined();
  });
});

describe('captcha locale files', () => {
  const load = (locale: string): Record<string, string> =>
    JSON.parse(readFileSync(new URL(`../../../locales/${locale}/server/captcha.json`, import.meta.url), 'utf8')) as Record<
      string,
      string
    >;

  it('label every shape in both locales', () => {
    const zh = load('zh-cn');
    const en = load('en');
    for (const shape of CAPTCHA_SHAPES) {
      expect(typeof zh[`captcha.shape.${shape}`]).toBe('string');
      expect(en[`captcha.shape.${shape}`]).toBe(shape);
    }
    expect(zh['captcha.shape.star']).toBe('五角星');
    expect(zh['The correct area is not clicked, please try again!']).toBe('未点中正确区域，请重试！');
    expect(zh['Verification is successful!']).toBe('验证成功！');
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
  });
});
