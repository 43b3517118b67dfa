import type { FastifyReply, FastifyRequest } from 'fastify';
import { Header, SCHEMA_REVISION_HEADER } from '../../contract/headers.js';
import type { Row } from '../../schema/definition.js';
import { AREA_AUTH, allowsComputed, identityOfToken, type Area, type Identity } from '../auth/identity.js';
import type { AppContext, RequestContext } from '../app-context.js';
import { needsLogin, nodesOf } from './controller.js';
import { ApiError, errors } from '../errors.js';
import { detectLanguage } from '../i18n.js';
import { writeAdminLog, shouldLog } from './admin-log.js';
import { envelopeOf, sendEnvelope } from './envelope.js';
import { nameRoute } from './route-names.js';

/** Where each area looks for its token, first non-empty wins (docs/wire-contract.md#request-headers). */
const TOKEN_SOURCES: Record<Area, { headers: string[]; params: string[] }> = {
  admin: { headers: [Header.adminToken, 'ba-token'], params: ['batoken', 'ba-token', 'ba_token'] },
  user: { headers: ['bausertoken', Header.userToken], params: ['bausertoken', 'ba-user-token', 'ba_user_token'] },
};

export function tokenOf(request: FastifyRequest, area: Area, params: Row): string {
  const sources = TOKEN_SOURCES[area];
  for (const name of sources.headers) {
    const value = request.headers[name];
    if (typeof value === 'string' && value) return value;
  }
  for (const name of sources.params) {
    const value = params[name];
    if (typeof value === 'string' && value) return value;
  }
  return '';
}

function asRow(value: unknown): Row {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {};
}

/** Whether a NUL character hides in the request's keys or texts (PostgreSQL cannot store one; no form sends one). */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 8) return false;
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}

/** The request language and a translator, available before routing so 404s are translated too. */
export function requestLanguage(app: AppContext, request: FastifyRequest) {
  const query = asRow(request.query);
  const lang = detectLanguage(request.headers[Header.lang], query.lang, request.headers['accept-language']);
  return { lang, t: app.messages.translator(lang) };
}

/**
 * The GET throttle (`request-guards.ts`): counts one API request against the budget of `client`
 * (`throttleClient`). Returns the reply when the request was refused, nothing when it may go on (with the
 * X-Rate-Limit headers set on the reply).
 */
export type GetThrottle = (request: FastifyRequest, reply: FastifyReply, client: string) => FastifyReply | undefined;

/**
 * Whose budget a GET spends: a signed-in admin's or member's own (so people behind one shared address, an
 * office or a carrier's NAT, do not spend each other's), or the client address when the request carries no
 * valid token of its area (none, expired, unknown or forged, a disabled account), so that a made-up token
 * never buys a fresh budget.
 */
function throttleClient(request: { area: Area; identity?: Identity; ip: string }): string {
  return request.identity ? `${request.identity.area}:${request.identity.id}` : `ip:${request.ip}`;
}

/**
 * One API request: find the controller and action, authenticate, count it against the GET throttle (its
 * account's budget or its address's, `throttleClient`), check the permission node, run the action, answer with
 * the envelope, then write the admin log.
 */
export async function dispatch(live: AppContext, area: Area, request: FastifyRequest, reply: FastifyReply, throttle: GetThrottle): Promise<FastifyReply> {
  // The schemas as they stand now: a change made while this request runs does not reach it.
  const app: AppContext = { ...live };
  const time = Math.floor(Date.now() / 1000);
  const { lang, t } = requestLanguage(app, request);
  const { controller: segment, action: rawAction, argument } = request.params as { controller: string; action?: string; argument?: string };
  const action = (rawAction ?? 'index').replace(/\.html$/i, '').toLowerCase();
  const controller = app.controllers.find(area, segment);
  const handler = controller?.actions[action];
  if (!controller || !handler) {
    // no action to sign in to: the address pays for it
    if (throttle(request, reply, throttleClient({ area, ip: request.ip }))) return reply;
    return sendEnvelope(reply, envelopeOf(errors.notFound(request.url.split('?')[0]), t, time), 404);
  }
  if (app.metrics) nameRoute(request, area, controller.name, action);
  const query = asRow(request.query);
  const body = asRow(request.body);
  const params = { ...query, ...body };
  const ctx: RequestContext = {
    app, area, lang, t,
    method: request.method,
    query, body, params,
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
    token: tokenOf(request, area, params),
    tokenExpired: false,
    controller, action, argument, request, reply,
  };

  // the token is verified before anything else, so the throttle knows whose budget the request spends
  await authenticate(ctx);
  if (throttle(request, reply, throttleClient(ctx))) return reply;
  // a signed-in admin's client follows schema changes from this, rather than asking on a timer
  if (area === 'admin' && ctx.identity) reply.header(SCHEMA_REVISION_HEADER, String(app.schemas.revisionOf(app.resources)));

  let outcome: unknown;
  try {
    if (containsNul(params)) throw errors.invalidCharacter();
    if (needsLogin(controller, action)) {
      if (ctx.tokenExpired) throw errors.tokenExpired();
      const identity = ctx.identity;
      if (!identity) throw errors.needLogin();
      // an action checks its own node, or the nodes its controller names for it (any one of them admits)
      const nodes = nodesOf(controller, action);
      if (nodes.length > 0 && !nodes.some((node) => allowsComputed(identity, node))) throw errors.noPermission();
    }
    outcome = await handler(ctx);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    outcome = error;
  }
  if (shouldLog(ctx, outcome)) {
    await writeAdminLog(ctx).catch((error: unknown) => request.log.error({ err: error }, 'admin log failed'));
  }
  if (reply.sent) return reply;
  return sendEnvelope(reply, envelopeOf(outcome, t, time));
}

/** Resolve the token of the area: expired → flag; valid and of this area → identity. */
async function authenticate(ctx: RequestContext): Promise<void> {
  if (!ctx.token || ctx.token.length > 100) return;
  const found = await identityOfToken(ctx.app.db, ctx.app.identities, AREA_AUTH[ctx.area], ctx.app.tokens.digest(ctx.token));
  if (found?.expired) ctx.tokenExpired = true;
  else ctx.identity = found?.identity;
}
