import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Large answers of the API and pages go compressed when the browser accepts it: the back office's
 * bootstrap (menus and every definition, about 200 KB) arrives as about 23 KB of Brotli. The client's
 * assets are compressed ahead at build time (vite.config.ts); this is for what is written per request.
 *
 * Only from `MIN_BYTES` up: a list page of ten rows (a few KB) is sent as it is, since on a fast
 * network compressing it would take longer than the bytes it saves. Brotli at quality 4 and gzip at
 * level 6 compress 200 KB of JSON in about 4 ms (measured on the development machine), off the event
 * loop (zlib runs on libuv's thread pool), where the best quality would take ten times as long.
 */
const MIN_BYTES = 16 * 1024;
const COMPRESSED_TYPES = /^(?:application\/json|text\/html)\b/;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

type Encoding = 'br' | 'gzip';

/** The encoding to answer in, from the request's `accept-encoding` (a `q=0` refuses one). */
export function acceptedEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...parameters] = part.trim().split(';');
    const refused = parameters.some((parameter) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(parameter));
    if (!refused) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'br') return brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
  return gzipped(body, { level: 6 });
}

/** Whether `reply` carries a text answer of its own worth compressing (not a file the static server sends, not one already encoded). */
function compressible(request: FastifyRequest, reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  // A string's UTF-8 takes at most 3 bytes a character: most answers are told small by their length alone.
  if ((typeof payload === 'string' ? payload.length * 3 : payload.length) < MIN_BYTES || Buffer.byteLength(payload) < MIN_BYTES) return false;
  if (request.method === 'HEAD' || reply.hasHeader('content-encoding')) return false;
  return COMPRESSED_TYPES.test(String(reply.getHeader('content-type') ?? ''));
}

/** Adds `accept-encoding` to the answer's `vary`, keeping what is there (pages already vary by cookie). */
function varyByEncoding(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (!/\baccept-encoding\b/i.test(vary)) reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
}

export function registerCompression(server: FastifyInstance): void {
  server.addHook('onSend', (request, reply, payload, done) => {
    if (!compressible(request, reply, payload)) return done(null, payload);
    varyByEncoding(reply);
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    compress(typeof payload === 'string' ? Buffer.from(payload) : payload, encoding).then(
      (body) => {
        reply.header('content-encoding', encoding).removeHeader('content-length');
        done(null, body);
      },
      // Never seen; the answer still goes out, uncompressed.
      () => done(null, payload),
    );
  });
}
