import type { ComponentType, ReactElement } from 'react';
import { Admin, CustomRoutes, Loading, type AuthProvider, type DataProvider, type LayoutComponent, type Store } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import type { AppI18nProvider } from '../providers/i18n-provider.js';
import { IframePage } from './IframePage.js';
import { useLayout } from './layout-store.js';
import { useMessageFiles } from './RouteMessages.js';
import { shellDarkTheme, shellLightTheme } from './theme.js';

interface AreaAppProps {
  /** the area's route base: `/chidaoadminstator`, `/user` */
  base: string;
  authProvider: AuthProvider;
  dataProvider: DataProvider;
  i18nProvider: AppI18nProvider;
  /** the area's own react-admin store (its own localStorage keys) */
  store: Store;
  /** message files every page of the area uses, loaded before anything shows */
  messageFiles: readonly string[];
  layout: LayoutComponent;
  /** a path no route matches */
  catchAll: ComponentType;
  /** the loading route (`<base>/loading/{to?}`), outside the layout */
  loading: ReactElement;
  /** the pages the bootstrap menus open, inside the layout */
  pages: readonly ReactElement[];
  /** react-admin resources (the back office's schema screens) */
  resources?: readonly ReactElement[];
}

/** react-admin's access-denied route: the standalone no-permission page. */
function AccessDenied() {
  return <Navigate to="/401" replace />;
}

/**
 * One area of the app (the back office, the member centre): a react-admin instance inside the app's
 * data router, on the shared http client, with the area's own providers, store and message files.
 * Its base opens the loading route, which fetches the menus; the pages come from those menus, and an
 * iframe menu item opens inside the layout. Light or dark follows the shared layout settings.
 */
export function AreaApp({ base, authProvider, dataProvider, i18nProvider, store, messageFiles, layout, catchAll, loading, pages, resources = [] }: AreaAppProps) {
  const settings = useLayout();
  const ready = useMessageFiles(i18nProvider, messageFiles);
  if (!ready) return <Loading />;
  return (
    <Admin
      basename={base}
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      store={store}
      layout={layout}
      catchAll={catchAll}
      accessDenied={AccessDenied}
      theme={settings.isDark ? shellDarkTheme : shellLightTheme}
      darkTheme={null}
      disableTelemetry
    >
      <CustomRoutes noLayout>
        <Route path="/" element={<Navigate to={`${base}/loading`} replace />} />
        <Route path="/loading/*" element={loading} />
      </CustomRoutes>
      <CustomRoutes>
        <Route path="/iframe/*" element={<IframePage base={base} />} />
        {pages}
      </CustomRoutes>
      {resources}
    </Admin>
  );
}
