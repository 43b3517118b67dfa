import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';

/**
 * A component whose code is its own chunk, fetched the first time it is drawn: what a screen shows
 * only on demand (a details panel, a row's extra button, a form input) stays off the path of the
 * screens that never draw it. Until the code is in, `fallback` shows (nothing, unless given).
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  const Component = (props: P) => (
    <Suspense fallback={fallback}>
      <Loaded {...props} />
    </Suspense>
  );
  return Component;
}
