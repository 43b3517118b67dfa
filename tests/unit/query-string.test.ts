import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/contract/query-string.js';
import { seededRandom } from '../../src/server/seeded-random.js';

/** What the server read before plain pairs had their own reader: qs with the server's options. */
const byQs = (query: string) => qs.parse(query, { depth: 5, arrayLimit: 10_000, parameterLimit: 10_000 });

describe('parseQuery', () => {
  it('reads plain pairs exactly as qs does, on random strings', () => {
    const next = seededRandom(7);
    const pieces = ['a', 'b', 'page', '=', '=', '&', '&', '+', '1', '0', '.', '?', '_', ' ', 'toString', '__proto__', 'constructor', 'hasOwnProperty', 'x=1', 'é'];
    for (let run = 0; run < 3000; run += 1) {
      const query = Array.from({ length: Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      expect(parseQuery(query), query).toEqual(byQs(query));
    }
  });

  it('reads a list request, repeated keys and bracket notation', () => {
    expect(parseQuery('page=1&limit=10&quickSearch=u0421')).toEqual({ page: '1', limit: '10', quickSearch: 'u0421' });
    expect(parseQuery('ids=1&ids=2&ids=3')).toEqual({ ids: ['1', '2', '3'] });
    expect(parseQuery('search[0][field]=status&search[0][val]=a%20b&ids[]=1')).toEqual({ search: [{ field: 'status', val: 'a b' }], ids: ['1'] });
    expect(parseQuery('toString=1&name=Ann+Lee&flag')).toEqual({ name: 'Ann Lee', flag: '' });
  });
});
