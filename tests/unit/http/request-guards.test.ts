import { describe, expect, it } from 'vitest';
import { AddressList } from '../../../src/server/address-list.js';
import { IpBlacklist } from '../../../src/server/http/ip-blacklist.js';
import { RATE_LIMIT_WINDOW_MS, RateLimiter } from '../../../src/server/http/rate-limit.js';

describe('RateLimiter', () => {
  it('allows the limit per client and window, then refuses until the window ends', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(2, () => now);
    expect(limiter.hit('a')).toMatchObject({ allowed: true, remaining: 1, resetInSeconds: 60 });
    expect(limiter.hit('a')).toMatchObject({ allowed: true, remaining: 0 });
    now += 45_500;
    expect(limiter.hit('a')).toMatchObject({ allowed: false, remaining: 0, resetInSeconds: 15 });
    // another client has its own window
    expect(limiter.hit('b')).toMatchObject({ allowed: true, remaining: 1 });
    now += RATE_LIMIT_WINDOW_MS - 45_500;
    expect(limiter.hit('a')).toMatchObject({ allowed: true, remaining: 1, resetInSeconds: 60 });
  });

  it('is off with a limit of 0', () => {
    expect(new RateLimiter(0).enabled).toBe(false);
    expect(new RateLimiter(120).enabled).toBe(true);
  });
});

describe('address lists (blocked addresses, callback allowlists)', () => {
  const list = AddressList.parse('192.168.1.10\n10.0.0.0/8, 2001:db8::/32\n\nbogus\n1.2.3.4/40\n5.6.7.8/8/1');

  it.each([
    ['192.168.1.10', true],
    ['192.168.1.11', false],
    ['10.200.3.4', true],
    ['11.0.0.1', false],
    ['2001:db8::1', true],
    ['2001:db9::1', false],
    ['::ffff:10.1.1.1', true],
    ['1.2.3.4', false],
    ['5.6.7.8', false],
    ['not an ip', false],
  ])('%s listed: %s', (ip, listed) => {
    expect(list.includes(ip)).toBe(listed);
  });

  it('follows the config text as it changes', () => {
    const blacklist = new IpBlacklist();
    expect(blacklist.matches('', '127.0.0.1')).toBe(false);
    expect(blacklist.matches('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(blacklist.matches('127.0.0.2', '127.0.0.1')).toBe(false);
  });
});
