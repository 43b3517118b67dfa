import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { adminApiBase } from '../../contract/headers.js';
import type { AppContext } from '../app-context.js';
import { dispatch } from './dispatch.js';
import { createRequestGuards } from './request-guards.js';

/** The two API areas of the BuildAdmin contract: the admin's under its entrance, the member's under `/api`. */
export function registerApiRoutes(server: FastifyInstance, app: AppContext): void {
  const entrance = adminApiBase(app.settings.adminEntrance);
  const guards = createRequestGuards(app);
  const apiHandler = (area: 'admin' | 'user') => async (request: FastifyRequest, reply: FastifyReply) =>
    (await guards.blacklist(request, reply)) ?? dispatch(app, area, request, reply, guards.throttle);
  const methods = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'] as const;
  for (const prefix of [entrance, `/index.php${entrance}`]) {
    server.route({ method: [...methods], url: `${prefix}/:controller/:action`, handler: apiHandler('admin') });
    server.route({ method: [...methods], url: `${prefix}/:controller`, handler: apiHandler('admin') });
  }
  // BuildAdmin's client builds the file-icon `<img>` URL and the terminal's event stream on the entrance
  // itself, without `.php` (`/chidaoadminstator/ajax/buildSuffixSvg?batoken=…&suffix=zip`,
  // `/chidaoadminstator/ajax/terminal?command=…`); only these calls are answered there, every other path
  // under the entrance stays the client's.
  server.route({
    method: 'GET',
    url: `${app.settings.adminEntrance}/:controller(^ajax$)/:action(^(buildSuffixSvg|terminal)$)`,
    handler: apiHandler('admin'),
  });
  for (const prefix of ['/api', '/index.php/api']) {
    server.route({ method: [...methods], url: `${prefix}/:controller/:action/:argument`, handler: apiHandler('user') });
    server.route({ method: [...methods], url: `${prefix}/:controller/:action`, handler: apiHandler('user') });
    server.route({ method: [...methods], url: `${prefix}/:controller`, handler: apiHandler('user') });
  }
}
