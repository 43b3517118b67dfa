import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signatures of provider returns (docs/survey-domain.md#signatures). The signed text is the path and the query string
 * exactly as received, with the signature parameter (and its `&`) taken out: `/success?rid=ab12` for
 * `/success?rid=ab12&sig=…`.
 */

export const SIGNATURE_ALGORITHMS = ['hmac_sha256', 'sha256_append', 'md5_append', 'none'] as const;
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];

function parameterName(pair: string): string {
  const name = pair.split('=', 1)[0];
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** `path?query` without the signature parameter, and the signature value that was sent (first one). */
export function signedText(path: string, query: string, sigParam: string): { text: string; signature: string | undefined } {
  const pairs = query.replace(/^\?/, '').split('&').filter((pair) => pair !== '');
  let signature: string | undefined;
  const kept = pairs.filter((pair) => {
    if (parameterName(pair) !== sigParam) return true;
    if (signature === undefined) {
      const raw = pair.slice(pair.indexOf('=') + 1);
      try {
        signature = pair.includes('=') ? decodeURIComponent(raw) : '';
      } catch {
        signature = raw;
      }
    }
    return false;
  });
  return { text: kept.length > 0 ? `${path}?${kept.join('&')}` : path, signature };
}

/** The lowercase hex signature of `text` under the algorithm and secret. */
export function sign(algorithm: Exclude<SignatureAlgorithm, 'none'>, text: string, secret: string): string {
  switch (algorithm) {
    case 'hmac_sha256':
      return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
    case 'sha256_append':
      return createHash('sha256').update(text + secret, 'utf8').digest('hex');
    case 'md5_append':
      return createHash('md5').update(text + secret, 'utf8').digest('hex');
  }
}

/** Whether the request's signature is right; constant time in the compared bytes. */
export function verifySignature(algorithm: SignatureAlgorithm, secret: string, path: string, query: string, sigParam: string): boolean {
  if (algorithm === 'none') return true;
  const { text, signature } = signedText(path, query, sigParam);
  if (!signature || secret === '') return false;
  const expected = Buffer.from(sign(algorithm, text, secret), 'utf8');
  const given = Buffer.from(signature.toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
