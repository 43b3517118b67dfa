import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { parseQuery } from '../../contract/query-string.js';
import { keepRawBody } from './raw-body.js';

/** JSON and urlencoded bodies at most this long. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** How request bodies are read: forms and JSON (their text kept for a provider's signature), and multipart uploads. */
export async function registerBodyParsers(server: FastifyInstance): Promise<void> {
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    keepRawBody(request, String(body));
    done(null, parseQuery(String(body)));
  });
  // Fastify's own JSON parsing, with the text kept for a provider's callback (`raw-body.ts`).
  const parseJson = server.getDefaultJsonParser('error', 'error');
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    keepRawBody(request, text);
    parseJson(request, text, done);
  });

  // Uploads are read by the `ajax/upload` action itself, which sets the file size limit of the moment
  // (a config item); files over it arrive truncated and flagged.
  await server.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { files: 3, fields: 20, parts: 30, fieldSize: 64 * 1024 },
  });
}
