import { CONTROL_RATIO, mix, readableOn, TEXT_RATIO, textOnFill } from './contrast.js';

/**
 * The product's colours and font stack (the BuildAdmin palette), shared by the back office's
 * react-admin theme and the standalone pages' MUI theme so both read alike.
 */
export const FONT_STACK = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  '"Helvetica Neue"',
  '"PingFang SC"',
  '"Hiragino Sans GB"',
  '"Microsoft YaHei"',
  'Arial',
  'sans-serif',
].join(',');

export const BRAND = {
  primary: { light: '#409eff', dark: '#3375b9' },
  secondary: { light: '#337ecc', dark: '#5a9cf8' },
  success: '#67c23a',
  warning: '#e6a23c',
  error: '#f56c6c',
  info: '#909399',
  background: {
    light: { default: '#f5f5f5', paper: '#ffffff' },
    dark: { default: '#141414', paper: '#1d1e1f' },
  },
  borderRadius: 6,
} as const;

/** Backgrounds of a scheme: the page behind the cards, and the cards (paper). */
function backgroundsOf(dark: boolean): { default: string; paper: string } {
  return dark ? BRAND.background.dark : BRAND.background.light;
}

/** The tint MUI lays over a background in a tone for a hovered (4 %) or selected (8 %) control. */
const TINT = 0.08;

function tinted(background: string, tone: string): string {
  return mix(background, tone, TINT);
}

/** The brand's tone colours, by MUI's names. */
const TONES = {
  primary: BRAND.primary,
  secondary: BRAND.secondary,
  success: { light: BRAND.success, dark: BRAND.success },
  warning: { light: BRAND.warning, dark: BRAND.warning },
  error: { light: BRAND.error, dark: BRAND.error },
  info: { light: BRAND.info, dark: BRAND.info },
} as const;

type Tone = keyof typeof TONES;

/** A tone as the screens use it: as text or outline on the page and on cards, and as a fill under `contrastText`. */
interface ToneColours {
  main: string;
  contrastText: string;
}

/**
 * The colours the screens draw, derived from the brand: each tone is the brand's colour, darkened (light
 * scheme) or lightened (dark scheme) just enough to read as text on both the page and the cards (4.5:1),
 * with the text colour that reads on it as a fill. The focus ring is the primary tone, so it reaches 3:1 and more.
 */
export function themeColours(dark: boolean) {
  const backgrounds = backgroundsOf(dark);
  const behind = [backgrounds.default, backgrounds.paper];
  const tones = Object.fromEntries(
    Object.entries(TONES).map(([name, pair]) => {
      // A hovered, focused or selected control is tinted with its own tone: it must read there too. The
      // tint follows the tone, so the tone is adjusted until the tints it makes no longer move it.
      let main = readableOn(dark ? pair.dark : pair.light, behind, TEXT_RATIO);
      for (let round = 0; round < 8; round += 1) {
        const next = readableOn(main, [...behind, ...behind.map((background) => tinted(background, main))], TEXT_RATIO);
        if (next === main) break;
        main = next;
      }
      return [name, { main, contrastText: textOnFill(main) }];
    }),
  ) as Record<Tone, ToneColours>;
  return {
    tones,
    background: { ...backgrounds },
    /** body text and the quieter secondary text */
    text: { primary: dark ? '#e5eaf3' : '#303133', secondary: readableOn(dark ? '#a3a6ad' : '#909399', behind, TEXT_RATIO) },
    focus: tones.primary.main,
    /** the outline of a text field or select at rest: the brand's border grey, deepened until it shows at 3:1 */
    controlBorder: readableOn(dark ? '#4c4d4f' : '#dcdfe6', behind, CONTROL_RATIO),
  };
}

/** The MUI palette of the brand, light or dark: the one both themes spread. */
export function brandPalette(dark: boolean) {
  const colours = themeColours(dark);
  return {
    mode: dark ? ('dark' as const) : ('light' as const),
    // MUI picks a fill's text colour by this ratio; text on a button must reach 4.5:1.
    contrastThreshold: TEXT_RATIO,
    ...colours.tones,
    background: { ...colours.background },
  };
}

/**
 * What every MUI theme of the product adds to its components:
 * - a visible focus ring in the primary tone (3:1 against the page at least) on everything focusable,
 * - outlined fields whose border at rest shows at 3:1 (MUI's own is a 23 % black, about 1.9:1);
 *   whether MUI draws it (`Mui-focusVisible`) or the browser does (`:focus-visible` on links, native
 *   inputs and elements with a `tabindex`);
 * - the derived colours as CSS variables (`--ba-theme-primary`, `--ba-theme-text-secondary`, …) for the
 *   few blocks drawn with plain CSS;
 * - a checkbox's `aria-label` on its input (see `CHECKBOX_LABEL_COMPONENTS`).
 */
export function themeComponents(dark: boolean) {
  const colours = themeColours(dark);
  const ring = { outline: `2px solid ${colours.focus}`, outlineOffset: 2 };
  const variables = {
    '--ba-theme-primary': colours.tones.primary.main,
    '--ba-theme-on-primary': colours.tones.primary.contrastText,
    '--ba-theme-success': colours.tones.success.main,
    '--ba-theme-error': colours.tones.error.main,
    '--ba-theme-text-secondary': colours.text.secondary,
    '--ba-theme-paper': colours.background.paper,
  };
  return {
    // A page's heading takes focus after a page change (page-focus.tsx) without being a Tab stop: no ring there.
    MuiCssBaseline: { styleOverrides: { ':root': variables, ':focus-visible': ring, 'h1[tabindex="-1"]:focus-visible': { outline: 'none' } } },
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': ring } } },
    // Hover, focus, error and disabled borders are MUI's own rules, more specific than this one.
    MuiOutlinedInput: { styleOverrides: { notchedOutline: { borderColor: colours.controlBorder } } },
    ...CHECKBOX_LABEL_COMPONENTS,
  };
}

type CheckboxState = { 'aria-label'?: string };

/**
 * MUI puts a checkbox's `aria-label` on the span around it, which names nothing (react-admin's row
 * checkboxes are given theirs that way): the label is moved onto the checkbox input itself.
 */
const CHECKBOX_LABEL_COMPONENTS = {
  MuiCheckbox: {
    defaultProps: {
      slotProps: {
        root: (state: CheckboxState) => (state['aria-label'] ? { 'aria-label': undefined } : {}),
        input: (state: CheckboxState) => (state['aria-label'] ? { 'aria-label': state['aria-label'] } : {}),
      },
    },
  },
};
