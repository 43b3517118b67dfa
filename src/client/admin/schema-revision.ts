import { getShellState, reloadShell, type ShellBootstrap } from './bootstrap-store.js';

/**
 * The open back office follows schema changes made elsewhere (another admin's generate in the CRUD
 * designer, another process): every few seconds, while the page is visible, it asks the server which
 * schema revision it serves; when that moved past the revision its menus came with, it loads the menus
 * and definitions again and redraws — the new module's menu and screen appear with no reload.
 */
export const SCHEMA_REVISION_PATH = '/admin/Index/schemaRevision';

/** Two seconds between looks: with the server's own one-second poll, a change shows within 5 s. */
const SCHEMA_REVISION_POLL_MS = 2000;

interface SchemaRevisionFollower {
  /** the server's revision (a failure is ignored: the next look tries again) */
  ask(): Promise<number>;
  /** `Index/index` again */
  load(): Promise<ShellBootstrap>;
  /** whether to look now (default: the page is visible) */
  active?(): boolean;
  pollMs?: number;
}

/** Start following; returns a function that stops. */
export function followSchemaRevision({ ask, load, active = () => document.visibilityState === 'visible', pollMs = SCHEMA_REVISION_POLL_MS }: SchemaRevisionFollower): () => void {
  let busy = false;
  const look = async () => {
    const known = getShellState()?.schemaRevision;
    // A shell not loaded yet, or from a server that reports no revision, has nothing to follow.
    if (busy || known === undefined || !active()) return;
    busy = true;
    try {
      // Behind a load balancer one process may lag another by a second: only a newer revision counts.
      if ((await ask()) > known) await reloadShell(load);
    } catch {
      // offline, signed out, or the server restarting: the next look tries again
    } finally {
      busy = false;
    }
  };
  const timer = window.setInterval(() => void look(), pollMs);
  return () => window.clearInterval(timer);
}

