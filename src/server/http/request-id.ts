import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Every request has an id: the `X-Request-Id` a proxy in front (nginx's `$request_id`) or the client sent,
 * when it is a sane one, else a new UUID. The request log writes it on each of the request's lines
 * (`reqId`), the answer carries it back in `X-Request-Id`, the admin log keeps it with the row, and an
 * internal error shows it to the user, so an operator finds the log lines of what a user reports.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id may be: bounded, and characters that cannot break a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:=+/@-]{1,128}$/;

/** The id of a request (Fastify's `genReqId`): the incoming `X-Request-Id` if sane, else a fresh one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}
