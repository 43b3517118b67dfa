import { createBrowserRouter, Navigate, useRouteError, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { ADMIN_BASE } from './admin/admin-base.js';
import { PAGE_MESSAGES } from './i18n/page-messages.js';
import { preloadMessages } from './i18n/use-messages.js';
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
  const error = useRouteError();
  console.error(error);
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

/** A standalone page's code and its words fetched side by side: its first render already reads. */
async function pageWithMessages<T>(load: () => Promise<T>, files: readonly string[]): Promise<T> {
  const [module] = await Promise.all([load(), preloadMessages(files)]);
  return module;
}

/**
 * The app's one data router (docs/architecture.md#the-client; docs/client.md#routes). Every area is a lazy chunk: the login pages and the
 * 404/401 pages are plain React and CSS; the survey pages use MUI without react-admin; react-admin
 * loads only with the back office or the member centre, each its own chunk.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    HydrateFallback: RouteFallback,
    ErrorBoundary: RouteError,
    children: [
      { path: '/', element: <Navigate to="/user/login" replace /> },
      {
        path: `${ADMIN_BASE}/login`,
        lazy: async () => ({ Component: (await pageWithMessages(() => import('./admin/login/AdminLoginPage.js'), PAGE_MESSAGES.adminLogin)).AdminLoginPage }),
      },
      {
        path: `${ADMIN_BASE}/*`,
        lazy: async () => ({ Component: (await import('./admin/AdminApp.js')).AdminApp }),
      },
      {
        path: '/user/login',
        lazy: async () => ({ Component: (await pageWithMessages(() => import('./member/login/MemberLoginPage.js'), PAGE_MESSAGES.memberLogin)).MemberLoginPage }),
      },
      {
        path: '/user/*',
        lazy: async () => ({ Component: (await import('./member/MemberApp.js')).MemberApp }),
      },
      ...(['success', 'terminate', 'security', 'overquota'] as const).map((page) => ({
        path: `/${page}`,
        // The return is reported while the page's code is still arriving: the member waits for one, not both.
        loader: async ({ request }: LoaderFunctionArgs) => {
          const { surveyApi } = await import('./pages/survey/survey-api.js');
          const report = surveyApi.outcome(page, new URL(request.url).search.replace(/^\?/, ''));
          // The page shows a refusal itself; until it is drawn the rejection is not left unhandled.
          report.catch(() => undefined);
          return { report };
        },
        lazy: async () => {
          const { OutcomeRoute } = await pageWithMessages(() => import('./pages/survey/OutcomePage.js'), PAGE_MESSAGES.survey);
          return { Component: () => <OutcomeRoute page={page} /> };
        },
      })),
      { path: '/interface', lazy: async () => ({ Component: (await pageWithMessages(() => import('./pages/survey/InterfacePage.js'), PAGE_MESSAGES.survey)).InterfacePage }) },
      { path: '/quicktask', lazy: async () => ({ Component: (await pageWithMessages(() => import('./pages/survey/QuickTaskPage.js'), PAGE_MESSAGES.survey)).QuickTaskPage }) },
      { path: '/tracking', lazy: async () => ({ Component: (await pageWithMessages(() => import('./pages/survey/TrackingPage.js'), PAGE_MESSAGES.survey)).TrackingPage }) },
      { path: '/404', lazy: async () => ({ Component: (await pageWithMessages(() => import('./pages/StatusPage.js'), PAGE_MESSAGES.status)).NotFoundPage }) },
      { path: '/401', lazy: async () => ({ Component: (await pageWithMessages(() => import('./pages/StatusPage.js'), PAGE_MESSAGES.status)).NoPermissionPage }) },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(routes);
}
