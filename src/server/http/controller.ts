import type { Controller, Controllers } from '../app-context.js';
import type { Area } from '../auth/identity.js';

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
  const nodes: readonly string[] = key === undefined ? [action] : (controller.permissions?.[key] ?? []);
  const readers = lowered === 'index' ? (controller.indexReaders ?? []) : [];
  return [...nodes, ...readers].map((node) => (node.includes('/') ? node : `${controller.path}/${node}`));
}

/** Controllers of both areas, found case-insensitively by URL segment. */
export class ControllerRegistry implements Controllers {
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
