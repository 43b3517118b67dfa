import { getShellState, reloadShell, type ShellBootstrap } from './bootstrap-store.js';

/**
 * The open back office follows schema changes made elsewhere (another admin's generate in the CRUD
 * designer, another process): when the server serves a schema revision past the one its menus came
 * with, it loads the menus and definitions again and redraws — the new module's menu and screen appear
 * with no reload. Every answer to the admin carries the revision (a header, docs/wire-contract.md#schema-revision),
 * so an admin at work spends no request on it; only a page that has heard nothing for a while (visible,
 * idle) asks `schemaRevision`, which the GET throttle counts like any read.
 */
export const SCHEMA_REVISION_PATH = '/admin/Index/schemaRevision';

/** Two seconds without an answer before asking: with the server's own one-second poll, a change shows within 5 s. */
const SCHEMA_REVISION_POLL_MS = 2000;

interface SchemaRevisionFollower {
  /** the server's revision (a failure is ignored: the next look tries again) */
  ask(): Promise<number>;
  /** `Index/index` again */
  load(): Promise<ShellBootstrap>;
  /** calls `heard` with the revision each answer carries; returns a function that stops */
  listen(heard: (revision: number) => void): () => void;
  /** whether to look now (default: the page is visible) */
  active?(): boolean;
  pollMs?: number;
  now?(): number;
}

/** Start following; returns a function that stops. */
export function followSchemaRevision({ ask, load, listen, active = () => document.visibilityState === 'visible', pollMs = SCHEMA_REVISION_POLL_MS, now = Date.now }: SchemaRevisionFollower): () => void {
  let busy = false;
  let heardAt = now();
  const follow = async (revision: () => Promise<number> | number) => {
    const known = getShellState()?.schemaRevision;
    // A shell not loaded yet, or from a server that reports no revision, has nothing to follow.
    if (busy || known === undefined) return;
    busy = true;
    try {
      // Behind a load balancer one process may lag another by a second: only a newer revision counts.
      if ((await revision()) > known) await reloadShell(load);
    } catch {
      // offline, signed out, or the server restarting: the next look tries again
    } finally {
      busy = false;
    }
  };
  const stopListening = listen((revision) => {
    heardAt = now();
    void follow(() => revision);
  });
  // Looked at twice as often as asked: a page asks once it has heard nothing for `pollMs`.
  const timer = window.setInterval(() => {
    if (active() && now() - heardAt >= pollMs) void follow(ask);
  }, pollMs / 2);
  return () => {
    stopListening();
    window.clearInterval(timer);
  };
}
