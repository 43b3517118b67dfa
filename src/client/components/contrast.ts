/**
 * Colour contrast as WCAG 2.1 measures it (relative luminance of sRGB colours, ratio from 1:1 to 21:1),
 * and the small adjustments the themes use to make a brand colour readable: keep its hue, move it towards
 * black (on a light background) or white (on a dark one) only as far as the ratio asks. Pure functions.
 */

/** Text must reach 4.5:1 against what is behind it (WCAG 1.4.3). */
export const TEXT_RATIO = 4.5;
/** Controls' boundaries, icons and focus rings must reach 3:1 (WCAG 1.4.11). */
export const CONTROL_RATIO = 3;

type Rgb = [red: number, green: number, blue: number];

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#rgb` or `#rrggbb` as 0–255 channels; anything else is not a colour these helpers take. */
function parseHex(color: string): Rgb {
  if (!HEX.test(color)) throw new Error(`not a hex colour: ${color}`);
  const digits = color.length === 4 ? [...color.slice(1)].map((digit) => digit + digit).join('') : color.slice(1);
  return [0, 2, 4].map((start) => Number.parseInt(digits.slice(start, start + 2), 16)) as Rgb;
}

/** Whether `color` is a hex colour the helpers accept. */
export function isHexColor(color: string): boolean {
  return HEX.test(color);
}

function toHex([red, green, blue]: Rgb): string {
  return `#${[red, green, blue].map((channel) => Math.round(Math.min(255, Math.max(0, channel))).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance: 0 for black, 1 for white. */
export function luminance(color: string): number {
  const [red, green, blue] = parseHex(color).map((channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

/** The contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrastRatio(first: string, second: string): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

/** `color` mixed with `target` by `amount` (0 keeps the colour, 1 gives the target), as a hex colour. */
export function mix(color: string, target: string, amount: number): string {
  const rgb = parseHex(color);
  const to = parseHex(target);
  return toHex(rgb.map((channel, index) => channel + (to[index] - channel) * amount) as Rgb);
}

/**
 * `color` itself when it reaches `ratio` against every one of `backgrounds`; otherwise the closest shade of
 * it that does: darker when the backgrounds are light, lighter when they are dark. Black or white is the
 * last resort, so the answer always passes against a set of backgrounds of one kind (all light or all dark).
 */
export function readableOn(color: string, backgrounds: string | readonly string[], ratio: number = TEXT_RATIO): string {
  const list = typeof backgrounds === 'string' ? [backgrounds] : backgrounds;
  const passes = (candidate: string) => list.every((background) => contrastRatio(candidate, background) >= ratio);
  if (passes(color)) return color;
  const lightBackground = Math.min(...list.map(luminance)) > 0.18;
  const target = lightBackground ? '#000000' : '#ffffff';
  let low = 0;
  let high = 1;
  // Twenty halvings find the smallest mix to well under one step of a channel.
  for (let step = 0; step < 20; step += 1) {
    const middle = (low + high) / 2;
    if (passes(mix(color, target, middle))) high = middle;
    else low = middle;
  }
  return mix(color, target, high);
}

/** The text colour (white or near-black) that reads best on a filled `background`. */
export function textOnFill(background: string): string {
  return contrastRatio('#ffffff', background) >= contrastRatio('#1f1f1f', background) ? '#ffffff' : '#1f1f1f';
}
