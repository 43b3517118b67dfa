import { errors, type ApiError } from '../../errors.js';
import { cutLabel, encodingLabel, joinedLabels, keyingLabel, placeLabel, textLabel, type SignedTextKind } from './recipe-labels.js';
import {
  chainKeysOf, computeSignature, RECIPE_ALGORITHMS, RECIPE_ENCODINGS, RECIPE_TEXTS, signatureNameIn, signedTextOf, type SignatureRecipe, type SignedRequestInput,
} from './signature-recipe.js';

/**
 * Why a signature does not verify, found by trying with the provider's own secret what providers commonly
 * get wrong: another hash or keying (HMAC vs the secret appended or prepended, a separator), another
 * encoding (hex, base64, base64url), another text (the full URL instead of the path, the query sorted,
 * the body, another origin). The match with the fewest differences from the provider's recipe is named;
 * none matching, the signature's length or a plain mismatch is. Only the stored secret is ever tried:
 * this finds a recipe mistake, never a secret.
 */

/** One text the signature may have been made of. */
interface CandidateText {
  kind: SignedTextKind;
  text: string;
  /** for kind=url: the origin it starts with */
  origin?: string;
  /** how the signature was cut out of it, when the recipe's own text with another cut */
  cut?: NonNullable<SignatureRecipe['cut']>;
}

const CUTS = ['pair', 'keep_separator', 'value'] as const;

type Keying = Pick<SignatureRecipe, 'key' | 'keySeparator' | 'chain'>;

interface Match {
  recipe: SignatureRecipe;
  text: CandidateText;
  differences: ('keying' | 'encoding' | 'text' | 'cut')[];
}

function decodedText(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function pairName(pair: string): string {
  const equals = pair.indexOf('=');
  return decodedText(equals < 0 ? pair : pair.slice(0, equals));
}

/** `https://a` ↔ `http://a`: a signature made before a proxy changed the scheme. */
function otherScheme(origin: string): string {
  return origin.replace(/^https?:/i, (scheme) => (scheme.toLowerCase() === 'https:' ? 'http:' : 'https:'));
}

/**
 * The texts to try: the recipe's own kinds on this request (a full URL with each origin in `origins` too),
 * and common misreadings of the path and query; each distinct text once, the recipe's own kind first.
 */
function candidateTexts(recipe: SignatureRecipe, sigParam: string, request: SignedRequestInput, origins: readonly string[]): CandidateText[] {
  const kinds = RECIPE_TEXTS.filter((kind) => (kind !== 'values' || recipe.names?.length) && (kind !== 'template' || recipe.template) && (kind !== 'body' || request.body !== ''));
  const candidates: CandidateText[] = [];
  for (const kind of [recipe.text, ...kinds.filter((kind) => kind !== recipe.text)]) {
    if (kind === 'url') {
      for (const origin of new Set([request.origin, ...origins, otherScheme(request.origin)])) {
        if (origin) candidates.push({ kind, text: signedTextOf({ ...recipe, text: kind }, sigParam, { ...request, origin }), origin });
      }
    } else {
      candidates.push({ kind, text: signedTextOf({ ...recipe, text: kind }, sigParam, request) });
    }
  }
  // The recipe's own text with the signature cut out another way (its `&` kept, or its `name=`).
  if (recipe.in !== 'header') {
    for (const cut of CUTS.filter((other) => other !== (recipe.cut ?? 'pair'))) {
      candidates.push({ kind: recipe.text, text: signedTextOf({ ...recipe, cut }, sigParam, request), cut, origin: request.origin });
    }
  }
  const pathQuery = signedTextOf({ ...recipe, text: 'path_query' }, sigParam, request);
  const sorted = signedTextOf({ ...recipe, text: 'sorted_query' }, sigParam, request);
  candidates.push(
    { kind: 'path_sorted', text: `${request.path}${sorted === '' ? '' : `?${sorted}`}` },
    { kind: 'decoded', text: decodedText(pathQuery) },
  );
  const seen = new Set<string>();
  const distinct: CandidateText[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.text)) continue;
    seen.add(candidate.text);
    distinct.push(candidate);
  }
  return distinct;
}

function keyings(recipe: SignatureRecipe): Keying[] {
  const separators = [...new Set([recipe.keySeparator ?? '', ''])];
  return [
    // An HMAC chain is tried as it is: its keys come from the request.
    ...(recipe.key === 'hmac_chain' ? [{ key: 'hmac_chain' as const, chain: recipe.chain }] : []),
    { key: 'hmac' },
    ...separators.map((keySeparator) => ({ key: 'append' as const, keySeparator })),
    ...separators.map((keySeparator) => ({ key: 'prepend' as const, keySeparator })),
  ];
}

/** The received signature as the expected one is written in `encoding` (hex in lower case, base64's `+` restored, no padding for base64url). */
function comparable(encoding: SignatureRecipe['encoding'], signature: string): string {
  if (encoding === 'hex') return signature.toLowerCase();
  if (encoding === 'base64') return signature.replace(/ /g, '+');
  return signature.replace(/=+$/, '');
}

function sameKeying(a: Keying, b: Keying): boolean {
  return a.key === b.key && (a.key === 'hmac' || (a.keySeparator ?? '') === (b.keySeparator ?? ''));
}

