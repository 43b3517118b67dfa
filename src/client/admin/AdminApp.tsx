import { lazy, Suspense, useEffect, useMemo, useState, type ReactElement } from 'react';
import { Loading, localStorageStore, Resource, type ResourceProps } from 'react-admin';
import { Route, useLocation } from 'react-router-dom';
import { pageNameOf } from '../../contract/view-paths.js';
import { SCHEMA_REVISION_HEADER } from '../../contract/headers.js';
import { httpClient, listenToAnswers } from '../http/index.js';
import { readSession } from '../http/session.js';
import { createDataProvider } from '../providers/data-provider.js';
import { createI18nProvider } from '../providers/i18n-provider.js';
import { schemaPageNames } from '../schemas.js';
import { AreaApp, type Area } from '../shell/AreaApp.js';
import { LoadingPage } from '../shell/LoadingPage.js';
import { RouteMessages } from '../shell/RouteMessages.js';
import { ADMIN_BASE } from './admin-base.js';
import { adminBootstrap, authProvider, useShellState, type ShellState } from './bootstrap-store.js';
import { AdminLayout } from './layout/AdminLayout.js';
import { menuTitleIn } from './layout/use-shell-navigation.js';
import { firstPage, pageOf, routeRules } from './layout/menu-tree.js';
import { PROFILE_COMPONENT } from './layout/NavButtons.js';
import { useShellLogout } from './layout/use-shell-logout.js';
import { NotAvailablePage } from './pages/NotAvailablePage.js';
import { ShellStatusPage } from './pages/ShellStatusPage.js';
import { resolveEndpoint } from './resource-endpoint.js';
import { resourceFor } from './resources/index.js';
import { followSchemaRevision, SCHEMA_REVISION_PATH } from './schema-revision.js';
import { adminQueryClient, definitionOfRule, openShell } from './shell-start.js';
import { DEFAULT_SITE_CONFIG, SiteConfigContext } from './site-config-context.js';

export const dataProvider = createDataProvider(httpClient, resolveEndpoint);
export const i18nProvider = createI18nProvider();

/**
 * Its own store keys (`RaStore.chidao-admin.*`), apart from the member centre's. Its query cache is
 * its own too: `<Admin>` creates a QueryClient per instance when none is passed.
 */
const store = localStorageStore(undefined, 'chidao-admin');

/**
 * Message files the whole back office uses (layout, generated screens); a page's own file loads with
 * its route (`PAGE_COMPONENTS`), the login page's with the login page.
 */
export const ADMIN_MESSAGE_FILES = ['admin/shell', 'admin/generated', 'common/pages'] as const;

// `npm run dev`: redraw when a schema changes (the module is left out of production builds).
if (import.meta.env.DEV && import.meta.env.MODE !== 'test' && typeof EventSource !== 'undefined') {
  void import('./dev/live-schemas.js').then(({ followSchemaChanges }) => followSchemaChanges(authProvider.loadBootstrap));
}

/** The dashboard's own message files (the login page fetches them ahead: most logins land there). */
export const DASHBOARD_MESSAGE_FILES = ['admin/dashboard'] as const;

/**
 * The hand-written pages load with their route, each its own chunk: a list's path never downloads the
 * dashboard's charts, the module designer or the profile form (npm run bench:ui prints the chunks).
 */
const DashboardPage = lazy(async () => ({ default: (await import('./pages/dashboard/DashboardPage.js')).DashboardPage }));
const CrudPage = lazy(async () => ({ default: (await import('./pages/crud/CrudPage.js')).CrudPage }));
const ProfilePage = lazy(async () => ({ default: (await import('./pages/profile/ProfilePage.js')).ProfilePage }));
const ModuleStorePage = lazy(async () => ({ default: (await import('./pages/module-store/ModuleStorePage.js')).ModuleStorePage }));
const JobsPage = lazy(async () => ({ default: (await import('./pages/jobs/JobsPage.js')).JobsPage }));

/** The dashboard's code, fetched ahead by the login page when the person is headed there. */
export const preloadDashboard = () => import('./pages/dashboard/DashboardPage.js');

/** A page's chunk and words: the loading indicator until both are in. */
function LazyPage({ messages, children }: { messages: readonly string[]; children: ReactElement }) {
  return (
    <RouteMessages names={messages}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </RouteMessages>
  );
}

/** Pages that are not generated from a schema, by the page name of the menu rule's `component`, with their message files. */
const PAGE_COMPONENTS: Readonly<Record<string, () => ReactElement>> = {
  dashboard: () => (
    <LazyPage messages={DASHBOARD_MESSAGE_FILES}>
      <DashboardPage />
    </LazyPage>
  ),
  // BuildAdmin's code generator page (`/src/views/backend/crud/index.vue`): our module designer.
  crud: () => (
    <LazyPage messages={['admin/crud', 'admin/generated']}>
      <CrudPage load={authProvider.loadBootstrap} />
    </LazyPage>
  ),
  // BuildAdmin's module store (`/src/views/backend/module/index.vue`): ours installs schema modules.
  module: () => (
    <LazyPage messages={['admin/module', 'admin/generated']}>
      <ModuleStorePage load={authProvider.loadBootstrap} />
    </LazyPage>
  ),
  // ours: the background jobs (`routine.Jobs`)
  'routine/jobs': () => (
    <LazyPage messages={['admin/jobs']}>
      <JobsPage />
    </LazyPage>
  ),
  [PROFILE_COMPONENT]: () => (
    <LazyPage messages={['admin/profile']}>
      <ProfilePage />
    </LazyPage>
  ),
};

