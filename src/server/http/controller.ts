import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Language } from '../../contract/headers.js';
import type { ResourceDefinition, Row } from '../../schema/definition.js';
import type { Area, Identity } from '../auth/identity.js';
import type { AppContext } from '../app-context.js';
import type { Translate } from '../i18n.js';
import type { ResourceHooks } from '../resources/hooks.js';

/** Everything an action needs about the request it serves. */
export interface RequestContext {
  app: AppContext;
  area: Area;
  lang: Language;
  t: Translate;
  method: string;
  query: Row;
  body: Row;
  /** query and body merged, body winning (ThinkPHP's `param()`) */
  params: Row;
  ip: string;
  userAgent: string;
  /** the access token sent for this area, '' when none */
  token: string;
  tokenExpired: boolean;
  identity?: Identity;
  controller: Controller;
  action: string;
  /** a path segment after the action (`/api/survey/callback/<provider code>`) */
  argument?: string;
  /** set by an action to give its admin-log row an explicit title */
  logTitle?: string;
  /** set by an action: request names whose values are secrets by their type (password config items), masked in the admin log */
  logSecrets?: readonly string[];
  request: FastifyRequest;
  reply: FastifyReply;
}

/** An action returns its `data`, or a `Success` carrying a message, or throws an `ApiError`. */
export type Action = (ctx: RequestContext) => Promise<unknown>;

export interface Controller {
  /** canonical URL segment, e.g. `auth.Admin` */
  name: string;
  /** permission path, e.g. `auth/admin` */
  path: string;
  area: Area;
  /** keyed by lower-cased action name */
  actions: Record<string, Action>;
  /** lower-cased action names, or `*` */
  noNeedLogin: string[];
  noNeedPermission: string[];
  resource?: ResourceDefinition;
  /** the resource's hooks (controllers generated from a schema) */
  hooks?: ResourceHooks;
}

export function needsLogin(controller: Controller, action: string): boolean {
  return !controller.noNeedLogin.includes('*') && !controller.noNeedLogin.includes(action);
}

export function needsPermission(controller: Controller, action: string): boolean {
  return !controller.noNeedPermission.includes('*') && !controller.noNeedPermission.includes(action);
}

/** Controllers of both areas, found case-insensitively by URL segment. */
export class ControllerRegistry {
  private readonly byArea = new Map<Area, Map<string, Controller>>([
    ['admin', new Map()],
    ['user', new Map()],
  ]);

  register(controller: Controller): void {
    const lowered: Controller = {
      ...controller,
      actions: Object.fromEntries(Object.entries(controller.actions).map(([name, action]) => [name.toLowerCase(), action])),
      noNeedLogin: controller.noNeedLogin.map((name) => name.toLowerCase()),
      noNeedPermission: controller.noNeedPermission.map((name) => name.toLowerCase()),
    };
    this.byArea.get(controller.area)?.set(controller.name.toLowerCase(), lowered);
  }

  find(area: Area, segment: string): Controller | undefined {
    return this.byArea.get(area)?.get(segment.toLowerCase());
  }

  /** The controller generated from a schema, by `$id`. */
  forResource(id: string): Controller | undefined {
    for (const controllers of this.byArea.values()) {
      for (const controller of controllers.values()) if (controller.resource?.id === id) return controller;
    }
    return undefined;
  }

  all(area: Area): Controller[] {
    return [...(this.byArea.get(area)?.values() ?? [])];
  }
}
