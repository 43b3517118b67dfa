import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/errors.js';
import {
  computeSignature,
  isParameterName,
  LEGACY_SIGNATURES,
  legacyRecipe,
  parseRecipe,
  RECIPE_ALGORITHMS,
  RECIPE_ENCODINGS,
  RECIPE_KEYS,
  RECIPE_LOCATIONS,
  RECIPE_TEXTS,
  requestParameter,
  signatureNameIn,
  signedTextOf,
  signRequest,
  verifyRequest,
  type SignatureRecipe,
  type SignatureVerification,
  type SignedRequestInput,
} from '../../src/server/services/survey/signature-recipe.js';

const SECRET = 'shh-7f3a';
const NOW = 1_767_225_600;
const FORM = 'application/x-www-form-urlencoded';

function request(parts: Partial<SignedRequestInput> = {}): SignedRequestInput {
  return { method: 'GET', origin: 'https://panel.example.com', path: '/api/survey/callback/acme', query: '', headers: {}, body: '', contentType: '', ...parts };
}

function recipe(parts: Partial<SignatureRecipe> = {}): SignatureRecipe {
  return parseRecipe({ text: 'path_query', key: 'hmac', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: null, ...parts });
}

const hmacHex = (text: string, secret = SECRET) => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

/** The failure a verification names, or 'ok'. */
function outcome(result: SignatureVerification): string {
  return result.ok ? 'ok' : result.failure;
}

