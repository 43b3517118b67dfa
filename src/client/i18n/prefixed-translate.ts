import { useTranslate } from 'react-admin';

/** Translates a key below one prefix: `tr('title')` reads `<prefix>.title`, with polyglot's `%{name}` options. */
type PrefixedTranslate = (key: string, options?: Record<string, unknown>) => string;

/**
 * react-admin's translate for a screen whose keys share one prefix (`survey.providerTest`). It takes no
 * default text: every text lives in `locales/<lang>/*.json`, and tests/unit/locales.test.ts checks that
 * each key a screen names through it (`const tr = usePrefixedTranslate('…')`, then `tr('key')`) exists in
 * both languages.
 */
export function usePrefixedTranslate(prefix: string): PrefixedTranslate {
  const translate = useTranslate();
  return (key, options) => translate(`${prefix}.${key}`, options);
}
