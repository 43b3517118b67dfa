import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime, setSiteTimeZone, toDate } from '../../../src/client/format/datetime.js';
import { formatDateTimeValue } from '../../../src/client/providers/data-provider.js';
import { fromDateTimeLocal, toDateTimeLocal } from '../../../src/client/admin/inputs/datetime-values.js';
import type { FieldDefinition } from '../../../src/schema/definition.js';
import { greetingFor } from '../../../src/client/admin/pages/dashboard/greeting.js';
import { documentTitle } from '../../../src/client/components/document-title.js';
import { clickAnswer } from '../../../src/client/components/click-answer.js';
import { ADMIN_BASE } from '../../../src/client/admin/admin-base.js';
import { decodeTarget, loadingPath, safeTarget, targetOf } from '../../../src/client/shell/target.js';
import { checkAccount, checkPassword } from '../../../src/client/components/credential-rules.js';

describe('date format (docs/client.md#dates: yyyy-mm-dd hh:MM:ss, 10-digit numbers are seconds)', () => {
  const local = new Date(2024, 5, 1, 9, 5, 7);
  const seconds = Math.floor(local.getTime() / 1000);

  it('reads 10-digit numbers and digit strings as Unix seconds', () => {
    expect(formatDateTime(seconds)).toBe('2024-06-01 09:05:07');
    expect(formatDateTime(String(seconds))).toBe('2024-06-01 09:05:07');
  });

  it('reads 13-digit numbers as milliseconds and Date objects as they are', () => {
    expect(formatDateTime(local.getTime())).toBe('2024-06-01 09:05:07');
    expect(formatDateTime(local)).toBe('2024-06-01 09:05:07');
  });

  it('parses the server formatted string as local time and pads every part', () => {
    expect(formatDateTime('2024-06-01 09:05:07')).toBe('2024-06-01 09:05:07');
    expect(formatDateTime('2024-6-1 9:5')).toBe('2024-06-01 09:05:00');
  });

  it('honours other layouts of the same tokens', () => {
    expect(formatDateTime(seconds, 'yyyy-mm-dd')).toBe('2024-06-01');
    expect(formatDateTime(seconds, 'hh:MM')).toBe('09:05');
    expect(formatDateTime(seconds, 'dd/mm/yyyy ss')).toBe('01/06/2024 07');
  });

  it('shows nothing for empty values instead of "now", and keeps text that is not a date', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime(0)).toBe('');
    expect(formatDateTime('never')).toBe('never');
    expect(toDate('never')).toBeUndefined();
  });
});

describe('dates on the wall clock of the site, not of the browser (config time_zone)', () => {
  // 2024-05-31 21:05:07 UTC: Saturday morning in Auckland (UTC+12 in June), still Friday here.
  const june = Date.UTC(2024, 4, 31, 21, 5, 7) / 1000;
  // 2024-01-15 20:00:00 UTC: Auckland keeps daylight time in January (UTC+13).
  const january = Date.UTC(2024, 0, 15, 20, 0, 0) / 1000;
  const integerField = { name: 'create_time', wireType: 'integer', nullable: false } as FieldDefinition;

  afterEach(() => setSiteTimeZone(undefined));

  it('shows an instant as the site zone reads it, daylight time included', () => {
    setSiteTimeZone('Pacific/Auckland');
    expect(formatDateTime(june)).toBe('2024-06-01 09:05:07');
    expect(formatDateTime(january)).toBe('2024-01-16 09:00:00');
    expect(formatDateTime(june, 'yyyy-mm-dd')).toBe('2024-06-01');
  });

  it('reads a wall-clock text in the site zone, as the server does', () => {
    setSiteTimeZone('Pacific/Auckland');
    expect(toDate('2024-06-01 09:05:07')?.getTime()).toBe(june * 1000);
    expect(toDate('2024-01-16 09:00')?.getTime()).toBe(january * 1000);
  });

  it('fills a datetime input and a datetime filter with site time, and writes back the same instant', () => {
    setSiteTimeZone('Pacific/Auckland');
    expect(toDateTimeLocal(june)).toBe('2024-06-01T09:05:07');
    expect(fromDateTimeLocal('2024-06-01T09:05:07', integerField)).toBe(june);
    expect(formatDateTimeValue(june)).toBe('2024-06-01 09:05:07');
    expect(formatDateTimeValue(new Date(june * 1000))).toBe('2024-06-01 09:05:07');
  });

  it('follows the browser only until the site says its zone', () => {
    setSiteTimeZone('America/Los_Angeles');
    expect(formatDateTime(june)).toBe('2024-05-31 14:05:07');
    setSiteTimeZone(undefined);
    const browser = new Date(june * 1000);
    expect(formatDateTime(june)).toBe(`${browser.getFullYear()}-${String(browser.getMonth() + 1).padStart(2, '0')}-${String(browser.getDate()).padStart(2, '0')} ${String(browser.getHours()).padStart(2, '0')}:05:07`);
  });
});

