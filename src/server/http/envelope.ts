import type { FastifyReply } from 'fastify';
import { Code } from '../../contract/codes.js';
import type { Envelope } from '../../contract/envelope.js';
import { ApiError, Success } from '../errors.js';
import type { Translate } from '../i18n.js';

/**
 * A refusal's `data` with its error's id as `errorId`: added to an object (or to `null`, which becomes
 * `{errorId}`); a list, as BuildAdmin answers 401 and 409 with `data: []`, stays as BuildAdmin has it, the code
 * telling those apart.
 */
function withErrorId(error: ApiError): unknown {
  const { data, id } = error;
  if (!id || Array.isArray(data)) return data;
  if (data === null || data === undefined) return { errorId: id };
  return typeof data === 'object' ? { ...data, errorId: id } : data;
}

/** An action's outcome as the envelope `{code, msg, time, data}`, always over HTTP 200. */
export function envelopeOf(outcome: unknown, t: Translate, time: number): Envelope {
  if (outcome instanceof ApiError) return { code: outcome.code, msg: t(outcome.msg, outcome.params), time, data: withErrorId(outcome) };
  if (outcome instanceof Success) return { code: outcome.code, msg: outcome.msg ? t(outcome.msg, outcome.params) : '', time, data: outcome.data };
  return { code: Code.success, msg: '', time, data: outcome === undefined ? null : outcome };
}

export function sendEnvelope(reply: FastifyReply, envelope: Envelope, status = 200): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(envelope));
}
