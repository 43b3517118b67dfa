import { themeColours } from '../components/brand.js';
import { contrastRatio, isHexColor, readableOn, TEXT_RATIO } from '../components/contrast.js';
import { isOneOf } from '../../contract/checks.js';

/**
 * The back-office layout preferences kept in `storeConfig_v2.layout` (docs/client.md#layout).
 * Colour pairs are `[light, dark]`, as in the original. Pure: the store around it is `layout-store.ts`.
 */
export const LAYOUT_MODES = ['Default', 'Classic', 'Streamline'] as const;
export type LayoutMode = (typeof LAYOUT_MODES)[number];

type ColorPair = [light: string, dark: string];

export interface LayoutConfig {
  layoutMode: LayoutMode;
  isDark: boolean;
  /** px, docs/client.md#layout */
  menuWidth: number;
  menuCollapse: boolean;
  /** opening a menu directory closes its siblings */
  menuUniqueOpened: boolean;
  /** the logo bar above the side menu */
  menuShowTopBar: boolean;
  menuBackground: ColorPair;
  menuColor: ColorPair;
  menuActiveBackground: ColorPair;
  menuActiveColor: ColorPair;
  menuTopBarBackground: ColorPair;
  headerBarTabColor: ColorPair;
  headerBarTabActiveBackground: ColorPair;
  headerBarTabActiveColor: ColorPair;
  headerBarBackground: ColorPair;
  headerBarHoverBackground: ColorPair;
}

const MENU_WIDTH = 260;
/** The side menu widths an admin may choose, px. */
export const MENU_WIDTH_RANGE = { min: 180, max: 480 } as const;
const MENU_COLLAPSED_WIDTH = 64;

export const DEFAULT_LAYOUT: LayoutConfig = {
  layoutMode: 'Default',
  isDark: false,
  menuWidth: MENU_WIDTH,
  menuCollapse: false,
  menuUniqueOpened: false,
  menuShowTopBar: true,
  menuBackground: ['#ffffff', '#1d1e1f'],
  menuColor: ['#303133', '#CFD3DC'],
  menuActiveBackground: ['#ffffff', '#1d1e1f'],
  // the brand's blue as the theme draws it, readable on the menu (BuildAdmin's #409eff reads at 2.78:1)
  menuActiveColor: [themeColours(false).tones.primary.main, themeColours(true).tones.primary.main],
  menuTopBarBackground: ['#fcfcfc', '#1d1e1f'],
  headerBarTabColor: ['#000000', '#CFD3DC'],
  headerBarTabActiveBackground: ['#ffffff', '#1d1e1f'],
  headerBarTabActiveColor: ['#000000', '#409EFF'],
  headerBarBackground: ['#ffffff', '#1d1e1f'],
  headerBarHoverBackground: ['#f5f5f5', '#18222c'],
};

/** Header bar height by layout (docs/client.md#layout): Default 70, Classic 50, Streamline 60, otherwise 60. */
export function headerHeight(mode: string): number {
  if (mode === 'Default') return 70;
  if (mode === 'Classic') return 50;
  return 60;
}

/** Side menu width: 260 px, 64 px collapsed (docs/client.md#layout). Streamline has no side menu. */
export function asideWidth(config: Pick<LayoutConfig, 'menuCollapse' | 'menuWidth'>): number {
  return config.menuCollapse ? MENU_COLLAPSED_WIDTH : config.menuWidth;
}

/** The keys of the colour pairs. */
export type ColorKey = { [K in keyof LayoutConfig]: LayoutConfig[K] extends ColorPair ? K : never }[keyof LayoutConfig];

/** The colour of a pair for the current scheme. */
export function pick(config: Pick<LayoutConfig, 'isDark'>, pair: ColorPair): string {
  return pair[config.isDark ? 1 : 0];
}

/**
 * Switch layout mode (docs/client.md#layout). In Classic the tabs sit on the header background, so an active tab of
 * the same colour as the header would vanish: when both still have the stock colour, the active tab
 * gets a slightly darker one; switching back to Default restores the stock colour.
 */
export function withLayoutMode(config: LayoutConfig, mode: LayoutMode): LayoutConfig {
  const index = config.isDark ? 1 : 0;
  const stock = config.isDark ? '#1d1e1f' : '#ffffff';
  const shaded = config.isDark ? '#141414' : '#f5f5f5';
  const header = config.headerBarBackground[index].toLowerCase();
  const active = config.headerBarTabActiveBackground[index].toLowerCase();
  let tabActive = config.headerBarTabActiveBackground;
  if (mode === 'Classic' && header === stock && active === stock) tabActive = replaceAt(tabActive, index, shaded);
  else if (mode === 'Default' && header === stock && active === shaded) tabActive = replaceAt(tabActive, index, stock);
  return { ...config, layoutMode: mode, headerBarTabActiveBackground: tabActive };
}

