import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/server/bounded-map.js';

/** The bound of the per-key caches a long-running server keeps (accounts, tokens, statements, list shapes). */
describe('BoundedMap', () => {
  it('never holds more than its capacity, however many keys it meets', () => {
    const map = new BoundedMap<number, string>(100);
    for (let key = 0; key < 10_000; key++) map.set(key, `value ${key}`);
    expect(map.size).toBe(100);
    expect(map.get(9_999)).toBe('value 9999');
    expect(map.get(9_900)).toBe('value 9900');
    expect(map.get(9_899)).toBeUndefined();
  });

  it('forgets the entry used longest ago: one read keeps serving while new keys come and go', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('hot', 1);
    for (let key = 0; key < 50; key++) {
      expect(map.get('hot')).toBe(1);
      map.set(`cold ${key}`, key);
    }
    expect(map.get('hot')).toBe(1);
    expect(map.size).toBe(3);
    // Setting a key again replaces its value without taking a second place.
    map.set('hot', 2);
    expect(map.get('hot')).toBe(2);
    expect(map.size).toBe(3);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get('hot')).toBeUndefined();
  });
});
