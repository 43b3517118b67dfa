import { isParameterName } from './signature-recipe.js';

/**
 * A provider's transaction id as its requests carry it: the value of its `transaction_param`, or, for a
 * provider whose notifications carry no id of their own (Toluna tells a notification apart by its survey,
 * wave and member), the values of several parameters named in `transaction_param` joined by `+`
 * (`SurveyId+WaveId+UniqueCode`), written one after the other with `:` between them.
 */

const NAME_JOINER = '+';
const VALUE_JOINER = ':';
const MAX_NAMES = 4;

/** The parameter names `transaction_param` lists (none when it is empty). */
export function transactionNames(transactionParam: string): string[] {
  return transactionParam === '' ? [] : transactionParam.split(NAME_JOINER);
}

/** Whether `transactionParam` is empty, one parameter name, or 2 to 4 of them joined by `+`. */
export function isTransactionParam(transactionParam: string): boolean {
  const names = transactionNames(transactionParam);
  return names.length <= MAX_NAMES && names.every(isParameterName);
}

/** The transaction id the request names: '' when `transaction_param` is empty or any parameter it lists is missing or empty. */
export function transactionIdIn(transactionParam: string, read: (name: string) => string | undefined): string {
  const names = transactionNames(transactionParam);
  const values = names.map((name) => read(name)?.trim() ?? '');
  return values.length === 0 || values.includes('') ? '' : values.join(VALUE_JOINER);
}
