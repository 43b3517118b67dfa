import type { FastifyReply, FastifyRequest } from 'fastify';
import { Header } from '../../contract/headers.js';

const CORS_ALLOWED_HEADERS =
  `think-lang, server, ${Header.client}, ba_user_token, ba-user-token, ba_token, ba-token, batoken, Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, X-CSRF-TOKEN, X-Requested-With`;

/** The CORS headers every answer carries, whatever its origin (docs/wire-contract.md#cors). */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-credentials': 'true',
  'access-control-max-age': '1800',
  'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': CORS_ALLOWED_HEADERS,
};

/**
 * CORS (docs/wire-contract.md#cors): the Origin is echoed when it, or its host, is in the allowed list (config
 * `cors_request_domain`), when it is the request's own host, or when the list holds `*`.
 */
function originAllowed(origin: string, requestHost: string | undefined, allowed: string[]): boolean {
  if (allowed.includes('*')) return true;
  let host: string;
  let hostname: string;
  try {
    const url = new URL(origin);
    host = url.host;
    hostname = url.hostname;
  } catch {
    return false;
  }
  return allowed.some((entry) => entry === origin || entry === host || entry === hostname) || host === requestHost;
}

/** Echoes the request's `Origin` when the config item `cors_request_domain` (its text, `allowedText`) allows it. */
export function echoAllowedOrigin(request: FastifyRequest, reply: FastifyReply, allowedText: string): void {
  const origin = request.headers.origin;
  if (!origin) return;
  if (originAllowed(origin, request.headers.host, allowedText.split(/[\s,]+/).filter(Boolean))) {
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
  }
}
