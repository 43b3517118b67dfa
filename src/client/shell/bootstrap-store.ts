import { useSyncExternalStore } from 'react';

/**
 * What an area keeps of its bootstrap call (the back office's `GET /admin/Index/index`, the member
 * centre's `GET /api/index/index`) once the loading route has fetched it: the menus drive the routes
 * and navigation, the rest the title and the signed-in person's name. A module-level store, because
 * `<Admin>`'s children (routes, resources) are computed from it above the router context where the
 * loading route fetches it.
 */
interface BootstrapStore<T> {
  get(): T | undefined;
  /** Replace what is kept (`undefined`: nothing, as after signing out). */
  set(next: T | undefined): T | undefined;
  /** Change what is kept, when something is (a profile page renaming the signed-in person). */
  update(change: (current: T) => T): void;
  /** Fetch again through the area's bootstrap call and keep the answer: the loading route, a schema that changed. */
  reload(): Promise<T>;
  /** The kept value in a component, redrawn when it changes (a hook). */
  use(): T | undefined;
}

export function createBootstrapStore<T>(load: () => Promise<T>): BootstrapStore<T> {
  const listeners = new Set<() => void>();
  let state: T | undefined;
  const get = () => state;
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const set = (next: T | undefined) => {
    state = next;
    for (const listener of listeners) listener();
    return state;
  };
  return {
    get,
    set,
    update: (change) => {
      if (state !== undefined) set(change(state));
    },
    reload: async () => {
      const next = await load();
      set(next);
      return next;
    },
    use: () => useSyncExternalStore(subscribe, get, get),
  };
}
