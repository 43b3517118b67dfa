import { describe, expect, it } from 'vitest';
import { basisPointsToPercent, centsToYuan, formatPercent, formatYuan, MONEY_PATTERN, parsePercent, parseYuan, signedYuan, yuanToCents } from '../../src/contract/money.js';
import { CUSTOM_FORMATS } from '../../src/schema/formats.js';

/** Money's one home: what the schemas accept, what the server stores and what both clients print agree, to the cent. */
describe('money', () => {
  it('is the schemas’ money format', () => {
    expect(CUSTOM_FORMATS.money).toBe(MONEY_PATTERN);
  });

  it('reads yuan as whole cents without floating point, up to 13 whole digits', () => {
    // 0.29 × 100 is 28.999999999999996 in floating point; 1234567890123.45 has no exact double at all.
    expect(yuanToCents('0.29')).toBe(29);
    expect(parseYuan('1234567890123.45')).toBe(123_456_789_012_345);
    expect(parseYuan(' 12.5 ')).toBe(1250);
    expect(parseYuan('-3')).toBe(-300);
    expect(parseYuan(12.5)).toBe(1250);
    for (const refused of ['12.345', 12.345, '12345678901234', '1e3', '', '12,50', null, undefined, true]) expect(parseYuan(refused)).toBeUndefined();
  });

  it('prints cents as yuan with two decimals, and a wire amount exactly', () => {
    expect([centsToYuan(1250), centsToYuan(-300), centsToYuan(5), centsToYuan(0)]).toEqual(['12.50', '-3.00', '0.05', '0.00']);
    expect([formatYuan('12.5'), formatYuan(3), formatYuan('1234567890123.45'), formatYuan(''), formatYuan(null), formatYuan('n/a')]).toEqual(['12.50', '3.00', '1234567890123.45', '', '', 'n/a']);
    expect([signedYuan(140), signedYuan(-150), signedYuan(0)]).toEqual(['+¥1.40', '-¥1.50', '¥0.00']);
    for (const cents of [0, 1, 99, 100, 12_345, -7, 999_999_999_999_999]) expect(yuanToCents(centsToYuan(cents))).toBe(cents);
  });
});

/** Rates (the schemas' `percent` format): basis points stored, percentages read and typed, to the hundredth of a percent. */
describe('percent', () => {
  it('reads a typed percentage as whole basis points without floating point', () => {
    // 0.29 × 100 and 1.1 × 100 are not whole in floating point; the digits are read instead.
    expect(['15', '15.5', '0.29', '1.1', ' 100 ', '7%', '0'].map(parsePercent)).toEqual([1500, 1550, 29, 110, 10000, 700, 0]);
    for (const refused of ['15.555', '-1', '1e3', '', '15,5', 'abc', 15, null]) expect(parsePercent(refused)).toBeUndefined();
  });

  it('prints basis points as the percentage a person reads', () => {
    expect([1500, 1550, 25, 0, 10000, 1505].map(basisPointsToPercent)).toEqual(['15', '15.5', '0.25', '0', '100', '15.05']);
    expect([1500, '1550', 5, null, '', 'n/a', 12.5].map(formatPercent)).toEqual(['15%', '15.5%', '0.05%', '', '', 'n/a', '12.5']);
  });
});
