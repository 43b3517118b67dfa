import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';

/**
 * This site's origin as the outside world sees it (`https://panel.example.com`): `PUBLIC_URL` when set, else the
 * request's scheme and host, which Fastify takes from `X-Forwarded-Proto` / `X-Forwarded-Host` only when the
 * proxy that sent them is one `TRUST_PROXY` trusts. A provider that signs the whole URL signs this origin.
 */
export function publicOriginOf(app: AppContext, request: FastifyRequest): string {
  return app.settings.publicUrl || `${request.protocol}://${request.host}`;
}
