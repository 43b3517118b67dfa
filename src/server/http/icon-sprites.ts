import type { IconifyJSON } from '@iconify/types';
import type { FastifyInstance } from 'fastify';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { drawFromSet, ICON_KEY, ICON_SET_FAMILIES, ICONS_URL_PREFIX, MAX_ICONS_PER_REQUEST, type IconSetFamily, type IconSprite } from '../../contract/icons.js';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { requestLanguage } from './dispatch.js';
import { envelopeOf, sendEnvelope } from './envelope.js';

/**
 * `GET /icons/<family>.json?names=a,b`: the icons a screen draws, out of the Iconify sets (about 170 KB
 * gzip whole), so a browser downloads a few kilobytes for the few dozen icons of a menu. The answer
 * depends only on the address (which carries the sets' version), so browsers keep it for good. The
 * sets are read on the first request; the answers of the last addresses asked are kept, gzipped too.
 */

const require = createRequire(import.meta.url);
const PACKAGES: Readonly<Record<IconSetFamily, string>> = { fa: '@iconify-json/fa/icons.json', ep: '@iconify-json/ep/icons.json' };
const sets = new Map<IconSetFamily, IconifyJSON>();
function setOf(family: IconSetFamily): IconifyJSON {
  let set = sets.get(family);
  if (!set) {
    set = require(PACKAGES[family]) as IconifyJSON;
    sets.set(family, set);
  }
  return set;
}

/** The names of a request, or undefined when any is not an icon name or there are too many. */
function namesOf(query: unknown): string[] | undefined {
  const raw = (query as { names?: unknown } | undefined)?.names;
  if (typeof raw !== 'string' || raw === '') return undefined;
  const names = [...new Set(raw.split(','))];
  if (names.length > MAX_ICONS_PER_REQUEST || !names.every((name) => ICON_KEY.test(name))) return undefined;
  return names.sort();
}

const CACHED_ANSWERS = 256;

export function registerIconSprites(server: FastifyInstance, app: AppContext): void {
  const answers = new Map<string, { plain: Buffer; gzip: Buffer }>();
  server.get(`${ICONS_URL_PREFIX}:file`, (request, reply) => {
    const { t } = requestLanguage(app, request);
    const now = Math.floor(Date.now() / 1000);
    const file = (request.params as { file: string }).file;
    const family = ICON_SET_FAMILIES.find((each) => file === `${each}.json`);
    if (!family) return sendEnvelope(reply, envelopeOf(errors.notFound(request.url.split('?')[0]), t, now), 404);
    const names = namesOf(request.query);
    if (!names) return sendEnvelope(reply, envelopeOf(errors.invalidIconNames(MAX_ICONS_PER_REQUEST), t, now), 400);
    const key = `${family}:${names.join(',')}`;
    let answer = answers.get(key);
    if (!answer) {
      const sprite: IconSprite = {};
      for (const name of names) {
        const drawn = drawFromSet(setOf(family), family, name);
        sprite[name] = drawn ? { viewBox: drawn.viewBox, body: drawn.body } : null;
      }
      const plain = Buffer.from(JSON.stringify(sprite));
      answer = { plain, gzip: gzipSync(plain) };
      if (answers.size >= CACHED_ANSWERS) answers.delete(answers.keys().next().value as string);
      answers.set(key, answer);
    }
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding');
    if (gzip) reply.header('content-encoding', 'gzip');
    return reply.send(gzip ? answer.gzip : answer.plain);
  });
}
