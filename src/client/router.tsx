import { Component, lazy, Suspense, useEffect, useMemo, useState, type ComponentType, type ErrorInfo, type ReactElement, type ReactNode } from 'react';
import { matchRoutes, Navigate, useLocation, useRoutes } from 'react-router-dom';
import { OUTCOME_PAGES } from '../contract/outcomes.js';
import { ADMIN_BASE } from './admin/admin-base.js';
import { PAGE_MESSAGES } from './i18n/page-messages.js';
import { preloadMessages } from './i18n/use-messages.js';
import type { OutcomePage as Outcome, OutcomeReport } from './pages/survey/survey-api.js';
import './app.css';

/** Shown while a route's code arrives: an empty page with a small spinner, no framework needed. */
function RouteFallback() {
  return (
    <div className="app-fallback" aria-busy="true">
      <span className="app-fallback__spinner" />
    </div>
  );
}

/** A route failed to load (usually a stale chunk after a deployment): offer a reload. */
function RouteError() {
  return (
    <div className="app-fallback" role="alert">
      <p>
        Something went wrong. / 出错了。
        <button type="button" onClick={() => window.location.reload()}>
          Reload / 重新加载
        </button>
      </p>
    </div>
  );
}

/**
 * Catches what a route throws while loading or drawing and shows `RouteError` in its place. The error
 * belongs to the location it happened at (`at`, the location's key): any navigation draws afresh.
 */
