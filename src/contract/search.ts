import { isOneOf } from './checks.js';

/** Operators of `search[i][operator]` (docs/wire-contract.md#search-operators), after the aliases are mapped. */
const SEARCH_OPERATORS = [
  '=', '<>', '>', '>=', '<', '<=',
  'LIKE', 'NOT LIKE', 'IN', 'NOT IN', 'RANGE', 'NOT RANGE', 'NULL', 'NOT NULL', 'FIND_IN_SET',
] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

const OPERATOR_ALIASES: Readonly<Record<string, SearchOperator>> = {
  eq: '=', ne: '<>', gt: '>', egt: '>=', lt: '<', elt: '<=',
};

export interface SearchCondition {
  field: string;
  val: unknown;
  operator: string;
  render?: string;
}

/** Map an alias (`eq`, `egt`, ...) or a case variant (`like`) to the canonical operator, or undefined. */
export function normaliseOperator(operator: string): SearchOperator | undefined {
  const alias = OPERATOR_ALIASES[operator.toLowerCase()];
  if (alias) return alias;
  const upper = operator.trim().toUpperCase().replace(/\s+/g, ' ');
  return isOneOf(SEARCH_OPERATORS, upper) ? upper : undefined;
}
