import type { FastifyRequest } from 'fastify';

/**
 * The body of a provider's callback exactly as it arrived. A signature may cover the raw body, or a form
 * body in the order its fields were sent, which the parsed body no longer tells; so the body parsers keep
 * the text of callback requests (and only those) here, for as long as the request lives.
 */

const CALLBACK_PATH = '/api/survey/callback/';

const rawBodies = new WeakMap<FastifyRequest, string>();

/** Called by the body parsers: keeps the text when the request is a provider's callback. */
export function keepRawBody(request: FastifyRequest, body: string): void {
  if (request.url.startsWith(CALLBACK_PATH)) rawBodies.set(request, body);
}

/** The body as received ('' when there was none or the request is not a callback). */
export function rawBodyOf(request: FastifyRequest): string {
  return rawBodies.get(request) ?? '';
}
