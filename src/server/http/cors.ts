import type { FastifyReply, FastifyRequest } from 'fastify';
import { Header } from '../../contract/headers.js';

const CORS_ALLOWED_HEADERS =
  `think-lang, server, ${Header.client}, ba_user_token, ba-user-token, ba_token, ba-token, batoken, Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, X-CSRF-TOKEN, X-Requested-With`;

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

export function applyCors(request: FastifyRequest, reply: FastifyReply, allowed: string[]): void {
  reply.header('Access-Control-Allow-Credentials', 'true');
  reply.header('Access-Control-Max-Age', '1800');
  reply.header('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
  reply.header('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS);
  const origin = request.headers.origin;
  if (origin && originAllowed(origin, request.headers.host, allowed)) {
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Vary', 'Origin');
  }
}
