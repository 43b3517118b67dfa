import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import helmet from 'helmet';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { join, resolve } from 'node:path';
import { parseQuery } from '../contract/query-string.js';
import type { AppContext } from './app-context.js';
import { isDatabaseBusy, isDatabaseUnreachable, RETRY_AFTER_SECONDS } from './db/database-unavailable.js';
import { isUniqueViolation } from './db/unique-violation.js';
import { ApiError, errors } from './errors.js';
import { keepRawBody } from './http/raw-body.js';
import { registerCompression } from './http/compression.js';
import { CORS_HEADERS, echoAllowedOrigin } from './http/cors.js';
import { dispatch, requestLanguage } from './http/dispatch.js';
import { envelopeOf, sendEnvelope } from './http/envelope.js';
import { cookieLanguage, loadFirstPainter, withFirstPaint, withSiteName } from './http/first-paint.js';
import { pageHtml, pagePath, standalonePageAt } from './http/page-preload.js';
import { registerIconSprites } from './http/icon-sprites.js';
import { registerHealth } from './http/health.js';
import { registerMetrics } from './metrics.js';
import { createRequestGuards } from './http/request-guards.js';
import { LOG_REDACTED_PATHS, redactedUrl } from './http/log-redaction.js';
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.js';
import { adminApiBase, DEFAULT_LANGUAGE } from '../contract/headers.js';
import { fileOfUrl, STORAGE_URL_PREFIX } from './uploads/storage.js';

interface AppOptions {
  /** built client (index.html + assets); the SPA is not served when absent */
  clientDir?: string;
  /** the request log (`LOG_REQUESTS`): true writes it to standard output, a stream receives its lines instead */
  logger?: boolean | RequestLogStream;
}

export interface RequestLogStream {
  write(line: string): void;
}

