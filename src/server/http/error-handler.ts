import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { isDatabaseBusy, isDatabaseUnreachable, RETRY_AFTER_SECONDS } from '../db/database-unavailable.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { ApiError, errors } from '../errors.js';
import { requestLanguage } from './dispatch.js';
import { envelopeOf, sendEnvelope } from './envelope.js';

/** Fastify's own client errors, answered with our messages. */
const FRAMEWORK_ERRORS: Readonly<Record<string, () => ApiError>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: errors.invalidBody,
  FST_ERR_CTP_EMPTY_JSON_BODY: errors.invalidBody,
  FST_ERR_CTP_BODY_TOO_LARGE: errors.bodyTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: errors.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: errors.parameterError,
};

/** Every error a handler throws becomes an envelope: ours as they are, the client's mistakes and database trouble translated, the rest a 500 with the request id and nothing more. */
export function registerErrorHandler(server: FastifyInstance, app: AppContext): void {
  server.setErrorHandler((error: FastifyError, request, reply) => {
    const { t } = requestLanguage(app, request);
    const time = Math.floor(Date.now() / 1000);
    if (error instanceof ApiError) return sendEnvelope(reply, envelopeOf(error, t, time));
    if (isUniqueViolation(error)) return sendEnvelope(reply, envelopeOf(errors.duplicateData(), t, time));
    if (isDatabaseBusy(error)) {
      request.log.error({ err: error }, 'database busy');
      return sendEnvelope(
        reply.header('retry-after', String(RETRY_AFTER_SECONDS)),
        envelopeOf(errors.databaseBusy(), t, time),
        503,
      );
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
      return sendEnvelope(
        reply.header('retry-after', String(RETRY_AFTER_SECONDS)),
        envelopeOf(errors.databaseUnreachable(), t, time),
        503,
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendEnvelope(reply, envelopeOf(errors.internalError(request.id), t, time), 500);
  });
}
