import type { Json } from '../../../generated/database.js';
import { fromJson } from '../../db/values.js';
import { errors } from '../../errors.js';

/**
 * How a provider says that something it reported earlier is taken back (a reversal, a "chargeback", a complete
 * turned into a non-complete at reconciliation): the `reversal` column of a provider, one of
 *   {"by": "none"}                                          it never reverses;
 *   {"by": "negative_amount"}                               the amount parameter is below zero;
 *   {"by": "status", "param": "status", "value": "2"}       a parameter holds one of the values (a list is allowed);
 *   {"by": "flag", "param": "reversal", "value": "true"}    a parameter holds the value (case-insensitive);
 *   {"by": "prefix", "param": "transId", "value": "r-"}     the transaction id starts with the prefix; the
 *                                                            reversed transaction is the id without it.
 */
type ReversalRule =
  | { by: 'none' }
  | { by: 'negative_amount' }
  | { by: 'status'; param: string; value: string | string[] }
  | { by: 'flag'; param: string; value: string }
  | { by: 'prefix'; param: string; value: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_.\-[\]]{0,63}$/;
const MAX_VALUE = 64;

function text(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_VALUE;
}

/** The rule a provider's form or preset gives; anything else is refused, naming the field. */
export function parseReversalRule(value: unknown): ReversalRule {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw errors.reversalRuleInvalid();
  const rule = value as Record<string, unknown>;
  const keys = Object.keys(rule);
  switch (rule.by) {
    case 'none':
    case 'negative_amount':
      if (keys.length !== 1) throw errors.reversalRuleInvalid();
      return { by: rule.by };
    case 'status':
    case 'flag':
    case 'prefix': {
      if (keys.some((key) => !['by', 'param', 'value'].includes(key))) throw errors.reversalRuleInvalid();
      if (typeof rule.param !== 'string' || !NAME.test(rule.param)) throw errors.reversalRuleInvalid();
      const values = rule.by === 'status' && Array.isArray(rule.value) ? rule.value : [rule.value];
      if (values.length === 0 || values.length > 20 || !values.every(text)) throw errors.reversalRuleInvalid();
      if (rule.by === 'status') return { by: 'status', param: rule.param, value: Array.isArray(rule.value) ? values : (rule.value as string) };
      return { by: rule.by, param: rule.param, value: rule.value as string };
    }
    default:
      throw errors.reversalRuleInvalid();
  }
}

/** The stored rule of a provider; one that no longer reads as a rule reverses nothing. */
export function reversalRuleOf(provider: { reversal: Json<unknown> }): ReversalRule {
  try {
    return parseReversalRule(fromJson<unknown>(provider.reversal, null));
  } catch {
    return { by: 'none' };
  }
}

/** Whether a request is a reversal: `read` gives a parameter's value; `amountParam` names the amount's. */
export function isReversal(rule: ReversalRule, read: (name: string) => string | undefined, amountParam = ''): boolean {
  switch (rule.by) {
    case 'none':
      return false;
    case 'negative_amount':
      return amountParam !== '' && /^\s*-/.test(read(amountParam) ?? '');
    case 'status': {
      const value = read(rule.param);
      return value !== undefined && (Array.isArray(rule.value) ? rule.value : [rule.value]).includes(value);
    }
    case 'flag':
      return (read(rule.param) ?? '').toLowerCase() === rule.value.toLowerCase();
    case 'prefix':
      return (read(rule.param) ?? '').startsWith(rule.value);
  }
}
