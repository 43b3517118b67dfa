import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { AppContext } from '../app-context.js';
import { CORS_HEADERS, echoAllowedOrigin } from './cors.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** The headers every answer carries (security, CORS, the request id), and the answer to a CORS preflight. */
export function registerSecurityHeaders(server: FastifyInstance, app: AppContext): void {
  // Security headers on every answer: the built client runs no inline script and builds no function
  // from text (the forms check input with `schema/value-checker.ts`, plain code), so scripts come only
  // from this site. Styles are injected by the UI library at run time ('unsafe-inline' for styles only).
  // Built once: the policy is parsed here, and each request only sets the finished headers (the policy
  // holds no value that differs between requests, such as a nonce).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", ...app.settings.cspFrameSrc],
        frameAncestors: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Uploaded images and avatars may be shown by other sites of the operator.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  const securityHeaderList = fixedHeaders(securityHeaders);
  // What every answer carries whatever the request: the security headers and the fixed CORS headers.
  // Set on the reply, not on the raw response: Node then writes them with the reply's own headers in one
  // pass, where a header set on the raw response first makes it check and copy every header once more.
  // With the allowed origins read only when asked for, this took a tenth off a list request's CPU time.
  const everyAnswer: Record<string, string | string[]> = {
    ...Object.fromEntries(securityHeaderList.set.map(([name, value]) => [name.toLowerCase(), value])),
    ...CORS_HEADERS,
  };
  server.addHook('onRequest', (request, reply, done) => {
    reply.headers(everyAnswer);
    reply.header(REQUEST_ID_HEADER, request.id);
    for (const name of securityHeaderList.removed) reply.raw.removeHeader(name);
    // Only a request with an Origin, or a preflight, needs the allowed origins (a config item).
    if (request.headers.origin === undefined && request.method !== 'OPTIONS') return done();
    app.config.get('cors_request_domain', 'localhost,127.0.0.1').then((allowed) => {
      echoAllowedOrigin(request, reply, allowed);
      if (request.method === 'OPTIONS') void reply.code(204).send();
      else done();
    }, done);
  });
}

/**
 * The headers a middleware that only sets fixed headers sets and removes, read once by running it on a
 * stand-in response; every request then gets them without the middleware's chain of calls. Fails at
 * start-up if the middleware does anything else (reads the request, answers, defers, fails).
 */
function fixedHeaders(middleware: (request: never, response: never, next: (error?: unknown) => void) => void): {
  set: [string, string | string[]][];
  removed: string[];
} {
  const set: [string, string | string[]][] = [];
  const removed: string[] = [];
  const response = {
    setHeader: (name: string, value: string | string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let finished = false;
  middleware(Object.freeze({}) as never, Object.freeze(response) as never, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    finished = true;
  });
  if (!finished) throw new Error('security headers: the middleware did not finish at once');
  return { set, removed };
}
