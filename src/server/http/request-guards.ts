import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { requestLanguage, type GetThrottle } from './dispatch.js';
import { IpBlacklist } from './ip-blacklist.js';
import { RateLimiter } from './rate-limit.js';

interface RequestGuards {
  /** The IP blacklist (docs/wire-contract.md#ip-blacklist), before anything of the request is read. */
  blacklist: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
  /** The GET throttle (docs/wire-contract.md#get-throttle), run by the dispatcher once the token is verified. */
  throttle: GetThrottle;
}

/**
 * What guards the API controllers besides their own checks. Both guards answer with BuildAdmin's bare bodies
 * rather than the envelope.
 */
export function createRequestGuards(app: AppContext): RequestGuards {
  const limiter = new RateLimiter(app.settings.apiGetRateLimit);
  const ipBlacklist = new IpBlacklist();

  return {
    blacklist: async (request, reply) => {
      if (!ipBlacklist.matches((await app.config.get('no_access_ip')).trim(), request.ip)) return undefined;
      const { t } = requestLanguage(app, request);
      return reply.code(403).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ msg: t(errors.ipBlocked().msg) }));
    },
    throttle: (request, reply, client) => {
      if (!limiter.enabled || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
      const verdict = limiter.hit(client);
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
      return undefined;
    },
  };
}
