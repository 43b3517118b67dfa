import {
  EXPIRY_UNITS, RECIPE_ALGORITHMS, RECIPE_CUTS, RECIPE_ENCODINGS, RECIPE_KEYS, RECIPE_PLACES, RECIPE_TEXTS, REVERSAL_KINDS,
  type RecipeChainKey, type RecipeExpiry, type RecipeValue, type ReversalValue,
} from '../../../../../contract/provider-tool.js';
import { isOneOf } from '../../../../../contract/checks.js';

/**
 * The provider form's two JSON columns as the structured inputs edit them: `signature` (the recipe) and
 * `reversal` (the rule). Reading is forgiving (a row stored before the recipe existed, a JSON text, a
 * missing key takes its default); writing keeps only the keys that mean something for the choices made,
 * so the server's check sees exactly what the form shows.
 */

/** The recipe a new provider starts with: HMAC-SHA256 in hex of the path and query, in the query. */
const DEFAULT_RECIPE: RecipeValue = { text: 'path_query', key: 'hmac', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: null };

export const DEFAULT_EXPIRY: RecipeExpiry = { in: 'query', name: 'ts', unit: 's', skewSeconds: 300 };

/** The chain a recipe switched to key=hmac_chain starts with: a timestamp parameter, an access key parameter, the secret. */
export const DEFAULT_CHAIN: readonly RecipeChainKey[] = [{ in: 'query', name: 'expiration' }, { in: 'query', name: 'access_key' }, { in: 'secret' }];

/** How many keys an HMAC chain may have. */
export const CHAIN_LENGTHS = ['2', '3', '4'] as const;

/** One key of a stored chain as the form edits it: the secret, or a parameter or header by name. */
function chainKeyOf(value: unknown): RecipeChainKey {
  const stored = objectOf(value) ?? {};
  if (stored.in === 'query' || stored.in === 'header') return { in: stored.in, name: text(stored.name) };
  return { in: 'secret' };
}

/** The algorithms a provider row held before recipes, as the recipe equal to each. */
const LEGACY: Readonly<Record<string, Partial<RecipeValue>>> = {
  hmac_sha256: {},
  sha256_append: { key: 'append', keySeparator: '' },
  md5_append: { key: 'append', keySeparator: '', algorithm: 'md5' },
  none: { key: 'none' },
};

function objectOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    if (value in LEGACY) return { ...DEFAULT_RECIPE, ...LEGACY[value] };
    try {
      return objectOf(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function oneOf<T extends string>(choices: readonly T[], value: unknown, fallback: T): T {
  return isOneOf(choices, value) ? value : fallback;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The stored value (object, JSON text or an old algorithm name) as a complete recipe. */
export function recipeOfValue(value: unknown): RecipeValue {
  const stored = objectOf(value) ?? {};
  const expiry = objectOf(stored.expiry);
  return {
    text: oneOf(RECIPE_TEXTS, stored.text, DEFAULT_RECIPE.text),
    names: Array.isArray(stored.names) ? stored.names.map(String) : [],
    separator: text(stored.separator),
    template: text(stored.template),
    textHash: RECIPE_ALGORITHMS.find((algorithm) => algorithm === stored.textHash),
    key: oneOf(RECIPE_KEYS, stored.key, DEFAULT_RECIPE.key),
    keySeparator: text(stored.keySeparator),
    chain: Array.isArray(stored.chain) ? stored.chain.map(chainKeyOf) : [...DEFAULT_CHAIN],
    algorithm: oneOf(RECIPE_ALGORITHMS, stored.algorithm, DEFAULT_RECIPE.algorithm),
    encoding: oneOf(RECIPE_ENCODINGS, stored.encoding, DEFAULT_RECIPE.encoding),
    in: oneOf(RECIPE_PLACES, stored.in, DEFAULT_RECIPE.in),
    cut: oneOf(RECIPE_CUTS, stored.cut, 'pair'),
    signatureAliases: Array.isArray(stored.signatureAliases) ? stored.signatureAliases.map(String) : [],
    expiry: expiry
      ? {
          in: expiry.in === 'header' ? 'header' : 'query',
          name: text(expiry.name),
          unit: oneOf(EXPIRY_UNITS, expiry.unit, 's'),
          ...(expiry.kind === 'deadline' ? { kind: 'deadline' as const } : {}),
          skewSeconds: Number.isFinite(Number(expiry.skewSeconds)) ? Number(expiry.skewSeconds) : DEFAULT_EXPIRY.skewSeconds,
        }
      : null,
  };
}

/** Whether the way the signature is cut out changes what is signed: it travels inside the signed address or body. */
export function cutMatters(recipe: Pick<RecipeValue, 'text' | 'in'>): boolean {
  if (recipe.in === 'header') return false;
  return recipe.text === 'body' ? recipe.in === 'field' : recipe.text !== 'values' && recipe.text !== 'template';
}

/**
 * The recipe as it is saved: the keys of the choices made only (names for values, a template for template,
 * a cut other than the usual one where it matters, a chain for an HMAC chain, aliases when there are some …).
 */
export function recipeToValue(recipe: RecipeValue): RecipeValue {
  const { text: signed, key, algorithm, encoding, in: place, expiry } = recipe;
  const cut = cutMatters(recipe) && recipe.cut && recipe.cut !== 'pair' ? recipe.cut : undefined;
  const aliases = recipe.signatureAliases ?? [];
  return {
    text: signed,
    ...(signed === 'values' ? { names: recipe.names ?? [], separator: recipe.separator ?? '' } : {}),
    ...(signed === 'template' ? { template: recipe.template ?? '' } : {}),
    ...(recipe.textHash && key !== 'none' ? { textHash: recipe.textHash } : {}),
    key,
    ...(key === 'append' || key === 'prepend' ? { keySeparator: recipe.keySeparator ?? '' } : {}),
    ...(key === 'hmac_chain' ? { chain: (recipe.chain ?? [...DEFAULT_CHAIN]).map((step) => (step.in === 'secret' ? { in: 'secret' as const } : { in: step.in, name: step.name })) } : {}),
    algorithm,
    encoding,
    in: place,
    ...(cut ? { cut } : {}),
    ...(aliases.length > 0 ? { signatureAliases: aliases } : {}),
    expiry,
  };
}

/** The chain with `length` keys: cut short, or lengthened by parameters to name (the secret kept where it was). */
export function chainOfLength(chain: readonly RecipeChainKey[], length: number): RecipeChainKey[] {
  const kept = chain.slice(0, length);
  while (kept.length < length) kept.splice(Math.max(kept.length - 1, 0), 0, { in: 'query', name: '' });
  // a chain cut short keeps the secret as its last key
  if (!kept.some((step) => step.in === 'secret')) kept[kept.length - 1] = { in: 'secret' };
  return kept;
}

/** "subId, transId ,reward" → ["subId", "transId", "reward"] (blanks dropped). */
export function namesOfText(list: string): string[] {
  return list.split(',').map((name) => name.trim()).filter((name) => name !== '');
}

export function reversalOfValue(value: unknown): ReversalValue {
  const stored = objectOf(value) ?? {};
  const by = oneOf(REVERSAL_KINDS, stored.by, 'none');
  const listed = Array.isArray(stored.value) ? stored.value.map(String) : typeof stored.value === 'string' ? stored.value : '';
  return { by, param: text(stored.param), value: listed };
}

/** The rule as it is saved: a parameter and a value only where the kind uses them; several status codes as a list. */
export function reversalToValue(rule: ReversalValue): ReversalValue {
  if (rule.by === 'none' || rule.by === 'negative_amount') return { by: rule.by };
  const value = Array.isArray(rule.value) ? rule.value.join(',') : (rule.value ?? '');
  if (rule.by !== 'status') return { by: rule.by, param: rule.param ?? '', value };
  const codes = namesOfText(value);
  return { by: 'status', param: rule.param ?? '', value: codes.length === 1 ? codes[0] : codes };
}

/** The status codes of a status rule as the operator types them: "2, 3". */
export function reversalValueText(rule: ReversalValue): string {
  return Array.isArray(rule.value) ? rule.value.join(', ') : (rule.value ?? '');
}
