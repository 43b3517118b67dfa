import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { parseQuery } from '../contract/query-string.js';
import type { AppContext } from './app-context.js';
import { errors } from './errors.js';
import { registerApiRoutes } from './http/api-routes.js';
import { JSON_BODY_LIMIT, registerBodyParsers } from './http/body-parsers.js';
import { registerClientPages } from './http/client-pages.js';
import { registerCompression } from './http/compression.js';
import { requestLanguage } from './http/dispatch.js';
import { envelopeOf, sendEnvelope } from './http/envelope.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerHealth } from './http/health.js';
import { registerIconSprites } from './http/icon-sprites.js';
import { LOG_REDACTED_PATHS, redactedUrl } from './http/log-redaction.js';
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerStoredFiles } from './http/stored-files.js';
import { registerMetrics } from './metrics.js';
import { DEFAULT_LANGUAGE } from '../contract/headers.js';

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
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The HTTP server: API areas on the BuildAdmin contract, the SPA, and static assets, each concern registered by its own module under `http/`. */
export async function buildApp(app: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const server = Fastify({
    logger: options.logger
      ? {
          level: 'info',
          serializers: { req: requestForLog },
          redact: { paths: LOG_REDACTED_PATHS, censor: '***' },
          ...(typeof options.logger === 'object' ? { stream: options.logger } : {}),
        }
      : false,
    genReqId: requestIdOf,
    requestIdHeader: false,
    routerOptions: {
      querystringParser: (text: string) => parseQuery(text),
      caseSensitive: true,
      ignoreTrailingSlash: true,
    },
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
      const [status, outcome] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, errors.headersTooLarge()]
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, errors.requestTimeout()]
            : [400, errors.parameterError()];
      const body = JSON.stringify(
        envelopeOf(outcome, app.messages.translator(DEFAULT_LANGUAGE), Math.floor(Date.now() / 1000)),
      );
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });

  registerSecurityHeaders(server, app);
  registerCompression(server);
  registerMetrics(server, app);
  await registerBodyParsers(server);
  registerErrorHandler(server, app);
  registerApiRoutes(server, app);
  registerIconSprites(server, app);
  registerHealth(server, app);
  // Beside the server's code: src/server/assets, or dist/server/assets in the bundle (scripts/build.js copies it).
  await registerStoredFiles(server, app, readFileSync(new URL('./assets/avatar.png', import.meta.url)));
  await registerClientPages(server, app, options.clientDir);
  return server;
}
