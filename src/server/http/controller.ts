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
  /**
   * Actions that check other nodes than their own, by action name (found case-insensitively): the nodes
   * any one of which lets the caller in. A name without `/` is a node of this controller (`index`), one
   * with `/` a whole node (`crud/crud/index`).
   */
  permissions?: Record<string, string[]>;
  resource?: ResourceDefinition;
  /** the resource's hooks (controllers generated from a schema) */
  hooks?: ResourceHooks;
}

export function needsLogin(controller: Controller, action: string): boolean {
  return !controller.noNeedLogin.includes('*') && !controller.noNeedLogin.includes(action);
}

function needsPermission(controller: Controller, action: string): boolean {
  return !controller.noNeedPermission.includes('*') && !controller.noNeedPermission.includes(action);
}

/**
 * The permission nodes an action checks, as the code spells them (`routine/config/sendTestMail`): its own
 * `<path>/<action>` unless the controller names others for it; none when it needs no login or no permission.
 */
export function nodesOf(controller: Controller, action: string): string[] {
  const lowered = action.toLowerCase();
  if (!needsLogin(controller, lowered) || !needsPermission(controller, lowered)) return [];
  const key = Object.keys(controller.permissions ?? {}).find((name) => name.toLowerCase() === lowered);
  const nodes = key === undefined ? [action] : (controller.permissions?.[key] ?? []);
  return nodes.map((node) => (node.includes('/') ? node : `${controller.path}/${node}`));
}

/** Controllers of both areas, found case-insensitively by URL segment. */
export class ControllerRegistry {
  private readonly byArea = new Map<Area, Map<string, Controller>>([
    ['admin', new Map()],
    ['user', new Map()],
  ]);

  private readonly nodes = new Map<Area, Set<string>>([
    ['admin', new Set()],
    ['user', new Set()],
  ]);

  register(controller: Controller): void {
    const lowered: Controller = {
      ...controller,
      actions: Object.fromEntries(Object.entries(controller.actions).map(([name, action]) => [name.toLowerCase(), action])),
      noNeedLogin: controller.noNeedLogin.map((name) => name.toLowerCase()),
      noNeedPermission: controller.noNeedPermission.map((name) => name.toLowerCase()),
    };
    const checked = this.nodes.get(controller.area);
    for (const action of Object.keys(controller.actions)) for (const node of nodesOf(lowered, action)) checked?.add(node);
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

  /** Every permission node the area's actions check, as the code spells them: each needs a rule to be granted. */
  permissionNodes(area: Area): string[] {
    return [...(this.nodes.get(area) ?? [])];
  }

  all(area: Area): Controller[] {
    return [...(this.byArea.get(area)?.values() ?? [])];
  }
}
