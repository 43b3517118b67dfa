import { describe, expect, it } from 'vitest';
import { isTransactionParam, transactionIdIn, transactionNames } from '../../src/server/services/survey/transaction-ids.js';

/** A provider's transaction id: one parameter, or several joined by `+` for a provider whose calls carry no id of their own. */
describe('transaction ids', () => {
  const read = (values: Record<string, string>) => (name: string) => values[name];

  it('is the value of one parameter, trimmed; empty when it is missing or the column is empty', () => {
    expect(transactionIdIn('transId', read({ transId: ' T-1 ' }))).toBe('T-1');
    expect(transactionIdIn('transId', read({}))).toBe('');
    expect(transactionIdIn('', read({ transId: 'T-1' }))).toBe('');
    expect(transactionNames('')).toEqual([]);
  });

  it('joins the values of several parameters with ":", and is empty when any of them is missing or empty', () => {
    const toluna = 'SurveyId+WaveId+UniqueCode';
    expect(transactionNames(toluna)).toEqual(['SurveyId', 'WaveId', 'UniqueCode']);
    expect(transactionIdIn(toluna, read({ SurveyId: '123', WaveId: '100', UniqueCode: 'M7Qk2xV9' }))).toBe('123:100:M7Qk2xV9');
    expect(transactionIdIn(toluna, read({ SurveyId: '123', UniqueCode: 'M7Qk2xV9' }))).toBe('');
    expect(transactionIdIn(toluna, read({ SurveyId: '123', WaveId: ' ', UniqueCode: 'M7Qk2xV9' }))).toBe('');
  });

  it('accepts empty, one parameter name, or up to 4 joined by +', () => {
    for (const good of ['', 'tx', 'SurveyId+WaveId+UniqueCode', 'a+b+c+d', 'data[0]+user.id']) expect(isTransactionParam(good), good).toBe(true);
    for (const bad of ['a+b+c+d+e', 'a+', '+a', 'a++b', 'a b', 'a,b', '1st']) expect(isTransactionParam(bad), bad).toBe(false);
  });
});