describe('greeting by hour (docs/client.md#greeting)', () => {
  it.each([
    [0, 'lateNight'],
    [4, 'lateNight'],
    [5, 'earlyMorning'],
    [8, 'earlyMorning'],
    [9, 'morning'],
    [11, 'morning'],
    [12, 'noon'],
    [13, 'noon'],
    [14, 'afternoon'],
    [17, 'afternoon'],
    [18, 'evening'],
    [23, 'evening'],
  ] as const)('%i o\'clock is %s', (hour, greeting) => {
    expect(greetingFor(hour)).toBe(greeting);
  });
});

describe('browser title', () => {
  it('is the page title plus the site name when the site has one', () => {
    expect(documentTitle('Administrators', 'Chidao Survey')).toBe('Administrators - Chidao Survey');
    expect(documentTitle('Login', '')).toBe('Login');
    expect(documentTitle('Login')).toBe('Login');
  });
});

describe('click captcha answer', () => {
  it('joins the rounded click offsets with "-" and appends the rendered size', () => {
    expect(clickAnswer([{ x: 10.4, y: 20.6 }, { x: 200, y: 150 }], 350, 200.2)).toBe('10,21-200,150;350;200');
  });
});

describe('loading target', () => {
  it('carries path and query as one encoded segment', () => {
    expect(loadingPath('/auth/admin?page=2', ADMIN_BASE)).toBe('/chidaoadminstator/loading/%2Fauth%2Fadmin%3Fpage%3D2');
    expect(loadingPath(undefined, ADMIN_BASE)).toBe('/chidaoadminstator/loading');
    expect(loadingPath('/', ADMIN_BASE)).toBe('/chidaoadminstator/loading');
    expect(decodeTarget('%2Fauth%2Fadmin%3Fpage%3D2')).toBe('/auth/admin?page=2');
  });

  it('takes the target from a location under the base, unwrapping a loading route', () => {
    expect(targetOf('/chidaoadminstator/user/user', '?id=3', ADMIN_BASE)).toBe('/user/user?id=3');
    expect(targetOf('/chidaoadminstator/loading/%2Fauth%2Fadmin', '', ADMIN_BASE)).toBe('/auth/admin');
    expect(targetOf('/user/login', '', ADMIN_BASE)).toBeUndefined();
    expect(targetOf('/chidaoadminstator/login', '', ADMIN_BASE)).toBeUndefined();
  });

  it('never leaves the site', () => {
    expect(safeTarget('//evil.example/x')).toBeUndefined();
    expect(safeTarget('/\\evil.example')).toBeUndefined();
    expect(decodeTarget('%2F%2Fevil.example')).toBeUndefined();
    expect(decodeTarget('%E0%A4%A')).toBeUndefined();
  });
});

describe('login rules (docs/client.md#validation-before-sending)', () => {
  it('account: 3 to 15 characters, starts with a letter, letters digits underscore', () => {
    expect(checkAccount('admin')).toBeUndefined();
    expect(checkAccount('a_1')).toBeUndefined();
    expect(checkAccount('abcdefghijklmno')).toBeUndefined();
    expect(checkAccount('')).toBe('login.rules.accountRequired');
    expect(checkAccount('ab')).toBe('login.rules.account');
    expect(checkAccount('abcdefghijklmnop')).toBe('login.rules.account');
    expect(checkAccount('1admin')).toBe('login.rules.account');
    expect(checkAccount('ad-min')).toBe('login.rules.account');
  });

  it('password: 6 to 32 characters without & < > " \'', () => {
    expect(checkPassword('Admin_pass1')).toBeUndefined();
    expect(checkPassword('')).toBe('login.rules.passwordRequired');
    expect(checkPassword('12345')).toBe('login.rules.password');
    expect(checkPassword('x'.repeat(33))).toBe('login.rules.password');
    for (const bad of ['&', '<', '>', '"', "'"]) expect(checkPassword(`abcdef${bad}`)).toBe('login.rules.password');
  });
});