/** One colour changed for the current scheme (light or dark); the other scheme's stays. */
export function withColor(config: LayoutConfig, key: ColorKey, color: string): Partial<LayoutConfig> {
  return { [key]: replaceAt(config[key], config.isDark ? 1 : 0, color) };
}

function replaceAt(pair: ColorPair, index: number, color: string): ColorPair {
  const next: ColorPair = [...pair];
  next[index] = color;
  return next;
}

function isPair(value: unknown): value is ColorPair {
  return Array.isArray(value) && value.length === 2 && value.every((item) => typeof item === 'string');
}

/** Stored preferences over the defaults; unknown or malformed values fall back. */
export function normaliseLayout(stored: Record<string, unknown>): LayoutConfig {
  const out: LayoutConfig = { ...DEFAULT_LAYOUT };
  const target = out as unknown as Record<string, unknown>;
  for (const [key, fallback] of Object.entries(DEFAULT_LAYOUT)) {
    const value = stored[key];
    if (isPair(fallback)) {
      if (isPair(value)) target[key] = [...value];
    } else if (typeof value === typeof fallback) {
      target[key] = value;
    }
  }
  if (!isOneOf(LAYOUT_MODES, out.layoutMode)) out.layoutMode = DEFAULT_LAYOUT.layoutMode;
  if (!(out.menuWidth >= MENU_WIDTH_RANGE.min && out.menuWidth <= MENU_WIDTH_RANGE.max)) out.menuWidth = MENU_WIDTH;
  return out;
}

/**
 * Each text colour of the shell and the backgrounds it is drawn on: the side menu's entries on the menu
 * and on its hover colour, the horizontal menu's (Streamline) on the header, the header's buttons and tabs
 * on the header and its hover colour, the active entry and the active tab on their own backgrounds.
 */
export const TEXT_ON: Readonly<Partial<Record<ColorKey, readonly ColorKey[]>>> = {
  menuColor: ['menuBackground', 'headerBarHoverBackground', 'headerBarBackground'],
  menuActiveColor: ['menuActiveBackground', 'headerBarBackground'],
  headerBarTabColor: ['headerBarBackground', 'headerBarHoverBackground'],
  headerBarTabActiveColor: ['headerBarTabActiveBackground'],
};

/**
 * The colours the shell draws: the picked ones, except that a text colour too faint on one of its
 * backgrounds is darkened (or, on dark backgrounds, lightened) until it reads at 4.5:1. The stored
 * preferences keep what the admin picked; the settings warn about it (`contrastWarnings`).
 */
export function readableLayout(config: LayoutConfig): LayoutConfig {
  const out: LayoutConfig = { ...config };
  for (const [text, backgrounds = []] of Object.entries(TEXT_ON) as [ColorKey, readonly ColorKey[]][]) {
    out[text] = ([0, 1] as const).map((index) => {
      const color = config[text][index];
      const behind = backgrounds.map((key) => config[key][index]);
      return isHexColor(color) && behind.every(isHexColor) ? readableOn(color, behind, TEXT_RATIO) : color;
    }) as ColorPair;
  }
  return out;
}

/** A picked text colour that does not read on one of its backgrounds, in the current scheme. */
interface ContrastWarning {
  text: ColorKey;
  background: ColorKey;
  /** the ratio of the picked colours, e.g. 2.78 */
  ratio: number;
}

/** The pairs of picked colours (current scheme) below 4.5:1, which the shell draws adjusted. */
export function contrastWarnings(config: LayoutConfig): ContrastWarning[] {
  const warnings: ContrastWarning[] = [];
  for (const [text, backgrounds = []] of Object.entries(TEXT_ON) as [ColorKey, readonly ColorKey[]][]) {
    const color = pick(config, config[text]);
    for (const background of backgrounds) {
      const behind = pick(config, config[background]);
      if (!isHexColor(color) || !isHexColor(behind)) continue;
      const ratio = contrastRatio(color, behind);
      if (ratio < TEXT_RATIO) warnings.push({ text, background, ratio: Math.floor(ratio * 100) / 100 });
    }
  }
  return warnings;
}
