import { useMemo, type ReactElement } from 'react';
import { memberPageNameOf } from '../../contract/view-paths.js';
import { Card, CardContent, Typography } from '@mui/material';
import { localStorageStore, useLogout, useTranslate } from 'react-admin';
import { Navigate, Route, useLocation } from 'react-router-dom';
import { httpClient } from '../http/index.js';
import { USER_BASE } from '../http/http-client.js';
import { isUserLoggedIn } from '../http/session.js';
import { createDataProvider } from '../providers/data-provider.js';
import { createI18nProvider } from '../providers/i18n-provider.js';
import type { MemberBootstrap, MemberRule } from '../providers/member-bootstrap.js';
import { AreaApp, type Area } from '../shell/AreaApp.js';
import { LoadingPage } from '../shell/LoadingPage.js';
import { RouteMessages } from '../shell/RouteMessages.js';
import { loadingPath } from '../shell/target.js';
import { MEMBER_PAGES } from './pages/registry.js';
import { authProvider, firstPage, memberBootstrap, memberLoginPath, menuPages, routeOf, useMemberBootstrap } from './shell/member-bootstrap.js';
import { MemberLayout } from './shell/MemberLayout.js';

/** The member API is not the generic resource contract: pages call it through the http client. */
export const dataProvider = createDataProvider(httpClient, (resource) => {
  throw new Error(`The member centre has no resource "${resource}"`);
});
export const i18nProvider = createI18nProvider();
/** Its own store keys (`RaStore.chidao-member.*`), apart from the back office's. */
const store = localStorageStore(undefined, 'chidao-member');

/** Message files every page of the centre uses; a page's own files load with its route. */
export const MEMBER_MESSAGE_FILES = ['member/shell', 'common/pages'] as const;

/**
 * A route per menu page: the page its `component` names (BuildAdmin's view file or our name), with its message
 * files; and a route per menu directory (`/user/survey`), which opens the first page the member has in it.
 */
export function memberRoutes(menus: readonly MemberRule[]): ReactElement[] {
  const seen = new Set<string>();
  const tabs = menuPages(menus).filter((rule) => (rule.menu_type ?? 'tab') === 'tab' && !seen.has(rule.name) && seen.add(rule.name));
  const pages = tabs.map((rule) => {
    const page = MEMBER_PAGES[memberPageNameOf(rule.component)];
    const element = page ? <RouteMessages names={page.messages}>{page.render()}</RouteMessages> : <NotAvailable />;
    return <Route key={rule.name} path={routeOf(rule)} element={element} />;
  });
  // a directory whose path is also a page's keeps the page
  const taken = new Set(tabs.map(routeOf));
  const directories = menuDirectories(menus).flatMap((directory) => {
    const path = routeOf(directory);
    const first = firstPage(directory.children ?? []);
    if (!first || taken.has(path)) return [];
    taken.add(path);
    return [<Route key={`dir:${directory.name}`} path={path} element={<Navigate to={`${USER_BASE}${first}`} replace />} />];
  });
  return [...pages, ...directories];
}

/** Every menu directory (type `menu_dir`), depth first. */
function menuDirectories(menus: readonly MemberRule[]): MemberRule[] {
  return menus.flatMap((rule) => [...(rule.type === 'menu_dir' ? [rule] : []), ...menuDirectories(rule.children ?? [])]);
}

/** A menu item whose `component` this client has no page for. */
function NotAvailable() {
  const translate = useTranslate();
  return (
    <Card>
      <CardContent sx={{ textAlign: 'center', py: 6 }}>
        <Typography color="text.secondary">{translate('memberShell.notAvailable')}</Typography>
      </CardContent>
    </Card>
  );
}

/** A path no route matches: before the menus are loaded, load them and come back; after, 404. */
function CatchAll() {
  const shell = useMemberBootstrap();
  const { pathname, search } = useLocation();
  if (!shell) return <Navigate to={loadingPath(`${pathname.slice(USER_BASE.length)}${search}`, USER_BASE)} replace />;
  return <Navigate to="/404" replace />;
}

/** The member centre's loading route: without a session, the member login comes back to this very address. */
const loading = (
  <LoadingPage<MemberBootstrap>
    base={USER_BASE}
    messages="memberShell.loading"
    isSignedIn={isUserLoggedIn}
    load={memberBootstrap.reload}
    firstPage={(shell) => firstPage(shell.menus)}
    loginPath={(_target, { pathname, search }) => memberLoginPath(`${pathname}${search}`)}
    useBackToLogin={useLogout}
  />
);

const MEMBER_AREA: Area = {
  base: USER_BASE,
  admin: { authProvider, dataProvider, i18nProvider, store, layout: MemberLayout, catchAll: CatchAll },
  messageFiles: MEMBER_MESSAGE_FILES,
  loading,
};

/**
 * The member centre (`/user/*`): a second area on the same http client, with its own auth provider
 * (`ba-user-token`), store and message files. Its pages come from the menus the loading route fetched
 * (`GET /api/index/index`); before that only the loading route exists.
 */
export function MemberApp() {
  const shell = useMemberBootstrap();
  const menus = shell?.menus;
  const pages = useMemo(() => (menus ? memberRoutes(menus) : []), [menus]);
  return <AreaApp area={MEMBER_AREA} pages={pages} />;
}