/** A request as the request log shows it: the address with the secrets of its query masked (`?batoken=***`). */
function requestForLog(request: FastifyRequest) {
  return { method: request.method, url: redactedUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

/** JSON and urlencoded bodies at most this long. */
const JSON_BODY_LIMIT = 1024 * 1024;

/** Fastify's own client errors, answered with our messages. */
const FRAMEWORK_ERRORS: Readonly<Record<string, () => ApiError>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: errors.invalidBody,
  FST_ERR_CTP_EMPTY_JSON_BODY: errors.invalidBody,
  FST_ERR_CTP_BODY_TOO_LARGE: errors.bodyTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errors.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: errors.parameterError,
};

/**
 * The headers a middleware that only sets fixed headers sets and removes, read once by running it on a
 * stand-in response; every request then gets them without the middleware's chain of calls. Fails at
 * start-up if the middleware does anything else (reads the request, answers, defers, fails).
 */
function fixedHeaders(middleware: (request: never, response: never, next: (error?: unknown) => void) => void): { set: [string, string | string[]][]; removed: string[] } {
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

/** The HTTP server: API areas on the BuildAdmin contract, the SPA, and static assets. */
export async function buildApp(app: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const server = Fastify({
    logger: options.logger
      ? { level: 'info', serializers: { req: requestForLog }, redact: { paths: LOG_REDACTED_PATHS, censor: '***' }, ...(typeof options.logger === 'object' ? { stream: options.logger } : {}) }
      : false,
    genReqId: requestIdOf,
    requestIdHeader: false,
    routerOptions: { querystringParser: (text: string) => parseQuery(text), caseSensitive: true, ignoreTrailingSlash: true },
    // JSON and form bodies: a form never needs more; uploads are read by multipart with their own limit.
    bodyLimit: JSON_BODY_LIMIT,
    // Whose X-Forwarded-For to believe for the client address (logs, throttle, blacklist).
    trustProxy: app.settings.trustProxy,
    // Malformed URLs and headers are the client's mistake: answer with the envelope, not a bare 400.
    frameworkErrors: (_error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      const { t } = requestLanguage(app, request);
      sendEnvelope(reply, envelopeOf(errors.parameterError(), t, Math.floor(Date.now() / 1000)));
    },
    // Errors before a request is parsed (an oversize URL or header block, a garbled request line): the
    // envelope too, in the default language, since no header could be read.
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return socket.destroy(error);
      const [status, outcome] = error.code === 'HPE_HEADER_OVERFLOW' ? [431, errors.headersTooLarge()] : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, errors.requestTimeout()] : [400, errors.parameterError()];
      const body = JSON.stringify(envelopeOf(outcome, app.messages.translator(DEFAULT_LANGUAGE), Math.floor(Date.now() / 1000)));
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
  });

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
  const everyAnswer: Record<string, string | string[]> = { ...Object.fromEntries(securityHeaderList.set.map(([name, value]) => [name.toLowerCase(), value])), ...CORS_HEADERS };
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
  registerCompression(server);
  registerMetrics(server, app);

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

  server.setErrorHandler((error: FastifyError, request, reply) => {
    const { t } = requestLanguage(app, request);
    const time = Math.floor(Date.now() / 1000);
    if (error instanceof ApiError) return sendEnvelope(reply, envelopeOf(error, t, time));
    if (isUniqueViolation(error)) return sendEnvelope(reply, envelopeOf(errors.duplicateData(), t, time));
    if (isDatabaseBusy(error)) {
      request.log.error({ err: error }, 'database busy');
      return sendEnvelope(reply.header('retry-after', String(RETRY_AFTER_SECONDS)), envelopeOf(errors.databaseBusy(), t, time), 503);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Unparseable bodies, wrong content types, oversize payloads: the client's mistake, a handled answer.
      const answer = FRAMEWORK_ERRORS[error.code]?.() ?? errors.parameterError();
      return sendEnvelope(reply, envelopeOf(answer, t, time));
    }
    // After the client's mistakes: a request the client broke off may fail with a socket error too.
    if (isDatabaseUnreachable(error)) {
      request.log.error({ err: error }, 'database unreachable');
      return sendEnvelope(reply.header('retry-after', String(RETRY_AFTER_SECONDS)), envelopeOf(errors.databaseUnreachable(), t, time), 503);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendEnvelope(reply, envelopeOf(errors.internalError(request.id), t, time), 500);
  });

  const entrance = adminApiBase(app.settings.adminEntrance);
  const guard = createRequestGuards(app);
  const apiHandler = (area: 'admin' | 'user') => async (request: FastifyRequest, reply: FastifyReply) => (await guard(request, reply)) ?? dispatch(app, area, request, reply);
  const methods = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] as const;
  for (const prefix of [entrance, `/index.php${entrance}`]) {
    server.route({ method: [...methods], url: `${prefix}/:controller/:action`, handler: apiHandler('admin') });
    server.route({ method: [...methods], url: `${prefix}/:controller`, handler: apiHandler('admin') });
  }
  // BuildAdmin's client builds the file-icon `<img>` URL and the terminal's event stream on the entrance
  // itself, without `.php` (`/chidaoadminstator/ajax/buildSuffixSvg?batoken=…&suffix=zip`,
  // `/chidaoadminstator/ajax/terminal?command=…`); only these calls are answered there, every other path
  // under the entrance stays the client's.
  server.route({ method: 'GET', url: `${app.settings.adminEntrance}/:controller(^ajax$)/:action(^(buildSuffixSvg|terminal)$)`, handler: apiHandler('admin') });
  for (const prefix of ['/api', '/index.php/api']) {
    server.route({ method: [...methods], url: `${prefix}/:controller/:action/:argument`, handler: apiHandler('user') });
    server.route({ method: [...methods], url: `${prefix}/:controller/:action`, handler: apiHandler('user') });
    server.route({ method: [...methods], url: `${prefix}/:controller`, handler: apiHandler('user') });
  }

  registerIconSprites(server, app);
  registerHealth(server, app);

  // Beside the server's code: src/server/assets, or dist/server/assets in the bundle (scripts/build.js copies it).
  const avatar = readFileSync(new URL('./assets/avatar.png', import.meta.url));
  server.get('/static/images/avatar.png', (_request, reply) => reply.header('cache-control', 'public, max-age=86400').type('image/png').send(avatar));

  // Uploaded files, read-only: plain files inside the storage directory only (no listing, no dot paths).
  const storageDir = resolve(app.settings.storageDir);
  mkdirSync(storageDir, { recursive: true });
  await server.register(fastifyStatic, {
    root: storageDir,
    prefix: STORAGE_URL_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    maxAge: '1d',
    allowedPath: (pathname) => {
      const file = fileOfUrl(storageDir, `${STORAGE_URL_PREFIX}${pathname.replace(/^\/+/, '')}`);
      try {
        return file !== undefined && statSync(file).isFile();
      } catch {
        return false;
      }
    },
    setHeaders: (response) => response.setHeader('x-content-type-options', 'nosniff'),
  });

  const clientDir = options.clientDir;
  const indexHtml = clientDir && existsSync(join(clientDir, 'index.html')) ? readFileSync(join(clientDir, 'index.html')) : undefined;
  const htmlFor = clientDir && indexHtml ? pageHtml(clientDir, indexHtml) : undefined;
  const firstPaint = clientDir && indexHtml ? await loadFirstPainter(clientDir, (error) => server.log.error(error)) : undefined;
  if (clientDir && indexHtml) {
    // Hashed file names: a file never changes, so browsers keep it a year without asking again. The
    // build wrote each text asset beside itself as `.br` and `.gz`; the one the browser accepts is sent.
    await server.register(fastifyStatic, {
      root: join(clientDir, 'assets'),
      prefix: '/assets/',
      immutable: true,
      maxAge: '1y',
      preCompressed: true,
      setHeaders: (response) => response.setHeader('vary', 'accept-encoding'),
    });
  }

  const apiPrefixes = [`${entrance}/`, '/api/', '/index.php/', STORAGE_URL_PREFIX];
  server.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = apiPrefixes.some((prefix) => path.startsWith(prefix));
    if (!isApi && htmlFor && (request.method === 'GET' || request.method === 'HEAD')) {
      // SPA routes (/, /chidaoadminstator/..., /user/..., /404 ...) are resolved by the client router.
      // The page is in the language of the browser's cookie, else of its Accept-Language: caches keep one answer per both.
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'cookie, accept-language');
      const language = cookieLanguage(request);
      // the page is answered without the name when the database cannot say it (the page's code asks again)
      const named = app.config.get('site_name').then((name) => String(name ?? ''), () => '');
      return named.then(async (siteName) => {
        const html = withSiteName(htmlFor(path, language).toString('utf8'), siteName);
        const page = firstPaint && standalonePageAt(path);
        if (!page || !firstPaint) return reply.send(html);
        const mark = request.url.indexOf('?');
        const view = await firstPaint(page, pagePath(path), mark < 0 ? '' : request.url.slice(mark), language, siteName);
        return reply.send(view ? withFirstPaint(html, view, language) : html);
      });
    }
    const { t } = requestLanguage(app, request);
    return sendEnvelope(reply, envelopeOf(errors.notFound(path), t, Math.floor(Date.now() / 1000)), 404);
  });

  return server;
}