/** Every way, with the stored secret, the received signature comes out; fewest differences from the recipe first. */
function matchesOf(recipe: SignatureRecipe, secret: string, sigParam: string, request: SignedRequestInput, received: string, origins: readonly string[]): Match[] {
  const matches: Match[] = [];
  const chainKeys = chainKeysOf(recipe, secret, request);
  for (const text of candidateTexts(recipe, sigParam, request, origins)) {
    for (const keying of keyings(recipe)) {
      for (const algorithm of RECIPE_ALGORITHMS) {
        for (const encoding of RECIPE_ENCODINGS) {
          const tried: SignatureRecipe = { ...recipe, ...keying, algorithm, encoding, text: RECIPE_TEXTS.find((kind) => kind === text.kind) ?? recipe.text };
          if (computeSignature(tried, secret, text.text, chainKeys) !== comparable(encoding, received)) continue;
          const differences: Match['differences'] = [];
          if (!sameKeying(keying, recipe) || algorithm !== recipe.algorithm) differences.push('keying');
          if (encoding !== recipe.encoding) differences.push('encoding');
          if (text.cut) differences.push('cut');
          else if (text.kind !== recipe.text || (text.kind === 'url' && text.origin !== request.origin)) differences.push('text');
          matches.push({ recipe: tried, text, differences });
        }
      }
    }
  }
  return matches.sort((a, b) => a.differences.length - b.differences.length);
}

/** What a match found says, in the provider's terms. */
function explain(match: Match, recipe: SignatureRecipe, configuredText: string, request: SignedRequestInput): ApiError {
  const [only] = match.differences;
  if (match.differences.length === 1 && only === 'keying') return errors.providerTestOtherAlgorithm(keyingLabel(match.recipe), keyingLabel(recipe));
  if (match.differences.length === 1 && only === 'encoding') return errors.providerTestOtherEncoding(encodingLabel(match.recipe.encoding), encodingLabel(recipe.encoding));
  if (match.differences.length === 1 && only === 'cut') return errors.providerTestSignedOtherCut(cutLabel(match.text.cut), cutLabel(recipe.cut));
  if (match.differences.length === 1 && only === 'text') {
    const kind = match.text.kind;
    if (kind === 'url' && recipe.text === 'url') return errors.providerTestSignedOtherOrigin(match.text.origin ?? '', request.origin);
    if (recipe.text === 'path_query') {
      if (kind === 'url') return errors.providerTestSignedWithHost(configuredText);
      if (kind === 'query') return errors.providerTestSignedQueryOnly(configuredText);
      if (kind === 'path_sorted') return errors.providerTestSignedSorted(configuredText);
      if (kind === 'decoded') return errors.providerTestSignedDecoded(configuredText);
    }
    return errors.providerTestSignedOtherText(textLabel(kind), textLabel(recipe.text), configuredText);
  }
  const parts = [keyingLabel(match.recipe), encodingLabel(match.recipe.encoding), textLabel(match.text.kind), ...(match.text.cut ? [cutLabel(match.text.cut)] : [])];
  return errors.providerTestSignedOtherRecipe(joinedLabels(parts));
}

/**
 * The diagnosis of a signature that is present but wrong. `request.origin` is the origin the callback
 * endpoint reads (this site's public origin); `origins` are others the provider may have signed (the one of
 * the address it called, as pasted).
 */
export function diagnoseWrongSignature(recipe: SignatureRecipe, secret: string, sigParam: string, request: SignedRequestInput, received: string, origins: readonly string[] = []): ApiError {
  const name = signatureNameIn(recipe, sigParam, request);
  const configuredText = signedTextOf(recipe, name, request);
  const [best] = matchesOf(recipe, secret, name, request, received, origins);
  if (best && best.differences.length > 0) return explain(best, recipe, configuredText, request);
  const expected = computeSignature(recipe, secret, configuredText, chainKeysOf(recipe, secret, request));
  const given = comparable(recipe.encoding, received);
  if (recipe.encoding === 'hex' && (given.length !== expected.length || !/^[0-9a-f]+$/.test(given))) return errors.providerTestSignatureShape(given.length, keyingLabel(recipe), expected.length);
  if (given.length !== expected.length) return errors.providerTestSignatureLength(given.length, keyingLabel(recipe), encodingLabel(recipe.encoding), expected.length);
  return errors.providerTestSignatureMismatch(configuredText);
}

/** Where a signature under `sigParam` travels in this request, other than where the recipe says: the first place it is found. */
function signatureElsewhere(recipe: SignatureRecipe, sigParam: string, request: SignedRequestInput): SignatureRecipe['in'] | undefined {
  const inQuery = request.query.split('&').some((pair) => pair !== '' && pairName(pair) === sigParam);
  const inHeader = Object.hasOwn(request.headers, sigParam.toLowerCase());
  const inBody = /^application\/x-www-form-urlencoded/i.test(request.contentType)
    ? request.body.split('&').some((pair) => pair !== '' && pairName(pair) === sigParam)
    : /json/i.test(request.contentType) && request.body.includes(JSON.stringify(sigParam));
  const found = ([['query', inQuery], ['header', inHeader], ['field', inBody]] as const).find(([place, present]) => present && place !== recipe.in);
  return found?.[0];
}

/** The signature missing where the recipe puts it: said for that place, and where it was sent instead, if anywhere. */
export function missingSignature(recipe: SignatureRecipe, sigParam: string, request: SignedRequestInput): ApiError {
  const elsewhere = signatureElsewhere(recipe, sigParam, request);
  if (elsewhere) return errors.providerTestSignatureElsewhere(sigParam, placeLabel(elsewhere), placeLabel(recipe.in));
  if (recipe.in === 'header') return errors.providerTestSignatureHeaderMissing(sigParam);
  if (recipe.in === 'field') return errors.providerTestSignatureFieldMissing(sigParam);
  return errors.providerTestSignatureMissing(sigParam);
}
