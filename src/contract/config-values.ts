import type { CodeChannelHealth } from './code-channels.js';

/**
 * Site configuration items (`config` rows, docs/wire-contract.md#site-configuration): the design type of an item decides how its
 * text column travels on the wire. Shared by the server (`routine.Config`) and the config screen. The
 * types themselves are the `type` enum of `schemas/system/config.json`.
 */

/** Types whose value is a JSON array in the column. */
export const JSON_ARRAY_TYPES: ReadonlySet<string> = new Set(['checkbox', 'array', 'selects']);
/** Types whose value is a comma-separated list in the column. */
const CSV_TYPES: ReadonlySet<string> = new Set(['city', 'remoteSelects', 'images', 'files']);
/** Types that choose among the item's dictionary (`content`). */
export const DICTIONARY_TYPES: ReadonlySet<string> = new Set(['radio', 'checkbox', 'select', 'selects']);

/** A config item as `routine.Config/index` lists it. */
export interface ConfigItem {
  id: number;
  name: string;
  group: string;
  title: string;
  tip: string;
  type: string;
  value: unknown;
  /** value → label for dictionary types, '' otherwise */
  content: Record<string, string> | '';
  /** validation rules, comma-separated (`required`, `email`…) */
  rule: string;
  extend: string;
  allow_del: number;
  weigh: number;
  /** a password item only: whether a value is stored (the value itself is never sent) */
  isSet?: boolean;
  /** set while an environment variable decides the item: `value` applies, not the stored one */
  override?: ConfigOverride;
}

/** An environment variable deciding a config item (our addition): its name and the value it gives the item. */
export interface ConfigOverride {
  variable: string;
  value: unknown;
}

/**
 * The `edit` body key listing password items to empty: `{smtp_pass: '', clearSecrets: ['smtp_pass']}`.
 * An empty password value alone keeps the stored one, so a form that sends its fields back blank never
 * wipes a secret by accident; clearing is always asked for by name.
 */
export const CLEAR_SECRETS_KEY = 'clearSecrets';

export interface ConfigGroup {
  name: string;
  title: string;
  list?: ConfigItem[];
}

/** `routine.Config/index` data. */
export interface ConfigIndex {
  list: Record<string, ConfigGroup>;
  remark: string;
  configGroup: Record<string, string>;
  quickEntrance: { key: string; value: string }[];
  /** whether each verification-code channel works (our addition) */
  channels?: CodeChannelHealth[];
}

/** A refresh token's lifetime (seconds): the longest an access token's lifetime setting may be. */
export const REFRESH_TOKEN_LIFETIME = 2_592_000;

/** The bounds of the token lifetime settings (seconds): a minute at least, at most as long as a refresh token lives. */
export const TOKEN_LIFETIME_BOUNDS = { min: 60, max: REFRESH_TOKEN_LIFETIME } as const;

/**
 * Items holding whole seconds, with their bounds: the server stores and reads seconds, the config screen
 * takes and shows them in days, hours or minutes (`durations.ts`).
 */
const DURATION_SETTINGS: Readonly<Record<string, { min: number; max: number }>> = {
  admin_token_keep_time: TOKEN_LIFETIME_BOUNDS,
  user_token_keep_time: TOKEN_LIFETIME_BOUNDS,
};

/** The bounds of a duration item, or undefined for an item that is not one. */
export function durationBoundsOf(name: string): { min: number; max: number } | undefined {
  return Object.hasOwn(DURATION_SETTINGS, name) ? DURATION_SETTINGS[name] : undefined;
}

export function rulesOf(rule: string | null | undefined): string[] {
  return String(rule ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

/** The stored text of an item → its wire value. */
export function decodeConfigValue(type: string, stored: string | null | undefined): unknown {
  const text = stored ?? '';
  if (JSON_ARRAY_TYPES.has(type)) {
    try {
      const parsed: unknown = JSON.parse(text || '[]');
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }
  if (type === 'switch') return text === '1' || text === 'true';
  if (CSV_TYPES.has(type)) return text === '' ? [] : text.split(',');
  return text;
}

/** A dictionary column (`{"SSL": "SSL"}`) → value → label; anything else → ''. */
export function decodeDictionary(type: string, stored: string | null | undefined): Record<string, string> | '' {
  if (!DICTIONARY_TYPES.has(type) || !stored) return '';
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return '';
    return Object.fromEntries(Object.entries(parsed).map(([key, label]) => [key, String(label)]));
  } catch {
    return '';
  }
}
