import { Header } from '../../contract/headers.js';

/**
 * What the logs (the admin log, the request log of `LOG_REQUESTS`) never keep: the values of names that
 * hold secrets. A name is judged as the application reads it, so an encoded `bat%6Fken` is `batoken`.
 */

/** Parts that make any name a secret: `password`, `smtp_pass`, `pwd`, `salt`, `refreshToken`, `client_secret`, `authorization`… */
const SECRET_PART = /pass|pwd|salt|token|secret|credential|authori[sz]ation|authenticat|cookie/i;

/**
 * Words that are secrets on their own: `key`, `api_key`, `accessKey`, `keys`, `auth` (not `keyword`, not
 * `author`), and signatures, which a replayed request would reuse: `sig`, `x_signature`, `hmac`.
 */
const SECRET_WORD = /^(?:[a-z]*key|keys|auth|sig|signature|hmac)$/;

/** Whole names that are signatures in the usual callback conventions (`?sign=…`, `?hash=…`), not as words (`sign_name`). */
const SECRET_NAME = /^(?:sign|hash)$/i;

/**
 * Where the request log's JSON lines could hold a secret outside the address: the credentials headers, if
 * a line ever carries a request's or an answer's headers. Pino writes `***` in their place.
 */
export const LOG_REDACTED_PATHS = ['authorization', 'cookie', 'set-cookie', Header.adminToken, 'ba-token', Header.userToken, 'bausertoken'].flatMap((name) => [
  `req.headers["${name}"]`,
  `res.headers["${name}"]`,
  `headers["${name}"]`,
]);

/** The words of a name: `accessKey` → access, key; `a[api_key]` → a, api, key. */
function wordsOf(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/);
}

/** A query name as the query parser reads it (`+` a space, percent escapes decoded), tried a few times over. */
function decodedForms(name: string): string[] {
  const forms = [name];
  let current = name;
  for (let round = 0; round < 3; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current.replaceAll('+', ' '));
    } catch {
      break;
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

/** Whether a value under this name (a body key, a query parameter once decoded) is a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_PART.test(name) || SECRET_NAME.test(name) || wordsOf(name).some((word) => SECRET_WORD.test(word));
}

/** The request address for a log: each query parameter whose decoded name is a secret keeps its name, its value becomes `***`. */
export function redactedUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const hash = url.indexOf('#', mark);
  const query = hash < 0 ? url.slice(mark + 1) : url.slice(mark + 1, hash);
  const pairs = query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    return decodedForms(name).some(isSecretName) ? `${name}=***` : pair;
  });
  return `${url.slice(0, mark)}?${pairs.join('&')}`;
}