/** The ApiError parseRecipe throws for `value`, as its message and the part it names. */
function refusal(value: unknown): { msg: string; part: unknown } {
  try {
    parseRecipe(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    return { msg: apiError.msg, part: (apiError.data as { part?: unknown } | null)?.part };
  }
  throw new Error('parseRecipe accepted the recipe');
}

describe('the signed text of each kind', () => {
  // the signature sits between other pairs; `a` is percent-encoded and `c` holds a `+` (a space in a form)
  const received = request({ query: 'b=2&a=1%202&sig=ffff&c=%2Bx+y' });

  it('url: the public origin, the path and the query as received, the signature pair and its & cut out', () => {
    expect(signedTextOf(recipe({ text: 'url' }), 'sig', received)).toBe('https://panel.example.com/api/survey/callback/acme?b=2&a=1%202&c=%2Bx+y');
  });

  it('path_query: the same without the origin, and without "?" when only the signature was there', () => {
    expect(signedTextOf(recipe(), 'sig', received)).toBe('/api/survey/callback/acme?b=2&a=1%202&c=%2Bx+y');
    expect(signedTextOf(recipe(), 'sig', request({ path: '/success', query: 'sig=abc' }))).toBe('/success');
    expect(signedTextOf(recipe(), 'sig', request({ path: '/success', query: '' }))).toBe('/success');
    // a trailing & the provider sent is part of what it signed
    expect(signedTextOf(recipe(), 'sig', request({ path: '/p', query: 'a=1&&sig=abc' }))).toBe('/p?a=1&');
  });

  it('query: the query alone, as received, the signature pair cut out', () => {
    expect(signedTextOf(recipe({ text: 'query' }), 'sig', received)).toBe('b=2&a=1%202&c=%2Bx+y');
  });

  it('cut keep_separator: the & before the signature stays (the provider signed up to and including it)', () => {
    const keep = recipe({ text: 'url', cut: 'keep_separator' });
    expect(signedTextOf(keep, 'sig', request({ path: '/success', query: 'rid=ab&vid=1&sig=ffff' }))).toBe('https://panel.example.com/success?rid=ab&vid=1&');
    expect(signedTextOf(keep, 'sig', received)).toBe('https://panel.example.com/api/survey/callback/acme?b=2&a=1%202&c=%2Bx+y');
  });

  it('cut value: only the signature value goes, its name= stays (the provider signed it left empty)', () => {
    const value = recipe({ text: 'url', cut: 'value' });
    expect(signedTextOf(value, 'sig', request({ path: '/success', query: 'rid=ab&sig=ffff' }))).toBe('https://panel.example.com/success?rid=ab&sig=');
  });

  it('signs requests that verify under each cut', () => {
    for (const cut of ['pair', 'keep_separator', 'value'] as const) {
      const signing = recipe({ text: 'url', cut });
      const signed = signRequest(signing, SECRET, 'sig', request({ path: '/success', query: 'rid=ab&vid=1' }));
      expect(signed.query, cut).toMatch(/^rid=ab&vid=1&sig=[0-9a-f]{64}$/);
      expect(verifyRequest(signing, SECRET, 'sig', signed, NOW).ok, cut).toBe(true);
    }
  });

  it('sorted_query: pairs sorted by decoded name in byte order, stable, each kept as received', () => {
    expect(signedTextOf(recipe({ text: 'sorted_query' }), 'sig', received)).toBe('a=1%202&b=2&c=%2Bx+y');
    // upper case sorts before lower case, é after z; %62 is "b"; two "x" keep their order
    const mixed = request({ query: 'z=1&x=2&%C3%A9=3&B=4&x=1&%62=5&sig=00' });
    expect(signedTextOf(recipe({ text: 'sorted_query' }), 'sig', mixed)).toBe('B=4&%62=5&x=2&x=1&z=1&%C3%A9=3');
  });

  it('values: the decoded values of the names, query first then body, missing ones empty, joined by the separator', () => {
    const values = recipe({ text: 'values', names: ['a', 'c', 'absent', 'd'], separator: ':' });
    const withBody = { ...received, method: 'POST', contentType: FORM, body: 'd=%C3%A9t%C3%A9&a=body-loses' };
    expect(signedTextOf(values, 'sig', withBody)).toBe('1 2:+x y::été');
    expect(signedTextOf(recipe({ text: 'values', names: ['b', 'a'] }), 'sig', received)).toBe('21 2');
  });

  it('template: each {name} replaced by the decoded value, missing ones empty', () => {
    expect(signedTextOf(recipe({ text: 'template', template: 'v1|{a}|{c}|{absent}|{b}' }), 'sig', received)).toBe('v1|1 2|+x y||2');
  });

  it('body: the raw body; a form body signed with the signature in a field has that pair cut out', () => {
    const json = request({ method: 'POST', contentType: 'application/json', body: '{"amount": 1.50, "id":"t1"}' });
    expect(signedTextOf(recipe({ text: 'body', in: 'header' }), 'X-Sig', json)).toBe('{"amount": 1.50, "id":"t1"}');
    const form = request({ method: 'POST', contentType: `${FORM}; charset=utf-8`, body: 'id=t1&sig=abc&amount=1.50' });
    expect(signedTextOf(recipe({ text: 'body', in: 'field' }), 'sig', form)).toBe('id=t1&amount=1.50');
  });

  it('leaves the query whole when the signature travels in a header or a field', () => {
    const query = 'a=1&sig=kept';
    expect(signedTextOf(recipe({ in: 'header' }), 'sig', request({ query }))).toBe('/api/survey/callback/acme?a=1&sig=kept');
    expect(signedTextOf(recipe({ in: 'field' }), 'sig', request({ query }))).toBe('/api/survey/callback/acme?a=1&sig=kept');
  });
});

describe('request parameters', () => {
  it('reads the query first, then a form body, then a JSON body (strings, numbers as written, booleans)', () => {
    const form = request({ query: 'a=q', contentType: FORM, body: 'a=form&b=x+y&c=%E2%82%AC' });
    expect(requestParameter(form, 'a')).toBe('q');
    expect(requestParameter(form, 'b')).toBe('x y');
    expect(requestParameter(form, 'c')).toBe('€');
    const json = request({ contentType: 'application/json; charset=utf-8', body: '{"amount": 1.50, "big": 1e3, "test": true, "id": "t-1", "nested": {"amount": 9}, "list": [1], "none": null}' });
    expect(requestParameter(json, 'amount')).toBe('1.50');
    expect(requestParameter(json, 'big')).toBe('1e3');
    expect(requestParameter(json, 'test')).toBe('true');
    expect(requestParameter(json, 'id')).toBe('t-1');
    for (const name of ['nested', 'list', 'none', 'absent']) expect(requestParameter(json, name), name).toBeUndefined();
  });

  it('ignores a body of another type, and the first of repeated names wins', () => {
    expect(requestParameter(request({ contentType: 'text/plain', body: 'a=1' }), 'a')).toBeUndefined();
    expect(requestParameter(request({ query: 'a=1&a=2' }), 'a')).toBe('1');
    expect(requestParameter(request({ query: 'flag&a=%ZZ' }), 'flag')).toBe('');
    expect(requestParameter(request({ query: 'flag&a=%ZZ' }), 'a')).toBe('%ZZ');
  });
});

describe('keying, algorithms and encodings', () => {
  const text = '/success?rid=ab12';

  it('hmac keys the hash with the secret; append and prepend hash the text and the secret around keySeparator', () => {
    expect(computeSignature(recipe(), SECRET, text)).toBe(hmacHex(text));
    expect(computeSignature(recipe({ key: 'append', keySeparator: '-' }), SECRET, text)).toBe(createHash('sha256').update(`${text}-${SECRET}`).digest('hex'));
    expect(computeSignature(recipe({ key: 'prepend', keySeparator: '' }), SECRET, text)).toBe(createHash('sha256').update(`${SECRET}${text}`).digest('hex'));
    expect(computeSignature(recipe({ key: 'none' }), SECRET, text)).toBe('');
    expect(RECIPE_KEYS).toEqual(['hmac', 'hmac_chain', 'append', 'prepend', 'none']);
  });

  it('textHash keys the lowercase hex of the text\'s own hash instead of the text', () => {
    const digest = createHash('sha256').update(text).digest('hex');
    expect(computeSignature(recipe({ textHash: 'sha256' }), SECRET, text)).toBe(hmacHex(digest));
    expect(computeSignature(recipe({ key: 'append', keySeparator: '', textHash: 'md5' }), SECRET, text)).toBe(createHash('sha256').update(`${createHash('md5').update(text).digest('hex')}${SECRET}`).digest('hex'));
  });

  it('hmac_chain keys each HMAC by the next key in turn, over the hex of the one before, the last in the recipe\'s encoding', () => {
    const chain = recipe({ key: 'hmac_chain', encoding: 'base64', chain: [{ in: 'query', name: 'exp' }, { in: 'header', name: 'X-Key' }, { in: 'secret' }] });
    const second = hmacHex(hmacHex(text, '2026'), 'AK');
    expect(computeSignature(chain, SECRET, text, ['2026', 'AK', SECRET])).toBe(createHmac('sha256', SECRET).update(second).digest('base64'));
    // the keys come from the request: the query (or body) and the headers it names
    const signed = signRequest(chain, SECRET, 'sig', request({ path: '/success', query: 'rid=ab12&exp=2026', headers: { 'x-key': 'AK' } }));
    expect(verifyRequest(chain, SECRET, 'sig', signed, NOW)).toMatchObject({ ok: true, signedText: '/success?rid=ab12&exp=2026' });
    expect(outcome(verifyRequest(chain, SECRET, 'sig', { ...signed, headers: { 'x-key': 'AL' } }, NOW))).toBe('wrong');
    // a key the request does not carry: missing, as the signature itself would be
    expect(outcome(verifyRequest(chain, SECRET, 'sig', { ...signed, headers: {} }, NOW))).toBe('missing');
    expect(outcome(verifyRequest(chain, SECRET, 'sig', { ...signed, query: signed.query.replace('&exp=2026', '') }, NOW))).toBe('missing');
    expect(outcome(verifyRequest(chain, `${SECRET}x`, 'sig', signed, NOW))).toBe('wrong');
  });

  it('verifies Dynata\'s published REX example: the canonical query\'s SHA-256 through HMACs keyed by expiration, access key and secret key', () => {
    // The URL-verification example of Dynata's REX Python SDK, access key "access_key", secret key "secret_key".
    const rex = recipe({
      text: 'canonical_query', textHash: 'sha256', key: 'hmac_chain', chain: [{ in: 'query', name: 'expiration' }, { in: 'query', name: 'access_key' }, { in: 'secret' }],
      expiry: { in: 'query', name: 'expiration', unit: 'rfc3339', kind: 'deadline', skewSeconds: 86_400 },
    });
    const example = request({ origin: 'https://respondent.qa-rex.dynata.com', path: '/start', query: 'ctx=7c26bf58-43db-4370-977d-d14fa4356930&language=es&access_key=access_key&expiration=2099-01-01T00:00:00.000Z&signature=e3bc08b50ac9aa261255828f741467a956c40c4ce1f0e29bb1bcd23b81f31959' });
    const deadline = Date.UTC(2099, 0, 1) / 1000;
    expect(verifyRequest(rex, 'secret_key', 'signature', example, deadline - 60)).toMatchObject({ ok: true, signedText: 'access_key=access_key&ctx=7c26bf58-43db-4370-977d-d14fa4356930&expiration=2099-01-01T00%3A00%3A00.000Z&language=es' });
    // the same expiration escaped otherwise: the canonical text, so the signature, stays
    expect(outcome(verifyRequest(rex, 'secret_key', 'signature', { ...example, query: example.query.replace('2099-01-01T00:00:00.000Z', '2099-01-01T00%3a00%3a00.000Z') }, deadline - 60))).toBe('ok');
    expect(outcome(verifyRequest(rex, 'secret_key', 'signature', example, deadline))).toBe('expired');
    expect(outcome(verifyRequest(rex, 'secret_key', 'signature', example, deadline - 86_401))).toBe('expired');
    expect(outcome(verifyRequest(rex, 'secret_key', 'signature', { ...example, query: example.query.replace('language=es', 'language=en') }, deadline - 60))).toBe('wrong');
  });

  it('verifies Toluna\'s published end-page example: the URL plus its trailing & is the full URL with the & before the signature kept', () => {
    const toluna = recipe({ text: 'url', cut: 'keep_separator' });
    const example = request({ origin: 'https://partnerA.com', path: '', query: 'status=qualified&mc=mymember&encValue=f0c397932b98251aca505db3bb2c364711f18237f5202017d24b97ec522a373e' });
    expect(verifyRequest(toluna, 'supersecret', 'encValue', example, NOW)).toMatchObject({ ok: true, signedText: 'https://partnerA.com?status=qualified&mc=mymember&' });
  });

  it('uses each hash', () => {
    for (const algorithm of RECIPE_ALGORITHMS) {
      expect(computeSignature(recipe({ algorithm }), SECRET, text), algorithm).toBe(createHmac(algorithm, SECRET).update(text).digest('hex'));
    }
    expect(computeSignature(recipe({ algorithm: 'md5' }), SECRET, text)).toHaveLength(32);
    expect(computeSignature(recipe({ algorithm: 'sha512' }), SECRET, text)).toHaveLength(128);
  });

  it('writes hex in lower case, base64 with padding and base64url without', () => {
    const digest = createHmac('sha1', SECRET).update(text).digest();
    expect(computeSignature(recipe({ algorithm: 'sha1', encoding: 'hex' }), SECRET, text)).toBe(digest.toString('hex'));
    expect(computeSignature(recipe({ algorithm: 'sha1', encoding: 'base64' }), SECRET, text)).toBe(digest.toString('base64'));
    const url = computeSignature(recipe({ algorithm: 'sha1', encoding: 'base64url' }), SECRET, text);
    expect(url).toBe(digest.toString('base64url'));
    expect(url).not.toMatch(/[=+/]/);
    expect(RECIPE_ENCODINGS).toEqual(['hex', 'base64', 'base64url']);
  });

  it('compares hex case-insensitively, base64 exactly, and accepts an unencoded + or a padded base64url', () => {
    const path = '/success';
    const hex = recipe();
    const upper = hmacHex(`${path}?rid=ab12`).toUpperCase();
    expect(outcome(verifyRequest(hex, SECRET, 'sig', request({ path, query: `rid=ab12&sig=${upper}` }), NOW))).toBe('ok');

    // find a text whose base64 signature holds a "+" and a letter, to send it unencoded and in the wrong case
    const base64 = recipe({ encoding: 'base64' });
    let rid = 0;
    while (!/\+.*[a-z]|[a-z].*\+/.test(computeSignature(base64, SECRET, `${path}?rid=${rid}`))) rid++;
    const signature = computeSignature(base64, SECRET, `${path}?rid=${rid}`);
    expect(outcome(verifyRequest(base64, SECRET, 'sig', request({ path, query: `rid=${rid}&sig=${signature}` }), NOW))).toBe('ok');
    expect(outcome(verifyRequest(base64, SECRET, 'sig', request({ path, query: `rid=${rid}&sig=${encodeURIComponent(signature)}` }), NOW))).toBe('ok');
    expect(outcome(verifyRequest(base64, SECRET, 'sig', request({ path, query: `rid=${rid}&sig=${encodeURIComponent(signature.toUpperCase())}` }), NOW))).toBe('wrong');

    const base64url = recipe({ encoding: 'base64url' });
    const unpadded = computeSignature(base64url, SECRET, `${path}?rid=1`);
    expect(outcome(verifyRequest(base64url, SECRET, 'sig', request({ path, query: `rid=1&sig=${unpadded}=` }), NOW))).toBe('ok');
  });
});

describe('where the signature travels', () => {
  it('under sig_param or one of the recipe\'s aliases: the first present is the signature, and only it is cut out', () => {
    const aliased = recipe({ text: 'url', key: 'append', keySeparator: '', algorithm: 'sha1', signatureAliases: ['ps_s_hash', 'h'] });
    const sha1 = (text: string) => createHash('sha1').update(`${text}${SECRET}`).digest('hex');
    const url = 'https://panel.example.com/api/survey/callback/acme?ps_rstatus=33&oldStatus=21';
    const reconciliation = request({ query: `ps_rstatus=33&oldStatus=21&ps_s_hash=${sha1(url)}` });
    expect(signatureNameIn(aliased, 'asr_s_hash', reconciliation)).toBe('ps_s_hash');
    expect(verifyRequest(aliased, SECRET, 'asr_s_hash', reconciliation, NOW)).toMatchObject({ ok: true, signedText: url });
    // sig_param first: a request carrying both is checked by sig_param, the alias staying in the signed text
    const both = request({ query: `ps_rstatus=33&oldStatus=21&ps_s_hash=x&asr_s_hash=${sha1(`${url}&ps_s_hash=x`)}` });
    expect(signatureNameIn(aliased, 'asr_s_hash', both)).toBe('asr_s_hash');
    expect(outcome(verifyRequest(aliased, SECRET, 'asr_s_hash', both, NOW))).toBe('ok');
    expect(outcome(verifyRequest(aliased, SECRET, 'asr_s_hash', request({ query: 'ps_rstatus=33&oldStatus=21' }), NOW))).toBe('missing');
    // a name that is no alias is no signature
    expect(outcome(verifyRequest(aliased, SECRET, 'asr_s_hash', request({ query: `ps_rstatus=33&oldStatus=21&other=${sha1(url)}` }), NOW))).toBe('missing');
  });

  it('a JSON body\'s field, over named values read from that body (Toluna\'s notifications)', () => {
    const toluna = recipe({ text: 'values', names: ['SurveyId', 'WaveId', 'UniqueCode'], separator: '', algorithm: 'md5', in: 'field' });
    const body = '{"UniqueCode":"mymember","SurveyId":12345,"WaveId":"ABCD","Revenue":1.50}';
    const signed = signRequest(toluna, SECRET, 'EncryptedValue', request({ method: 'POST', query: 'Reason=Complete', contentType: 'application/json', body }));
    const value = createHmac('md5', SECRET).update('12345ABCDmymember').digest('hex');
    expect(JSON.parse(signed.body)).toMatchObject({ EncryptedValue: value, Revenue: 1.5 });
    expect(verifyRequest(toluna, SECRET, 'EncryptedValue', signed, NOW)).toMatchObject({ ok: true, signedText: '12345ABCDmymember', received: value });
    expect(outcome(verifyRequest(toluna, SECRET, 'EncryptedValue', { ...signed, body: signed.body.replace('12345', '12346') }, NOW))).toBe('wrong');
    expect(outcome(verifyRequest(toluna, SECRET, 'EncryptedValue', { ...signed, body }, NOW))).toBe('missing');
  });

  it('in the query, at any position', () => {
    const text = '/api/survey/callback/acme?rid=ab&status=complete';
    const query = `sig=${hmacHex(text)}&rid=ab&status=complete`;
    expect(outcome(verifyRequest(recipe(), SECRET, 'sig', request({ query }), NOW))).toBe('ok');
  });

  it('in a header, its name matched whatever its case', () => {
    const signing = recipe({ text: 'sorted_query', in: 'header' });
    const query = 'z=1&a=2';
    const headers = { 'x-signature': hmacHex('a=2&z=1') };
    expect(outcome(verifyRequest(signing, SECRET, 'X-Signature', request({ query, headers }), NOW))).toBe('ok');
    expect(outcome(verifyRequest(signing, SECRET, 'X-Signature', request({ query }), NOW))).toBe('missing');
  });

  it('in a form field, the body signed without it', () => {
    const signing = recipe({ text: 'body', in: 'field' });
    const body = `id=t1&amount=1.50&sig=${hmacHex('id=t1&amount=1.50')}`;
    expect(outcome(verifyRequest(signing, SECRET, 'sig', request({ method: 'POST', contentType: FORM, body }), NOW))).toBe('ok');
  });

  it('in a JSON field when values are signed; a JSON body signed whole cannot carry its signature: missing', () => {
    const values = recipe({ text: 'values', names: ['id', 'amount'], separator: '.', in: 'field' });
    const json = request({ method: 'POST', contentType: 'application/json', body: `{"id":"t1","amount":1.50,"sig":"${hmacHex('t1.1.50')}"}` });
    expect(outcome(verifyRequest(values, SECRET, 'sig', json, NOW))).toBe('ok');
    const whole = recipe({ text: 'body', in: 'field' });
    const signedWhole = { ...json, body: `{"id":"t1","sig":"${hmacHex('{"id":"t1"}')}"}` };
    expect(outcome(verifyRequest(whole, SECRET, 'sig', signedWhole, NOW))).toBe('missing');
  });

  it('is looked for only where the recipe says', () => {
    const text = '/api/survey/callback/acme?rid=ab';
    const inQuery = request({ query: `rid=ab&sig=${hmacHex(text)}` });
    expect(outcome(verifyRequest(recipe({ in: 'header' }), SECRET, 'sig', inQuery, NOW))).toBe('missing');
    expect(outcome(verifyRequest(recipe({ in: 'field' }), SECRET, 'sig', inQuery, NOW))).toBe('missing');
    expect(RECIPE_LOCATIONS).toEqual(['query', 'field', 'header']);
  });
});

describe('verification failures, each named', () => {
  const text = '/api/survey/callback/acme?rid=ab&status=complete';
  const signed = request({ query: `rid=ab&status=complete&sig=${hmacHex(text)}` });

  it('ok, with what was compared', () => {
    expect(verifyRequest(recipe(), SECRET, 'sig', signed, NOW)).toEqual({ ok: true, signedText: text, expected: hmacHex(text), received: hmacHex(text) });
  });

  it('no_secret, expecting nothing', () => {
    expect(verifyRequest(recipe(), '', 'sig', signed, NOW)).toEqual({ ok: false, failure: 'no_secret', signedText: text, expected: '', received: hmacHex(text) });
  });

  it('missing: no signature, or an empty one', () => {
    expect(verifyRequest(recipe(), SECRET, 'sig', request({ query: 'rid=ab&status=complete' }), NOW)).toEqual({ ok: false, failure: 'missing', signedText: text, expected: hmacHex(text), received: '' });
    expect(outcome(verifyRequest(recipe(), SECRET, 'sig', request({ query: 'rid=ab&status=complete&sig=' }), NOW))).toBe('missing');
  });

  it('wrong: another secret, a changed parameter, a signature cut short', () => {
    expect(outcome(verifyRequest(recipe(), `${SECRET}x`, 'sig', signed, NOW))).toBe('wrong');
    expect(outcome(verifyRequest(recipe(), SECRET, 'sig', { ...signed, query: signed.query.replace('complete', 'terminate') }, NOW))).toBe('wrong');
    expect(outcome(verifyRequest(recipe(), SECRET, 'sig', { ...signed, query: signed.query.slice(0, -1) }, NOW))).toBe('wrong');
  });

  it('key none checks nothing', () => {
    expect(outcome(verifyRequest(recipe({ key: 'none' }), '', 'sig', request({ query: 'rid=ab' }), NOW))).toBe('ok');
  });
});

describe('expiry', () => {
  const inQuery = recipe({ text: 'values', names: ['rid', 'ts'], separator: ':', expiry: { in: 'query', name: 'ts', unit: 's', skewSeconds: 300 } });

  function at(ts: number | undefined, signing = inQuery) {
    const query = ts === undefined ? 'rid=ab' : `rid=ab&ts=${ts}`;
    return signRequest(signing, SECRET, 'sig', request({ query }));
  }

  it('accepts a timestamp within the skew either way, refuses one beyond it or none', () => {
    expect(outcome(verifyRequest(inQuery, SECRET, 'sig', at(NOW), NOW))).toBe('ok');
    expect(outcome(verifyRequest(inQuery, SECRET, 'sig', at(NOW - 300), NOW))).toBe('ok');
    expect(outcome(verifyRequest(inQuery, SECRET, 'sig', at(NOW + 300), NOW))).toBe('ok');
    expect(outcome(verifyRequest(inQuery, SECRET, 'sig', at(NOW - 301), NOW))).toBe('expired');
    expect(outcome(verifyRequest(inQuery, SECRET, 'sig', at(NOW + 301), NOW))).toBe('expired');
    expect(outcome(verifyRequest(inQuery, SECRET, 'sig', at(undefined), NOW))).toBe('expired');
  });

  it('says wrong before expired: a stale request with a bad signature is wrong', () => {
    const stale = at(NOW - 3600);
    expect(outcome(verifyRequest(inQuery, `${SECRET}x`, 'sig', stale, NOW))).toBe('wrong');
  });

  it('reads an RFC 3339 time, with fractions and offsets; refuses one that is no date', () => {
    const rfc = recipe({ text: 'values', names: ['rid', 'at'], expiry: { in: 'query', name: 'at', unit: 'rfc3339', skewSeconds: 300 } });
    const signed = (at: string) => signRequest(rfc, SECRET, 'sig', request({ query: `rid=ab&at=${encodeURIComponent(at)}` }));
    expect(outcome(verifyRequest(rfc, SECRET, 'sig', signed('2026-01-01T00:04:59.999Z'), NOW))).toBe('ok');
    expect(outcome(verifyRequest(rfc, SECRET, 'sig', signed('2026-01-01T08:04:00+08:00'), NOW))).toBe('ok');
    expect(outcome(verifyRequest(rfc, SECRET, 'sig', signed('2026-01-01T00:05:01Z'), NOW))).toBe('expired');
    expect(outcome(verifyRequest(rfc, SECRET, 'sig', signed('2026-02-30T00:00:00Z'), NOW))).toBe('expired');
    expect(outcome(verifyRequest(rfc, SECRET, 'sig', signed(String(NOW)), NOW))).toBe('expired');
  });

  it('a deadline is good until our clock reaches it, and refused when it lies further ahead than skewSeconds', () => {
    const deadline = recipe({ text: 'values', names: ['rid', 'expiration'], expiry: { in: 'query', name: 'expiration', unit: 'rfc3339', kind: 'deadline', skewSeconds: 600 } });
    const signed = signRequest(deadline, SECRET, 'sig', request({ query: 'rid=ab&expiration=2026-01-01T00%3A05%3A00.000Z' }));
    expect(outcome(verifyRequest(deadline, SECRET, 'sig', signed, NOW))).toBe('ok');
    expect(outcome(verifyRequest(deadline, SECRET, 'sig', signed, NOW + 299))).toBe('ok');
    expect(outcome(verifyRequest(deadline, SECRET, 'sig', signed, NOW + 300))).toBe('expired');
    expect(outcome(verifyRequest(deadline, SECRET, 'sig', signed, NOW - 300))).toBe('ok');
    expect(outcome(verifyRequest(deadline, SECRET, 'sig', signed, NOW - 301))).toBe('expired');
  });

  it('reads milliseconds from a header', () => {
    const inHeader = recipe({ in: 'header', expiry: { in: 'header', name: 'X-Timestamp', unit: 'ms', skewSeconds: 60 } });
    const signed = (ms: number) => signRequest(inHeader, SECRET, 'X-Sig', request({ query: 'rid=ab', headers: { 'x-timestamp': String(ms) } }));
    expect(outcome(verifyRequest(inHeader, SECRET, 'X-Sig', signed(NOW * 1000 + 59_000), NOW))).toBe('ok');
    expect(outcome(verifyRequest(inHeader, SECRET, 'X-Sig', signed(NOW * 1000 + 61_000), NOW))).toBe('expired');
    expect(outcome(verifyRequest(inHeader, SECRET, 'X-Sig', signed(NOW), NOW))).toBe('expired');
  });
});

describe('signRequest', () => {
  it('appends the signature at the end of the query', () => {
    const signed = signRequest(recipe(), SECRET, 'sig', request({ query: 'rid=ab&status=complete' }));
    expect(signed.query).toBe(`rid=ab&status=complete&sig=${hmacHex('/api/survey/callback/acme?rid=ab&status=complete')}`);
    expect(signRequest(recipe(), SECRET, 'sig', request({ path: '/success' })).query).toBe(`sig=${hmacHex('/success')}`);
    // signing a signed request gives one signature
    expect(signRequest(recipe(), SECRET, 'sig', signed).query).toBe(signed.query);
  });

  it('appends a form field, sets a header, adds a JSON field', () => {
    const form = signRequest(recipe({ text: 'body', in: 'field' }), SECRET, 'sig', request({ method: 'POST', contentType: FORM, body: 'id=t1' }));
    expect(form.body).toBe(`id=t1&sig=${hmacHex('id=t1')}`);
    const header = signRequest(recipe({ text: 'body', in: 'header' }), SECRET, 'X-Sig', request({ method: 'POST', contentType: 'application/json', body: '{"id":"t1"}' }));
    expect(header.headers).toEqual({ 'x-sig': hmacHex('{"id":"t1"}') });
    const json = signRequest(recipe({ text: 'values', names: ['id'], in: 'field' }), SECRET, 'sig', request({ method: 'POST', contentType: 'application/json', body: '{"id":"t1"}' }));
    expect(JSON.parse(json.body)).toEqual({ id: 't1', sig: hmacHex('t1') });
  });

  it('builds requests that verify, for every text, keying, algorithm, encoding and location', () => {
    const base = request({ method: 'POST', query: 'rid=ab&status=complete&amount=1.50', contentType: FORM, body: 'reward=12&user=m1' });
    const combinations: string[] = [];
    for (const text of RECIPE_TEXTS) {
      for (const key of ['hmac', 'append', 'prepend'] as const) {
        for (const algorithm of RECIPE_ALGORITHMS) {
          for (const encoding of RECIPE_ENCODINGS) {
            for (const location of RECIPE_LOCATIONS) {
              const extra = text === 'values' ? { names: ['rid', 'reward'], separator: '|' } : text === 'template' ? { template: '{rid}-{user}-{amount}' } : {};
              const signing = recipe({ text, key, algorithm, encoding, in: location, ...(key === 'hmac' ? {} : { keySeparator: '&' }), ...extra });
              const signed = signRequest(signing, SECRET, 'sig', base);
              const name = `${text}/${key}/${algorithm}/${encoding}/${location}`;
              expect(outcome(verifyRequest(signing, SECRET, 'sig', signed, NOW)), name).toBe('ok');
              expect(outcome(verifyRequest(signing, 'other', 'sig', signed, NOW)), name).toBe('wrong');
              combinations.push(name);
            }
          }
        }
      }
    }
    expect(combinations).toHaveLength(RECIPE_TEXTS.length * 3 * 4 * 3 * 3);
  });
});

describe('parseRecipe', () => {
  const valid = { text: 'path_query', key: 'hmac', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: null };

  it('returns the recipe with exactly the parts its text and key use', () => {
    expect(parseRecipe(valid)).toEqual(valid);
    expect(parseRecipe({ ...valid, expiry: undefined })).toEqual(valid);
    expect(parseRecipe({ ...valid, text: 'values', names: ['a', 'b'] })).toEqual({ ...valid, text: 'values', names: ['a', 'b'], separator: '' });
    expect(parseRecipe({ ...valid, key: 'append' })).toEqual({ ...valid, key: 'append', keySeparator: '' });
    expect(parseRecipe({ ...valid, text: 'body', in: 'field' })).toEqual({ ...valid, text: 'body', in: 'field' });
    const expiry = { in: 'header', name: 'X-Time', unit: 'ms', skewSeconds: 86_400 };
    expect(parseRecipe({ ...valid, expiry }).expiry).toEqual(expiry);
    expect(parseRecipe({ ...valid, cut: 'value' })).toEqual({ ...valid, cut: 'value' });
  });

  it('refuses a cut for a signature in a header, and a cut it does not know', () => {
    expect(() => parseRecipe({ ...valid, in: 'header', cut: 'pair' })).toThrow(/is used only with/);
    expect(() => parseRecipe({ ...valid, cut: 'all' })).toThrow(/must be one of/);
  });

  it('refuses a recipe that is not an object', () => {
    for (const value of [null, 'hmac_sha256', ['text'], 3]) expect(refusal(value).msg).toBe('The signature recipe must be a JSON object');
  });

  it('refuses unknown parts, naming them', () => {
    expect(refusal({ ...valid, secret: 'x' })).toEqual({ msg: 'The signature recipe has an unknown part "%s"', part: 'secret' });
    expect(refusal({ ...valid, expiry: { in: 'query', name: 'ts', unit: 's', skewSeconds: 60, zone: 'utc' } }).part).toBe('expiry.zone');
  });

  it('refuses a missing or unknown choice, naming the part', () => {
    for (const part of ['text', 'key', 'algorithm', 'encoding', 'in']) {
      const without: Record<string, unknown> = { ...valid };
      delete without[part];
      expect(refusal(without), part).toEqual({ msg: 'The signature recipe lacks its part "%s"', part });
      expect(refusal({ ...valid, [part]: 'other' }), part).toEqual({ msg: 'The signature recipe part "%s" must be one of: %s', part });
    }
    expect(refusal({ ...valid, algorithm: 'SHA256' }).part).toBe('algorithm');
    expect(refusal({ ...valid, expiry: { in: 'field', name: 'ts', unit: 's', skewSeconds: 60 } }).part).toBe('expiry.in');
    expect(refusal({ ...valid, expiry: { in: 'query', name: 'ts', unit: 'min', skewSeconds: 60 } }).part).toBe('expiry.unit');
  });

  it('refuses names that are not parameter names', () => {
    const values = { ...valid, text: 'values' };
    expect(refusal(values)).toEqual({ msg: 'The signature recipe lacks its part "%s"', part: 'names' });
    expect(refusal({ ...values, names: [] }).part).toBe('names');
    expect(refusal({ ...values, names: 'a,b' }).part).toBe('names');
    expect(refusal({ ...values, names: Array.from({ length: 33 }, (_, i) => `n${i}`) }).part).toBe('names');
    expect(refusal({ ...values, names: ['ok', '1st'] })).toEqual({ msg: expect.stringContaining('must be a parameter name'), part: 'names[1]' });
    expect(refusal({ ...values, names: ['ok', 'a b'] }).part).toBe('names[1]');
    expect(refusal({ ...values, names: ['a'.repeat(65)] }).part).toBe('names[0]');
    expect(parseRecipe({ ...values, names: ['a'.repeat(64), 'user.id', 'x-y', 'data[0]', '_t'] }).names).toHaveLength(5);
    expect(refusal({ ...valid, expiry: { in: 'query', name: 'a=b', unit: 's', skewSeconds: 60 } }).part).toBe('expiry.name');
    expect(isParameterName('X-Ayetstudios-Security-Hash')).toBe(true);
    expect(isParameterName('')).toBe(false);
  });

  it('refuses separators longer than 8 characters', () => {
    expect(parseRecipe({ ...valid, text: 'values', names: ['a'], separator: '12345678' }).separator).toBe('12345678');
    expect(refusal({ ...valid, text: 'values', names: ['a'], separator: '123456789' })).toEqual({ msg: 'The signature recipe part "%s" must be a text of at most %d characters', part: 'separator' });
    expect(refusal({ ...valid, key: 'prepend', keySeparator: '123456789' }).part).toBe('keySeparator');
    expect(refusal({ ...valid, key: 'append', keySeparator: 1 }).part).toBe('keySeparator');
  });

  it('refuses templates without a placeholder, with stray braces or bad names', () => {
    const template = { ...valid, text: 'template' };
    expect(refusal(template)).toEqual({ msg: 'The signature recipe lacks its part "%s"', part: 'template' });
    for (const bad of ['no placeholder', '{a}{', '{a}}', '{}', '{a b}', '{{a}}', `{${'a'.repeat(65)}}`, `{a}${'x'.repeat(1000)}`]) {
      expect(refusal({ ...template, template: bad }), bad).toEqual({ msg: expect.stringContaining('{name} placeholder'), part: 'template' });
    }
    expect(parseRecipe({ ...template, template: 'v=1;{subId}:{trans.id}' }).template).toBe('v=1;{subId}:{trans.id}');
  });

  it('refuses skewSeconds outside 1..86400 or not whole', () => {
    const expiry = (skewSeconds: unknown) => ({ ...valid, expiry: { in: 'query', name: 'ts', unit: 's', skewSeconds } });
    for (const skew of [0, 86_401, 1.5, '300', -1]) expect(refusal(expiry(skew)), String(skew)).toEqual({ msg: 'The signature recipe part "%s" must be a whole number from %d to %d', part: 'expiry.skewSeconds' });
    expect(refusal({ ...valid, expiry: { in: 'query', name: 'ts', unit: 's' } }).part).toBe('expiry.skewSeconds');
    expect(refusal({ ...valid, expiry: 'ts' }).part).toBe('expiry');
  });

  it('refuses parts that belong to another text or key', () => {
    expect(refusal({ ...valid, names: ['a'] })).toEqual({ msg: 'The signature recipe part "%s" is used only with %s: leave it out', part: 'names' });
    expect(refusal({ ...valid, separator: '' }).part).toBe('separator');
    expect(refusal({ ...valid, template: '{a}' }).part).toBe('template');
    expect(refusal({ ...valid, keySeparator: '' }).part).toBe('keySeparator');
    expect(refusal({ ...valid, key: 'none', keySeparator: '' }).part).toBe('keySeparator');
    expect(refusal({ ...valid, chain: [{ in: 'secret' }, { in: 'query', name: 'a' }] }).part).toBe('chain');
    expect(refusal({ ...valid, key: 'none', textHash: 'sha256' }).part).toBe('textHash');
  });

  it('reads an HMAC chain of 2 to 4 keys, the secret among them, each named where it is a parameter or header', () => {
    const chained = { ...valid, key: 'hmac_chain', chain: [{ in: 'query', name: 'expiration' }, { in: 'header', name: 'X-Key' }, { in: 'secret' }] };
    expect(parseRecipe(chained)).toEqual(chained);
    expect(refusal({ ...chained, chain: undefined })).toEqual({ msg: 'The signature recipe lacks its part "%s"', part: 'chain' });
    const chainMessage = { msg: expect.stringContaining('the secret among them'), part: 'chain' };
    for (const bad of [[{ in: 'secret' }], [{ in: 'query', name: 'a' }, { in: 'header', name: 'b' }], Array.from({ length: 5 }, () => ({ in: 'secret' })), 'secret', [{ in: 'secret' }, 'a']]) {
      expect(refusal({ ...chained, chain: bad }), JSON.stringify(bad)).toEqual(chainMessage);
    }
    expect(refusal({ ...chained, chain: [{ in: 'body', name: 'a' }, { in: 'secret' }] }).part).toBe('chain[0].in');
    expect(refusal({ ...chained, chain: [{ in: 'query' }, { in: 'secret' }] }).part).toBe('chain[0].name');
    expect(refusal({ ...chained, chain: [{ in: 'query', name: 'a b' }, { in: 'secret' }] }).part).toBe('chain[0].name');
    expect(refusal({ ...chained, chain: [{ in: 'secret', name: 'a' }, { in: 'query', name: 'a' }] }).part).toBe('chain[0].name');
    expect(refusal({ ...chained, chain: [{ in: 'query', name: 'a', value: 'k' }, { in: 'secret' }] }).part).toBe('chain[0].value');
  });

  it('reads textHash, signature aliases and an expiry kind, refusing what it does not know', () => {
    expect(parseRecipe({ ...valid, textHash: 'sha256' })).toEqual({ ...valid, textHash: 'sha256' });
    expect(refusal({ ...valid, textHash: 'sha3' }).part).toBe('textHash');
    expect(parseRecipe({ ...valid, signatureAliases: ['ps_s_hash'] })).toEqual({ ...valid, signatureAliases: ['ps_s_hash'] });
    for (const bad of [[], 'ps_s_hash', ['a', 'b', 'c', 'd', 'e']]) expect(refusal({ ...valid, signatureAliases: bad }), JSON.stringify(bad)).toEqual({ msg: 'The signature recipe part "signatureAliases" must list 1 to %d parameter names', part: 'signatureAliases' });
    expect(refusal({ ...valid, signatureAliases: ['ok', 'a b'] }).part).toBe('signatureAliases[1]');
    const deadline = { in: 'query', name: 'expiration', unit: 'rfc3339', kind: 'deadline', skewSeconds: 600 };
    expect(parseRecipe({ ...valid, expiry: deadline }).expiry).toEqual(deadline);
    // a timestamp is the usual kind, written without it
    expect(parseRecipe({ ...valid, expiry: { ...deadline, kind: 'timestamp' } }).expiry).toEqual({ in: 'query', name: 'expiration', unit: 'rfc3339', skewSeconds: 600 });
    expect(refusal({ ...valid, expiry: { ...deadline, kind: 'window' } }).part).toBe('expiry.kind');
  });
});

describe('the legacy algorithms', () => {
  const texts = ['/success?rid=ab12', '/api/survey/callback/acme?rid=9f&status=10', '/s?name=%E7%8E%8B&x=+', ''];

  it('are the recipes the old column names', () => {
    expect(legacyRecipe('hmac_sha256')).toEqual({ text: 'path_query', key: 'hmac', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: null });
    expect(legacyRecipe('sha256_append')).toEqual({ text: 'path_query', key: 'append', keySeparator: '', algorithm: 'sha256', encoding: 'hex', in: 'query', expiry: null });
    expect(legacyRecipe('md5_append')).toEqual({ text: 'path_query', key: 'append', keySeparator: '', algorithm: 'md5', encoding: 'hex', in: 'query', expiry: null });
    expect(legacyRecipe('none')?.key).toBe('none');
    expect(legacyRecipe('sha1')).toBeUndefined();
    // each is a valid recipe as it stands
    for (const name of LEGACY_SIGNATURES) expect(parseRecipe(legacyRecipe(name))).toEqual(legacyRecipe(name));
  });

  /** The rule providers were signed by before recipes: lowercase hex of the named algorithm over the text. */
  function oldSign(name: 'hmac_sha256' | 'sha256_append' | 'md5_append', text: string): string {
    if (name === 'hmac_sha256') return createHmac('sha256', SECRET).update(text, 'utf8').digest('hex');
    return createHash(name === 'sha256_append' ? 'sha256' : 'md5').update(text + SECRET, 'utf8').digest('hex');
  }

  it('give exactly the signatures the old algorithms gave for the same text', () => {
    for (const name of ['hmac_sha256', 'sha256_append', 'md5_append'] as const) {
      for (const text of texts) expect(computeSignature(legacyRecipe(name) as SignatureRecipe, SECRET, text), `${name} ${text}`).toBe(oldSign(name, text));
    }
  });

  it('sign the text the old rule signed (path and query, every signature pair cut out) and verify the same returns', () => {
    const texts = {
      'rid=ab12': '/success?rid=ab12',
      'sig=x&rid=ab12&status=complete': '/success?rid=ab12&status=complete',
      'rid=ab12&sig=a&sig=b': '/success?rid=ab12',
      'rid=%E7%8E%8B&flag': '/success?rid=%E7%8E%8B&flag',
      '': '/success',
    };
    for (const [query, text] of Object.entries(texts)) expect(signedTextOf(legacyRecipe('hmac_sha256') as SignatureRecipe, 'sig', request({ path: '/success', query }))).toBe(text);
    for (const name of LEGACY_SIGNATURES) {
      const legacy = legacyRecipe(name) as SignatureRecipe;
      const good = name === 'none' ? 'rid=ab12' : `rid=ab12&sig=${oldSign(name, '/success?rid=ab12').toUpperCase()}`;
      for (const query of [good, 'rid=ab12&sig=00', 'rid=ab12']) {
        // the old check accepted a right signature in any case, and anything when nothing was signed
        const accepted = name === 'none' || query === good;
        expect(verifyRequest(legacy, SECRET, 'sig', request({ path: '/success', query }), NOW).ok, `${name} ${query}`).toBe(accepted);
      }
    }
  });
});
