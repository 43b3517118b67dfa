/**
 * A message pack as the files under `locales/<lang>/` hold it: nested objects of strings, react-admin
 * style (`login.rules.account`).
 */
export interface MessagePack {
  [key: string]: string | MessagePack;
}

type TranslateOptions = { _?: string } & Record<string, unknown>;
export type Translate = (key: string, options?: TranslateOptions) => string;

function lookup(pack: MessagePack, key: string): string | undefined {
  let node: string | MessagePack | undefined = pack;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Deep merge of packs; later packs win. */
export function mergePacks(...packs: MessagePack[]): MessagePack {
  const out: MessagePack = {};
  for (const pack of packs) {
    for (const [key, value] of Object.entries(pack)) {
      const existing = out[key];
      out[key] = typeof value === 'object' && typeof existing === 'object' ? mergePacks(existing, value) : value;
    }
  }
  return out;
}

/**
 * Of a message in plural forms (`"%{smart_count} point |||| %{smart_count} points"`), the form of
 * `count`: the second for any count but one where there are two (English), the only one otherwise
 * (Chinese), as polyglot picks them for the site's two languages.
 */
function pluralForm(message: string, count: unknown): string {
  const forms = message.split('||||').map((form) => form.trim());
  if (forms.length < 2 || typeof count !== 'number') return forms[0] ?? message;
  return forms[count === 1 ? 0 : 1] ?? forms[0];
}

/**
 * The polyglot subset the light pages need: `%{name}` interpolation, plural forms chosen by
 * `smart_count` and a `_` default, so the same message files serve react-admin's polyglot provider and
 * the pages that must not load it.
 */
export function createTranslate(pack: MessagePack): Translate {
  return (key, options = {}) => {
    const message = pluralForm(lookup(pack, key) ?? options._ ?? key, options.smart_count);
    return message.replace(/%\{(\w+)\}/g, (whole, name: string) => (name in options ? String(options[name]) : whole));
  };
}