class RouteErrorBoundary extends Component<{ at: string; children: ReactNode }, { failed: boolean; at: string }> {
  override state = { failed: false, at: this.props.at };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { at: string }, state: { failed: boolean; at: string }) {
    return props.at === state.at ? null : { failed: false, at: props.at };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo) {
    console.error(error);
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/** A standalone page's code and its words fetched side by side: its first render already reads. */
async function pageWithMessages<T>(load: () => Promise<T>, files: readonly string[]): Promise<T> {
  const [module] = await Promise.all([load(), preloadMessages(files)]);
  return module;
}

/**
 * A page whose code is fetched the first time it is drawn, or earlier with `preload`. A page preloaded
 * before its first draw (the server's first view waits for it, see main.tsx) draws at once, without
 * suspending, so nothing comes between the server's view and the page's own.
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(async () => ({ default: await preload() })) as unknown as ComponentType<P>;
  function Page(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the component would remount the page.
    const [Ready] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Ready {...props} />;
  }
  return { Page, preload };
}

const outcomePage = lazyPage(async () => (await pageWithMessages(() => import('./pages/survey/OutcomePage.js'), PAGE_MESSAGES.survey)).OutcomePage);

/**
 * The outcome page's report of the return, one per visit of the page (a location's key): a page drawn
 * again, or drawn twice by React before it shows, sends none of its own. While the first view is
 * preloaded the key is not known yet (`undefined`): the first draw of that page and query takes it.
 */
let lastReport: { page: Outcome; search: string; key: string | undefined; report: Promise<OutcomeReport> } | undefined;

function outcomeReport(page: Outcome, search: string, key: string | undefined): Promise<OutcomeReport> {
  if (lastReport && lastReport.page === page && lastReport.search === search && (lastReport.key === key || lastReport.key === undefined)) {
    lastReport.key ??= key;
    return lastReport.report;
  }
  const report = import('./pages/survey/survey-api.js').then(({ surveyApi }) => surveyApi.outcome(page, search.replace(/^\?/, '')));
  // The page shows a refusal itself; until it is drawn the rejection is not left unhandled.
  report.catch(() => undefined);
  lastReport = { page, search, key, report };
  return report;
}

/** The return is reported as soon as the route matches, while the page's code is still arriving: the member waits for one, not both. */
function OutcomeRoute({ page }: { page: Outcome }) {
  const { search, key } = useLocation();
  const report = useMemo(() => outcomeReport(page, search, key), [page, search, key]);
  // Once left, the visit is over: coming back to it (the browser's Back) reports the return again.
  useEffect(
    () => () => {
      if (lastReport?.key === key) lastReport = undefined;
    },
    [key],
  );
  return <outcomePage.Page page={page} pending={report} />;
}

const adminLogin = lazyPage(async () => (await pageWithMessages(() => import('./admin/login/AdminLoginPage.js'), PAGE_MESSAGES.adminLogin)).AdminLoginPage);
const adminApp = lazyPage(async () => (await import('./admin/AdminApp.js')).AdminApp);
const memberLogin = lazyPage(async () => (await pageWithMessages(() => import('./member/login/MemberLoginPage.js'), PAGE_MESSAGES.memberLogin)).MemberLoginPage);
const memberApp = lazyPage(async () => (await import('./member/MemberApp.js')).MemberApp);
const interfacePage = lazyPage(async () => (await pageWithMessages(() => import('./pages/survey/InterfacePage.js'), PAGE_MESSAGES.survey)).InterfacePage);
const quickTaskPage = lazyPage(async () => (await pageWithMessages(() => import('./pages/survey/QuickTaskPage.js'), PAGE_MESSAGES.survey)).QuickTaskPage);
const trackingPage = lazyPage(async () => (await pageWithMessages(() => import('./pages/survey/TrackingPage.js'), PAGE_MESSAGES.survey)).TrackingPage);
const notFoundPage = lazyPage(async () => (await pageWithMessages(() => import('./pages/StatusPage.js'), PAGE_MESSAGES.status)).NotFoundPage);
const noPermissionPage = lazyPage(async () => (await pageWithMessages(() => import('./pages/StatusPage.js'), PAGE_MESSAGES.status)).NoPermissionPage);

/** A route of the app; `preload` fetches what its first draw needs (code, words, the outcome's report). */
interface AppRoute {
  path: string;
  element: ReactElement;
  preload?: (search: string) => Promise<unknown>;
}

const pageRoute = (path: string, page: { Page: ComponentType; preload: () => Promise<unknown> }): AppRoute => ({
  path,
  element: <page.Page />,
  preload: page.preload,
});

/**
 * The app's routes (docs/architecture.md#the-client; docs/client.md#routes). Every area is a lazy chunk:
 * the login pages and the 404/401 pages are plain React and CSS; the survey pages use MUI without
 * react-admin; react-admin loads only with the back office or the member centre, each its own chunk.
 */
const APP_ROUTES: AppRoute[] = [
  { path: '/', element: <Navigate to="/user/login" replace /> },
  pageRoute(`${ADMIN_BASE}/login`, adminLogin),
  pageRoute(`${ADMIN_BASE}/*`, adminApp),
  pageRoute('/user/login', memberLogin),
  pageRoute('/user/*', memberApp),
  ...OUTCOME_PAGES.map(
    (page): AppRoute => ({
      path: `/${page}`,
      element: <OutcomeRoute page={page} />,
      preload: (search) => {
        outcomeReport(page, search, undefined);
        return outcomePage.preload();
      },
    }),
  ),
  pageRoute('/interface', interfacePage),
  pageRoute('/quicktask', quickTaskPage),
  pageRoute('/tracking', trackingPage),
  pageRoute('/404', notFoundPage),
  pageRoute('/401', noPermissionPage),
  { path: '*', element: <Navigate to="/404" replace /> },
];

/**
 * The whole app, inside a router (the browser's in main.tsx, a memory router in tests). One boundary
 * for all routes: a page whose code is still arriving shows the spinner; one fetched ahead
 * (`preloadRoute`) draws at once.
 */
export function AppRoutes() {
  const { key } = useLocation();
  const page = useRoutes(APP_ROUTES);
  return (
    <RouteErrorBoundary at={key}>
      <Suspense fallback={<RouteFallback />}>{page}</Suspense>
    </RouteErrorBoundary>
  );
}

/**
 * Fetches what the page at `location` needs for its first draw (its code, its words, an outcome's
 * report). Never fails: a page that cannot load shows the reload offer when drawn.
 */
export async function preloadRoute(location: { pathname: string; search: string }): Promise<void> {
  const route = matchRoutes(APP_ROUTES, location.pathname)?.[0]?.route;
  await route?.preload?.(location.search).catch(() => undefined);
}
