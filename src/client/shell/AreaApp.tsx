import { useMemo, type ComponentType, type ReactElement, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { CssBaseline } from '@mui/material';
import {
  AuthenticationError,
  CoreAdminContext,
  Loading,
  Resource,
  ResourceDefinitionContext,
  ThemeProvider,
  ThemesContext,
  useScrollToTop,
  type AuthProvider,
  type DataProvider,
  type LayoutComponent,
  type RaThemeOptions,
  type ResourceDefinitions,
  type ResourceProps,
  type Store,
} from 'react-admin';
import { Navigate, Route, Routes } from 'react-router-dom';
import type { AppI18nProvider } from '../providers/i18n-provider.js';
import { reactRouterProvider } from '../shims/ra-router-adapter.js';
import { IframePage } from './IframePage.js';
import { LatestNotification } from './LatestNotification.js';
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
   * (else react-admin makes one); the page react-admin's refusal of a screen opens inside the layout
   * (else the standalone no-permission page)
   */
  admin: { authProvider: AuthProvider; dataProvider: DataProvider; i18nProvider: AppI18nProvider; store: Store; queryClient?: QueryClient; layout: LayoutComponent; catchAll: ComponentType; accessDenied?: ComponentType };
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
  resources?: readonly ReactElement<ResourceProps>[];
}

const NO_RESOURCES: readonly ReactElement<ResourceProps>[] = [];

/** react-admin's access-denied route: the standalone no-permission page. */
function AccessDenied() {
  return <Navigate to="/401" replace />;
}

interface AreaRoutesProps {
  layout: LayoutComponent;
  catchAll: ComponentType;
  accessDenied: ComponentType;
  /** routes drawn without the layout */
  outside: ReactNode;
  /** routes drawn inside the layout */
  inside: ReactNode;
  resources: readonly ReactElement<ResourceProps>[];
}

const ignore = () => undefined;

/**
 * The routes of an area as react-admin's `CoreAdminUI` lays them out (the routes without the layout,
 * then the layout around the pages, the resources, its error routes and the catch-all), with the
 * resources' definitions in their context from the first drawing. react-admin's own router registers
 * them in effects once the area is drawn, and then again because its list of resources is made anew:
 * each registration draws the whole area again, the shell and the first list twice more (about 250 ms
 * on a 2-core machine) before the browser paints the first rows. Here the definitions follow the
 * resources given, so a change of menus still changes them.
 *
 * What `CoreAdminUI` has besides the areas never used: a login page and an auth callback of its own
 * (the app's login pages are its routes), a dashboard, a session check before drawing (off here too:
 * the loading route and the providers see to the session), and an error page around everything (each
 * of the app's routes has its error boundary, router.tsx).
 */
function AreaRoutes({ layout: Layout, catchAll: CatchAll, accessDenied: Denied, outside, inside, resources }: AreaRoutesProps) {
  useScrollToTop();
  const definitions = useMemo(
    () => ({
      definitions: Object.fromEntries(resources.map((resource) => [resource.props.name, Resource.registerResource(resource.props)])) as ResourceDefinitions,
      register: ignore,
      unregister: ignore,
    }),
    [resources],
  );
  return (
    <ResourceDefinitionContext.Provider value={definitions}>
      <Routes>
        {outside}
        <Route
          path="/*"
          element={
            <Layout>
              <Routes>
                {inside}
                {resources.map((resource) => (
                  <Route key={resource.props.name} path={`${resource.props.name}/*`} element={resource} />
                ))}
                <Route path="/authentication-error" element={<AuthenticationError />} />
                <Route path="/access-denied" element={<Denied />} />
                <Route path="*" element={<CatchAll />} />
              </Routes>
            </Layout>
          }
        />
      </Routes>
    </ResourceDefinitionContext.Provider>
  );
}

/**
 * What react-admin's `<Admin>` puts together (its contexts, the theme, the baseline styles and the
 * notifications), around the area's routes and nothing else: `<Admin>` also brings its own
 * layout, app bar, sidebar, login and 404 pages as defaults, which the areas replace or never show (the
 * login pages are the app's own routes), and which would otherwise be downloaded with every area.
 */
function AreaAdmin({ base, admin, theme, children }: { base: string; admin: Area['admin']; theme: RaThemeOptions; children: ReactNode }) {
  const { authProvider, dataProvider, i18nProvider, store, queryClient } = admin;
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
            {children}
            <LatestNotification />
          </CssBaseline>
        </ThemeProvider>
      </ThemesContext.Provider>
    </CoreAdminContext>
  );
}

/**
 * One area of the app (the back office, the member centre): a react-admin instance inside the app's
 * router (react-router's declarative `<Routes>`, not a data router), on the shared http client, with the area's own providers, store and message files.
 * Its base opens the loading route, which fetches the menus; the pages come from those menus, and an
 * iframe menu item opens inside the layout. Light or dark follows the shared layout settings.
 */
export function AreaApp({ area: { base, admin, messageFiles, loading }, pages, resources = NO_RESOURCES }: AreaAppProps) {
  const settings = useLayout();
  const ready = useMessageFiles(admin.i18nProvider, messageFiles);
  if (!ready) return <Loading />;
  return (
    <AreaAdmin base={base} admin={admin} theme={settings.isDark ? shellDarkTheme : shellLightTheme}>
      <AreaRoutes
        layout={admin.layout}
        catchAll={admin.catchAll}
        accessDenied={admin.accessDenied ?? AccessDenied}
        outside={
          <>
            <Route path="/" element={<Navigate to={`${base}/loading`} replace />} />
            <Route path="/loading/*" element={loading} />
          </>
        }
        inside={
          <>
            <Route path="/iframe/*" element={<IframePage base={base} />} />
            {pages}
          </>
        }
        resources={resources}
      />
    </AreaAdmin>
  );
}