/** The routes the bootstrap menus open: a `<Resource>` per schema screen, a custom route per page. */
export function shellRoutes(menus: ShellState['menus']): { resources: ReactElement<ResourceProps>[]; pages: ReactElement[] } {
  const resources: ReactElement<ResourceProps>[] = [];
  const pages: ReactElement[] = [];
  const seen = new Set<string>();
  for (const rule of routeRules(menus)) {
    if (rule.menu_type === 'iframe' || seen.has(rule.name.toLowerCase())) continue;
    seen.add(rule.name.toLowerCase());
    // BuildAdmin's view path (`/src/views/backend/auth/admin/index.vue`), or a schema `$id` stored by older versions.
    const pageName = pageNameOf(rule.component);
    const definition = definitionOfRule(rule);
    if (definition) {
      resources.push(<Resource key={rule.name} name={rule.name} {...resourceFor(definition)} options={{ label: menuTitleIn(i18nProvider.getLocale(), i18nProvider.translate, { key: rule.name, title: rule.title }), menu: rule }} />);
      continue;
    }
    const page = PAGE_COMPONENTS[pageName];
    const path = `/${(rule.path || rule.name).replace(/^\/+/, '')}`;
    pages.push(<Route key={rule.name} path={path} element={page ? page() : <NotAvailablePage name={rule.name} title={rule.title} />} />);
  }
  return { resources, pages };
}

/**
 * Whether a path inside the base (`/auth/rule`, `/auth/rule/12`) is a screen of a schema's menu: a
 * page that exists, which an admin whose menus lack it may not open (docs/client.md#routes: "no
 * permission", not "not found").
 */
export function isSchemaPage(inner: string): boolean {
  const path = inner.replace(/^\/+/, '').toLowerCase();
  return [...schemaPageNames()].some((name) => path === name || path.startsWith(`${name}/`));
}

/**
 * A path no route matches. Before the menus are loaded the layout has already sent it to the loading
 * route; after, a menu page whose routes are being registered waits a moment; then, inside the shell
 * (its menus and tabs stay), a schema page missing from the admin's menus says the admin may not open
 * it, anything else that there is no such page.
 */
function CatchAll() {
  const shell = useShellState();
  const { pathname } = useLocation();
  const [waited, setWaited] = useState(false);
  const inner = pathname.startsWith(ADMIN_BASE) ? pathname.slice(ADMIN_BASE.length) : pathname;
  const known = shell ? pageOf(shell.nav, inner) : undefined;
  useEffect(() => {
    const timer = window.setTimeout(() => setWaited(true), 3000);
    return () => window.clearTimeout(timer);
  }, []);
  if (known && !waited) return <Loading />;
  return <ShellStatusPage kind={!known && isSchemaPage(inner) ? 'denied' : 'missing'} />;
}

/** react-admin's refusal of a screen the admin's rights do not cover (an add form without `add`): inside the shell too. */
const AccessDenied = () => <ShellStatusPage kind="denied" />;

/**
 * Right after the login: fetch the bootstrap and the first screen's data, and resolve with the path to
 * open (the target under the base, or the first menu page). The shell then opens it without the
 * loading route; a rejection means the bootstrap failed and the loading route should show why.
 */
export function openBackOffice(target: string | undefined): Promise<string> {
  return openShell(target, { base: ADMIN_BASE, dataProvider, store });
}

/** The back office's loading route: without a session, the admin login page keeps the target in `?to=`. */
const loading = (
  <LoadingPage<ShellState>
    base={ADMIN_BASE}
    messages="shell.loading"
    isSignedIn={() => Boolean(readSession('admin').token)}
    load={adminBootstrap.reload}
    firstPage={(shell) => firstPage(shell.nav)?.to}
    loginPath={(target) => (target ? `${ADMIN_BASE}/login?to=${encodeURIComponent(target)}` : `${ADMIN_BASE}/login`)}
    useBackToLogin={useShellLogout}
  />
);

const ADMIN_AREA: Area = {
  base: ADMIN_BASE,
  admin: { authProvider, dataProvider, i18nProvider, store, queryClient: adminQueryClient, layout: AdminLayout, catchAll: CatchAll, accessDenied: AccessDenied },
  messageFiles: ADMIN_MESSAGE_FILES,
  loading,
};

/**
 * The back office (`/chidaoadminstator/*`): its resources and pages come from the menus the loading
 * route fetched; before that only the loading route exists.
 */
export function AdminApp() {
  const shell = useShellState();
  const menus = shell?.menus;
  const routes = useMemo(() => (menus ? shellRoutes(menus) : { resources: [], pages: [] }), [menus]);
  const loaded = shell !== undefined;
  // Another admin's (or process's) schema change redraws the menus and screens (unit tests drive the follower themselves).
  useEffect(() => {
    if (!loaded || import.meta.env.MODE === 'test') return;
    return followSchemaRevision({
      ask: () => httpClient.request<{ revision: number }>(SCHEMA_REVISION_PATH, { area: 'admin', showErrorMessage: false }).then(({ data }) => data.revision),
      load: authProvider.loadBootstrap,
      listen: (heard) =>
        listenToAnswers((area, headers) => {
          const revision = Number(headers.get(SCHEMA_REVISION_HEADER) ?? NaN);
          if (area === 'admin' && Number.isInteger(revision)) heard(revision);
        }),
    });
  }, [loaded]);
  return (
    <SiteConfigContext.Provider value={shell?.siteConfig ?? DEFAULT_SITE_CONFIG}>
      <AreaApp area={ADMIN_AREA} pages={routes.pages} resources={routes.resources} />
    </SiteConfigContext.Provider>
  );
}
