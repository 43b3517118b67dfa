import type { LocalText } from '../../../schema/local-text.js';
import type { SignatureRecipe } from './signature-recipe.js';

/**
 * The parts of a signature recipe in words, in every language: what the test tool's diagnoses say a
 * signature was made with ("SHA-1 with the secret appended", "base64", "the query sorted by name").
 */

const ALGORITHMS: Readonly<Record<SignatureRecipe['algorithm'], string>> = { md5: 'MD5', sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' };

/** The keying and the hash together, as guides name them: "HMAC-SHA256", "MD5 with secret appended". */
export function keyingLabel(recipe: Pick<SignatureRecipe, 'key' | 'algorithm' | 'keySeparator' | 'chain'>): LocalText {
  const hash = ALGORITHMS[recipe.algorithm];
  const separator = recipe.keySeparator ? ` “${recipe.keySeparator}”` : '';
  switch (recipe.key) {
    case 'hmac':
      return { en: `HMAC-${hash.replace('-', '')}`, 'zh-cn': `HMAC-${hash.replace('-', '')}` };
    case 'hmac_chain': {
      const keys = (recipe.chain ?? []).map((step) => (step.in === 'secret' ? { en: 'the secret', 'zh-cn': '密钥' } : { en: step.name, 'zh-cn': step.name }));
      return {
        en: `HMAC-${hash.replace('-', '')} chain keyed by ${keys.map((key) => key.en).join(', then ')}`,
        'zh-cn': `HMAC-${hash.replace('-', '')} 链（依次以 ${keys.map((key) => key['zh-cn']).join('、')} 为密钥）`,
      };
    }
    case 'append':
      return { en: `${hash} with secret appended${separator ? ` after${separator}` : ''}`, 'zh-cn': `${hash}（内容后${separator ? `接${separator}再` : ''}接密钥）` };
    case 'prepend':
      return { en: `${hash} with secret prepended${separator ? ` before${separator}` : ''}`, 'zh-cn': `${hash}（密钥后${separator ? `接${separator}再` : ''}接内容）` };
    case 'none':
      return { en: 'no signature', 'zh-cn': '不签名' };
  }
}

const ENCODINGS: Readonly<Record<SignatureRecipe['encoding'], LocalText>> = {
  hex: { en: 'hexadecimal', 'zh-cn': '十六进制' },
  base64: { en: 'base64', 'zh-cn': 'base64' },
  base64url: { en: 'base64url', 'zh-cn': 'base64url' },
};

export function encodingLabel(encoding: SignatureRecipe['encoding']): LocalText {
  return ENCODINGS[encoding];
}

/** The texts a signature may cover: the recipe's own, and the misreadings the diagnosis tries. */
export type SignedTextKind = SignatureRecipe['text'] | 'path_sorted' | 'decoded';

const TEXTS: Readonly<Record<SignedTextKind, LocalText>> = {
  url: { en: 'the full URL', 'zh-cn': '完整地址' },
  path_query: { en: 'the path and query', 'zh-cn': '路径和参数' },
  query: { en: 'the query alone', 'zh-cn': '仅参数部分' },
  sorted_query: { en: 'the query sorted by name', 'zh-cn': '按名称排序的参数' },
  canonical_query: { en: 'the query decoded, sorted and encoded again', 'zh-cn': '解码、排序后重新编码的参数' },
  values: { en: 'the named values joined', 'zh-cn': '指定参数值的拼接' },
  template: { en: 'the template', 'zh-cn': '模板' },
  body: { en: 'the request body', 'zh-cn': '请求正文' },
  path_sorted: { en: 'the path and the query sorted by name', 'zh-cn': '路径加按名称排序的参数' },
  decoded: { en: 'the decoded path and query', 'zh-cn': '解码后的路径和参数' },
};

export function textLabel(text: SignedTextKind): LocalText {
  return TEXTS[text];
}

const PLACES: Readonly<Record<SignatureRecipe['in'], LocalText>> = {
  query: { en: 'the query', 'zh-cn': '地址参数' },
  field: { en: 'a field of the body', 'zh-cn': '正文字段' },
  header: { en: 'a header', 'zh-cn': '请求头' },
};

export function placeLabel(place: SignatureRecipe['in']): LocalText {
  return PLACES[place];
}

const CUTS: Readonly<Record<NonNullable<SignatureRecipe['cut']>, LocalText>> = {
  pair: { en: 'the signature pair and its “&” taken out', 'zh-cn': '去掉签名参数及其“&”' },
  keep_separator: { en: 'the signature pair taken out, the “&” before it kept', 'zh-cn': '去掉签名参数，保留其前面的“&”' },
  value: { en: 'only the signature’s value taken out (“name=” kept)', 'zh-cn': '只去掉签名的值（保留“名称=”）' },
};

export function cutLabel(cut: SignatureRecipe['cut']): LocalText {
  return CUTS[cut ?? 'pair'];
}

/** Several parts in one phrase: "SHA-1 with secret appended, base64, of the query sorted by name". */
export function joinedLabels(parts: readonly LocalText[]): LocalText {
  return { en: parts.map((part) => part.en).join(', '), 'zh-cn': parts.map((part) => part['zh-cn']).join('，') };
}
