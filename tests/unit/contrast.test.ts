import { describe, expect, it } from 'vitest';
import { contrastRatio, isHexColor, luminance, mix, readableOn, textOnFill } from '../../src/client/components/contrast.js';

/** The WCAG contrast arithmetic the themes rely on, against the figures the guidelines and tools publish. */

describe('contrast', () => {
  it('measures luminance and ratios as WCAG defines them', () => {
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#fff')).toBe(1);
    expect(contrastRatio('#000', '#ffffff')).toBe(21);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // the figures axe-core reported for the old palette
    expect(contrastRatio('#409eff', '#ffffff')).toBeCloseTo(2.78, 1);
    expect(contrastRatio('#909399', '#ffffff')).toBeCloseTo(3.07, 1);
    expect(contrastRatio('#ffffff', '#409eff')).toBe(contrastRatio('#409eff', '#ffffff'));
  });

  it('keeps a colour that reads and darkens or lightens one that does not, only as far as needed', () => {
    expect(readableOn('#303133', '#ffffff')).toBe('#303133');
    const darker = readableOn('#409eff', ['#ffffff', '#f5f5f5']);
    expect(contrastRatio(darker, '#f5f5f5')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(darker, '#f5f5f5')).toBeLessThan(4.6);
    expect(luminance(darker)).toBeLessThan(luminance('#409eff'));
    const lighter = readableOn('#3375b9', '#141414');
    expect(contrastRatio(lighter, '#141414')).toBeGreaterThanOrEqual(4.5);
    expect(luminance(lighter)).toBeGreaterThan(luminance('#3375b9'));
    expect(contrastRatio(readableOn('#409eff', '#ffffff', 3), '#ffffff')).toBeGreaterThanOrEqual(3);
  });

  it('mixes colours, picks the text for a fill and rejects what is not a hex colour', () => {
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(textOnFill('#1f6fd1')).toBe('#ffffff');
    expect(textOnFill('#ffd54f')).toBe('#1f1f1f');
    expect(isHexColor('#abc')).toBe(true);
    expect(isHexColor('rgb(1,2,3)')).toBe(false);
    expect(() => luminance('blue')).toThrow('not a hex colour');
  });
});
