import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/server/errors.js';
import { checkListedIds, idsFromFile, idsFromPaste } from '../../../src/server/services/survey/reconcile-ids.js';

/** The ids of a reconciliation as an administrator pastes them or a provider's file holds them. */

function refusal(run: () => unknown): { msg: string; params: readonly unknown[] } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { msg: error.msg, params: error.params };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('pasted ids', () => {
  it('are split by lines, commas, semicolons and spaces, each once, in the order first listed', () => {
    expect(idsFromPaste('a1\r\nb2, c3;a1  d4\n\n')).toEqual({ ids: ['a1', 'b2', 'c3', 'd4'], column: '' });
    expect(idsFromPaste(['x', ' y ', 'x', ''])).toEqual({ ids: ['x', 'y'], column: '' });
    expect(idsFromPaste(undefined)).toEqual({ ids: [], column: '' });
  });
});

describe('a provider file', () => {
  it('of one id a line has no header, even with a byte-order mark and CRLF line ends', () => {
    expect(idsFromFile('\uFEFFab12\r\ncd34\r\n\r\nab12\r\n')).toEqual({ ids: ['ab12', 'cd34'], column: '' });
  });

  it('of one column has a header when it names the id column', () => {
    expect(idsFromFile('\uFEFFRID\nab12\ncd34\n')).toEqual({ ids: ['ab12', 'cd34'], column: 'RID' });
    expect(idsFromFile('Transaction ID\nT-1\n')).toEqual({ ids: ['T-1'], column: 'Transaction ID' });
  });

  it('takes the column named rid, id, transaction_id, transid or respondent_id, in any case, else the first', () => {
    expect(idsFromFile('status,Respondent_ID,date\ncomplete,R1,2024-06-01\ncomplete,R2,2024-06-01\n').ids).toEqual(['R1', 'R2']);
    expect(idsFromFile('TransID;Status\nT1;ok\nT2;ok').ids).toEqual(['T1', 'T2']);
    expect(idsFromFile('transaction_id\tRID\nT1\tab12\n')).toEqual({ ids: ['ab12'], column: 'RID' });
    expect(idsFromFile('panelist,status\nP1,complete\nP2,complete\n')).toEqual({ ids: ['P1', 'P2'], column: 'panelist' });
  });

  it('reads quoted fields: separators, quotes and line breaks inside them', () => {
    const file = '"note","rid"\r\n"says ""hi"", twice","ab12"\n"two\nlines","cd34"\n';
    expect(idsFromFile(file)).toEqual({ ids: ['ab12', 'cd34'], column: 'rid' });
  });

  it('refuses a quote that never closes, naming the line it opened on', () => {
    expect(refusal(() => idsFromFile('rid,note\nab12,"fine"\ncd34,"open\nstill open\n'))).toEqual({ msg: 'The file is not valid CSV: the quote opened on line %d is never closed', params: [3] });
  });
});

describe('the list', () => {
  it('holds one id at least and at most the limit', () => {
    expect(refusal(() => checkListedIds({ ids: [], column: '' }, 3)).params).toEqual([3]);
    expect(refusal(() => checkListedIds({ ids: ['a', 'b', 'c', 'd'], column: '' }, 3))).toEqual({ msg: 'The list holds %d ids: at most %d can be reconciled at once', params: [4, 3] });
    expect(() => checkListedIds({ ids: ['a', 'b', 'c'], column: '' }, 3)).not.toThrow();
  });

  it('refuses a value too long to be an id (a wrong column)', () => {
    const long = 'x'.repeat(101);
    expect(refusal(() => checkListedIds({ ids: ['ab12', long], column: '' }, 10)).msg).toBe('"%s" is longer than %d characters, so it is no id: is the id column the right one?');
    expect(() => checkListedIds({ ids: ['y'.repeat(100)], column: '' }, 10)).not.toThrow();
  });
});
