import type { FastifyRequest } from 'fastify';

/** The action each API request ran, named by `dispatch`: the metrics' label of its route (`metrics.ts`). */
const routeNames = new WeakMap<FastifyRequest, string>();

/** Names the route of an API request as its metrics label: the area, the controller and the action. */
export function nameRoute(request: FastifyRequest, area: string, controller: string, action: string): void {
  routeNames.set(request, `${area}:${controller}/${action}`);
}

/** The name `nameRoute` gave the request, if it reached an action. */
export function routeNameOf(request: FastifyRequest): string | undefined {
  return routeNames.get(request);
}
