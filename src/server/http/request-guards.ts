import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { requestLanguage } from './dispatch.js';
import { IpBlacklist } from './ip-blacklist.js';
import { RateLimiter } from './rate-limit.js';

/**
 * What runs before any API controller: the GET throttle (docs/wire-contract.md#get-throttle), then the IP blacklist
 * (docs/wire-contract.md#ip-blacklist). Both answer with BuildAdmin's bare bodies rather than the envelope. Returns the reply when
 * the request was refused, nothing when it may go on.
 */
export function createRequestGuards(app: AppContext): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined> {
  const limiter = new RateLimiter(app.settings.apiGetRateLimit);
  const blacklist = new IpBlacklist();

  return async (request, reply) => {
    if (limiter.enabled && (request.method === 'GET' || request.method === 'HEAD')) {
      const verdict = limiter.hit(request.ip);
      if (!verdict.allowed) {
        const refusal = errors.tooManyRequests(verdict.resetInSeconds);
        const { t } = requestLanguage(app, request);
        return reply
          .header('retry-after', String(verdict.resetInSeconds))
          .header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify({ code: refusal.code, msg: t(refusal.msg, refusal.params) }));
      }
      reply.header('x-rate-limit-limit', String(verdict.limit));
      reply.header('x-rate-limit-remaining', String(verdict.remaining));
      reply.header('x-rate-limit-reset', String(Math.floor(Date.now() / 1000) + verdict.resetInSeconds));
    }
    if (blacklist.matches((await app.config.get('no_access_ip')).trim(), request.ip)) {
      const { t } = requestLanguage(app, request);
      return reply.code(403).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ msg: t(errors.ipBlocked().msg) }));
    }
    return undefined;
  };
}
