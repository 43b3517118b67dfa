import { useMemo, type ComponentType, type ReactElement, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { CssBaseline } from '@mui/material';
import {
  AuthenticationError,
  CoreAdminContext,
  CoreAdminUI,
  CustomRoutes,
  Error as ErrorPage,
  Loading,
  LoadingPage,
  Notification,
  ThemeProvider,
  ThemesContext,
  type AuthProvider,
  type DataProvider,
  type LayoutComponent,
  type RaThemeOptions,
  type Store,
} from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import type { AppI18nProvider } from '../providers/i18n-provider.js';
import { reactRouterProvider } from '../shims/ra-router-adapter.js';
import { IframePage } from './IframePage.js';
import { useLayout } from './layout-store.js';
import { useMessageFiles } from './RouteMessages.js';
import { shellDarkTheme, shellLightTheme } from './theme.js';

/** What sets one area apart; fixed while the app runs. */
export interface Area {
  /** the area's route base: `/chidaoadminstator`, `/user` */
  base: string;
  /**
   * handed to react-admin as they are: the area's providers, its own store (its own localStorage keys),
   * its layout and the page for a path no route matches; its query cache when the area fills it ahead
   * (else react-admin makes one)
   */
  admin: { authProvider: AuthProvider; dataProvider: DataProvider; i18nProvider: AppI18nProvider; store: Store; queryClient?: QueryClient; layout: LayoutComponent; catchAll: ComponentType };
  /** message files every page of the area uses, loaded before anything shows */
  messageFiles: readonly string[];
  /** the loading route (`<base>/loading/{to?}`), outside the layout */
  loading: ReactElement;
}

interface AreaAppProps {
  area: Area;
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
 * What react-admin's `<Admin>` puts together (its contexts, the theme, the baseline styles, the routes
 * and the notifications), with the pages an area draws and nothing else: `<Admin>` also brings its own
 * layout, app bar, sidebar, login and 404 pages as defaults, which the areas replace or never show (the
 * login pages are the app's own routes), and which would otherwise be downloaded with every area.
 */
function AreaAdmin({ base, admin, theme, children }: { base: string; admin: Area['admin']; theme: RaThemeOptions; children: ReactNode }) {
  const { authProvider, dataProvider, i18nProvider, store, queryClient, layout, catchAll } = admin;
  const themes = useMemo(() => ({ lightTheme: theme }), [theme]);
  return (
    // The app's router adapter, named here too: the build puts it in place of react-admin's own
    // (vite.config.ts), the tests, which load react-admin unbundled, only get it this way.
    <CoreAdminContext
      basename={base}
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      store={store}
      queryClient={queryClient}
      routerProvider={reactRouterProvider}
    >
      <ThemesContext.Provider value={themes}>
        <ThemeProvider>
          <CssBaseline enableColorScheme>
            <CoreAdminUI
              layout={layout}
              catchAll={catchAll}
              accessDenied={AccessDenied}
              authenticationError={AuthenticationError}
              error={ErrorPage}
              loading={LoadingPage}
              disableTelemetry
            >
              {children}
            </CoreAdminUI>
            <Notification />
          </CssBaseline>
        </ThemeProvider>
      </ThemesContext.Provider>
    </CoreAdminContext>
  );
}

/**
 * One area of the app (the back office, the member centre): a react-admin instance inside the app's
 * data router, on the shared http client, with the area's own providers, store and message files.
 * Its base opens the loading route, which fetches the menus; the pages come from those menus, and an
 * iframe menu item opens inside the layout. Light or dark follows the shared layout settings.
 */
export function AreaApp({ area: { base, admin, messageFiles, loading }, pages, resources = [] }: AreaAppProps) {
  const settings = useLayout();
  const ready = useMessageFiles(admin.i18nProvider, messageFiles);
  if (!ready) return <Loading />;
  return (
    <AreaAdmin base={base} admin={admin} theme={settings.isDark ? shellDarkTheme : shellLightTheme}>
      <CustomRoutes noLayout>
        <Route path="/" element={<Navigate to={`${base}/loading`} replace />} />
        <Route path="/loading/*" element={loading} />
      </CustomRoutes>
      <CustomRoutes>
        <Route path="/iframe/*" element={<IframePage base={base} />} />
        {pages}
      </CustomRoutes>
      {resources}
    </AreaAdmin>
  );
}
