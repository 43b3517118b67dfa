import { useEffect, useState, type ReactNode } from 'react';
import { Loading, useI18nProvider } from 'react-admin';
import type { AppI18nProvider } from '../providers/i18n-provider.js';

/**
 * Whether `names` (message files below `locales/<lang>/`, e.g. `admin/dashboard`) have been loaded
 * into `provider`; a failed load counts as done, so the page shows with its fallback texts. A provider
 * without lazy files (tests, other hosts) is ready at once.
 */
export function useMessageFiles(provider: Partial<Pick<AppI18nProvider, 'loadMessages'>>, names: readonly string[]): boolean {
  const key = names.join('|');
  const [loaded, setLoaded] = useState<string | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    const done = () => alive && setLoaded(key);
    if (!provider.loadMessages) done();
    else provider.loadMessages(key.split('|')).then(done, done);
    return () => {
      alive = false;
    };
  }, [provider, key]);
  return loaded === key;
}

interface RouteMessagesProps {
  /** message files below `locales/<lang>/`, e.g. `admin/dashboard` */
  names: readonly string[];
  children: ReactNode;
}

/**
 * Loads a page's own message files before rendering it (docs/architecture.md#the-client: language files per route), so
 * a page's strings reach the browser only when somebody opens that page.
 */
export function RouteMessages({ names, children }: RouteMessagesProps) {
  const ready = useMessageFiles(useI18nProvider() as Partial<AppI18nProvider>, names);
  return ready ? children : <Loading />;
}
