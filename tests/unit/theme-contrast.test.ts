import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { themeColours } from '../../src/client/components/brand.js';
import { contrastRatio, CONTROL_RATIO, mix, TEXT_RATIO } from '../../src/client/components/contrast.js';
import { contrastWarnings, DEFAULT_LAYOUT, readableLayout, TEXT_ON, withColor, type ColorKey, type LayoutConfig } from '../../src/client/shell/layout-config.js';

/**
 * Every colour pair the themes define meets WCAG 2.1 AA: text 4.5:1 on what it is drawn on, controls and
 * the focus ring 3:1, in the light and the dark scheme, and in the back office's shell with the stock
 * layout colours and with colours an admin picks.
 */

const PROJECT_ROOT = join(import.meta.dirname, '../..');
const SCHEMES = [false, true] as const;
const name = (dark: boolean) => (dark ? 'dark' : 'light');

describe('theme colours', () => {
  for (const dark of SCHEMES) {
    const colours = themeColours(dark);
    const backgrounds = [colours.background.default, colours.background.paper];

    it(`reads every tone as text on the page, the cards and their tints (${name(dark)})`, () => {
      for (const [tone, { main }] of Object.entries(colours.tones)) {
        for (const background of [...backgrounds, ...backgrounds.map((behind) => mix(behind, main, 0.08))]) {
          expect(contrastRatio(main, background), `${tone} ${main} on ${background}`).toBeGreaterThanOrEqual(TEXT_RATIO);
        }
      }
    });

    it(`reads the text on every filled button or chip (${name(dark)})`, () => {
      for (const [tone, { main, contrastText }] of Object.entries(colours.tones)) {
        expect(contrastRatio(contrastText, main), `${tone}: ${contrastText} on ${main}`).toBeGreaterThanOrEqual(TEXT_RATIO);
      }
    });

    it(`reads body and secondary text, and shows the focus ring (${name(dark)})`, () => {
      for (const background of backgrounds) {
        expect(contrastRatio(colours.text.primary, background)).toBeGreaterThanOrEqual(TEXT_RATIO);
        expect(contrastRatio(colours.text.secondary, background)).toBeGreaterThanOrEqual(TEXT_RATIO);
        expect(contrastRatio(colours.focus, background)).toBeGreaterThanOrEqual(CONTROL_RATIO);
      }
    });

    it(`shows a field's outline at rest (${name(dark)})`, () => {
      for (const background of backgrounds) {
        expect(contrastRatio(colours.controlBorder, background), `${colours.controlBorder} on ${background}`).toBeGreaterThanOrEqual(CONTROL_RATIO);
      }
    });
  }

  it('keeps the look: the light primary stays a blue close to the brand colour', () => {
    const [red, green, blue] = [1, 3, 5].map((start) => Number.parseInt(themeColours(false).tones.primary.main.slice(start, start + 2), 16));
    expect(blue).toBeGreaterThan(green);
    expect(green).toBeGreaterThan(red);
  });
});

/** Every text colour of the shell against each background it is drawn on, in the scheme given. */
function shellPairs(config: LayoutConfig): { text: ColorKey; background: ColorKey; ratio: number }[] {
  const index = config.isDark ? 1 : 0;
  return (Object.entries(TEXT_ON) as [ColorKey, ColorKey[]][]).flatMap(([text, backgrounds]) =>
    backgrounds.map((background) => ({ text, background, ratio: contrastRatio(config[text][index], config[background][index]) })),
  );
}

