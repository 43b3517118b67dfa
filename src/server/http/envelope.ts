import type { FastifyReply } from 'fastify';
import { Code } from '../../contract/codes.js';
import type { Envelope } from '../../contract/envelope.js';
import { ApiError, Success } from '../errors.js';
import type { Translate } from '../i18n.js';

/** An action's outcome as the envelope `{code, msg, time, data}`, always over HTTP 200. */
export function envelopeOf(outcome: unknown, t: Translate, time: number): Envelope {
  if (outcome instanceof ApiError) return { code: outcome.code, msg: t(outcome.msg, outcome.params), time, data: outcome.data };
  if (outcome instanceof Success) return { code: outcome.code, msg: outcome.msg ? t(outcome.msg, outcome.params) : '', time, data: outcome.data };
  return { code: Code.success, msg: '', time, data: outcome === undefined ? null : outcome };
}

export function sendEnvelope(reply: FastifyReply, envelope: Envelope, status = 200): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(envelope));
}