describe('shell layout colours', () => {
  for (const isDark of SCHEMES) {
    it(`draws the stock layout colours readably (${name(isDark)})`, () => {
      const drawn = readableLayout({ ...DEFAULT_LAYOUT, isDark });
      for (const pair of shellPairs(drawn)) expect(pair.ratio, `${pair.text} on ${pair.background}`).toBeGreaterThanOrEqual(TEXT_RATIO);
    });
  }

  it('warns about a picked colour that fails, and draws it readably all the same', () => {
    expect(contrastWarnings(DEFAULT_LAYOUT)).toEqual([]);
    // BuildAdmin's active item colour (#409eff on white) is one such colour
    const original = { ...DEFAULT_LAYOUT, ...withColor(DEFAULT_LAYOUT, 'menuActiveColor', '#409eff') };
    expect(contrastWarnings(original)).toEqual([{ text: 'menuActiveColor', background: 'menuActiveBackground', ratio: 2.78 }, { text: 'menuActiveColor', background: 'headerBarBackground', ratio: 2.78 }]);
    const picked = { ...DEFAULT_LAYOUT, ...withColor(DEFAULT_LAYOUT, 'menuColor', '#c0c4cc') };
    expect(contrastWarnings(picked).map((warning) => [warning.text, warning.background])).toContainEqual(['menuColor', 'menuBackground']);
    for (const pair of shellPairs(readableLayout(picked))) expect(pair.ratio, `${pair.text} on ${pair.background}`).toBeGreaterThanOrEqual(TEXT_RATIO);
    // what the admin picked is kept, only what is drawn changes
    expect(readableLayout(picked).menuBackground).toEqual(picked.menuBackground);
  });

  it('lightens a text colour an admin picked for a dark menu', () => {
    const dark = { ...DEFAULT_LAYOUT, isDark: true };
    const picked = { ...dark, ...withColor(dark, 'menuColor', '#303133') };
    const drawn = readableLayout(picked);
    expect(contrastRatio(drawn.menuColor[1], drawn.menuBackground[1])).toBeGreaterThanOrEqual(TEXT_RATIO);
    expect(contrastWarnings(readableLayout(dark))).toEqual([]);
  });
});

/** The custom properties one rule of a stylesheet sets, e.g. `--ba-primary`. */
function variablesOf(css: string, selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/(--ba-[\w-]+):\s*(#[0-9a-f]{3,6})\s*;/gi)].map((match) => [match[1], match[2]]));
}

describe('stylesheets drawn without the theme (light only)', () => {
  const loginCss = readFileSync(join(PROJECT_ROOT, 'src/client/components/login-page.css'), 'utf8');
  const admin = variablesOf(loginCss, '.ba-login');
  const member = { ...admin, ...variablesOf(loginCss, '.ba-login--member') };

  it('sign-in pages: text, links, buttons and errors read at 4.5:1, field borders show at 3:1', () => {
    for (const [area, vars, page] of [['admin', admin, '#f3f6fb'], ['member', member, '#f5f5fb']] as const) {
      for (const text of ['--ba-primary', '--ba-danger', '--ba-success', '--ba-text', '--ba-text-2', '--ba-text-3']) {
        for (const background of ['#ffffff', page]) expect(contrastRatio(vars[text], background), `${area} ${text} on ${background}`).toBeGreaterThanOrEqual(TEXT_RATIO);
      }
      expect(contrastRatio('#ffffff', vars['--ba-primary']), `${area}: a button's text`).toBeGreaterThanOrEqual(TEXT_RATIO);
      expect(contrastRatio('#ffffff', vars['--ba-primary-dark']), `${area}: a hovered button's text`).toBeGreaterThanOrEqual(TEXT_RATIO);
      expect(contrastRatio(vars['--ba-danger'], '#fef0f0'), `${area}: the error banner`).toBeGreaterThanOrEqual(TEXT_RATIO);
      expect(contrastRatio(vars['--ba-border'], '#ffffff'), `${area}: a field's border`).toBeGreaterThanOrEqual(CONTROL_RATIO);
    }
  });

  it('click captcha: every text colour reads on the dialog and on a hovered button', () => {
    const css = readFileSync(join(PROJECT_ROOT, 'src/client/components/ClickCaptcha.css'), 'utf8');
    const texts = [...css.matchAll(/(?<![-\w])color:\s*(#[0-9a-f]{3,6})\s*;/gi)].map((match) => match[1]).filter((color) => !/^#fff(fff)?$/i.test(color));
    expect(texts.length).toBeGreaterThan(3);
    for (const text of texts) for (const background of ['#ffffff', '#f2f3f5']) expect(contrastRatio(text, background), `${text} on ${background}`).toBeGreaterThanOrEqual(TEXT_RATIO);
  });
});
