import { QueryClient } from '@tanstack/react-query';
import type { AuthProvider, DataProvider, GetListParams, GetListResult, Store } from 'react-admin';
import { pageNameOf } from '../../contract/view-paths.js';
import type { ResourceDefinition } from '../../schema/definition.js';
import { preloadIcons } from '../components/icons/resolve-icon.js';
import { definitionById, definitionByMenuName } from '../schemas.js';
import { adminBootstrap, authProvider } from './bootstrap-store.js';
import { firstPage, routeRules, type MenuRule } from './layout/menu-tree.js';
import { firstListQueryOf, LIST_SCREEN_CHECKS } from './resources/index.js';
import { FETCHED_AHEAD_FRESH_MS, fillRowChecks } from './resources/row-checks.js';

/**
 * The back office's query cache (react-admin's `<Admin queryClient>`): its own, as `<Admin>` would
 * create, but made here so that what the first screen reads can be put in it before that screen draws.
 */
export const adminQueryClient = new QueryClient();


/** The schema a menu rule's screen is drawn from, if it is a schema screen (the page key or the menu name). */
export function definitionOfRule(rule: Pick<MenuRule, 'component'>): ResourceDefinition | undefined {
  return definitionById(rule.component) ?? definitionByMenuName(pageNameOf(rule.component));
}

/** What the start needs of the back office: its route base, data provider and store. */
interface ShellParts {
  base: string;
  dataProvider: DataProvider;
  store: Store;
}

/** The first page a list asks for, as react-admin's `getList` takes it. */
type ListQuery = Pick<GetListParams, 'pagination' | 'sort' | 'filter'>;

/** The actions a list screen asks `canAccess` about: of the resource, and of each row. */
interface ListChecks {
  resource: readonly string[];
  row: readonly string[];
}

/**
 * How long the shell waits for the first rows and the menus' icons before it draws: the requests take
 * a few milliseconds, drawing twice (without them, then with them) much more; a slow answer is not
 * waited for.
 */
const AHEAD_WAIT_MS = 300;

/**
 * Puts in `queryClient`, under the keys react-admin's list reads, the checks it makes before it asks
 * for the rows (signed in, allowed to list the resource), the first page of rows, and the checks the
 * screen makes once drawn (its buttons, each row's), so that a list mounting next draws its rows and
 * buttons in its first render instead of waiting for checks and a request in turn, then drawing again.
 * Resolves once the rows are in, or after a short wait; a list that mounts before they arrive waits
 * for this same request instead of making its own.
 */
export async function fillListAhead(
  queryClient: QueryClient,
  { resource, query, checks, authProvider, dataProvider }: { resource: string; query: ListQuery; checks: ListChecks; authProvider: AuthProvider; dataProvider: DataProvider },
): Promise<void> {
  const fresh = () => ({ updatedAt: Date.now() + FETCHED_AHEAD_FRESH_MS });
  const allows = async (action: string) => (await authProvider.canAccess?.({ action, resource })) ?? true;
  await authProvider.checkAuth({});
  queryClient.setQueryData(['auth', 'checkAuth', {}], true, fresh());
  const allowed = await allows('list');
  queryClient.setQueryData(['auth', 'canAccess', { action: 'list', resource, enabled: true }], allowed, fresh());
  if (!allowed) return;
  if (authProvider.getPermissions) queryClient.setQueryData(['auth', 'getPermissions', {}], await authProvider.getPermissions({}), fresh());
  for (const action of checks.resource) queryClient.setQueryData(['auth', 'canAccess', { action, resource }], await allows(action), fresh());
  const key = [resource, 'getList', { ...query, meta: undefined }];
  const rows = queryClient
    .fetchQuery({
      queryKey: key,
      queryFn: async (): Promise<GetListResult> => {
        const { data, total, pageInfo, meta } = await dataProvider.getList(resource, query);
        return { data, total, pageInfo, meta };
      },
    })
    .then(
      async (page) => {
        await fillRowChecks(queryClient, { authProvider, resource, records: page.data, actions: checks.row });
        queryClient.setQueryData(key, page, fresh());
      },
      // The list asks again itself and shows the error as it would have.
      () => undefined,
    );
  await briefly(rows);
}

/** Waits for `work`, but no longer than the shell waits for what it fetches ahead. */
function briefly(work: Promise<unknown>): Promise<unknown> {
  return Promise.race([work, new Promise((resolve) => setTimeout(resolve, AHEAD_WAIT_MS))]);
}

/** When the page to open is the list of a generated screen (with no sort, filter or page chosen before): its first page, ahead. */
async function fetchListAhead(path: string, menus: readonly MenuRule[], { dataProvider, store }: ShellParts): Promise<void> {
  const resourceName = path.replace(/^\/+/, '');
  const rule = routeRules(menus).find((each) => each.menu_type !== 'iframe' && each.name === resourceName);
  const definition = rule && definitionOfRule(rule);
  const query = definition && firstListQueryOf(definition);
  // A sort, filter or page the person chose for this list before is what it asks for: not fetched ahead.
  if (!rule || !query || store.getItem(`${rule.name}.listParams`) !== undefined) return;
  await fillListAhead(adminQueryClient, { resource: rule.name, query, checks: LIST_SCREEN_CHECKS, authProvider, dataProvider });
}

/** The icons of the menus and menu directories (not of the buttons, which draw none). */
function menuIcons(rules: readonly MenuRule[]): string[] {
  return rules.flatMap((rule) => (rule.type === 'button' ? [] : [...(rule.icon ? [rule.icon] : []), ...menuIcons(rule.children ?? [])]));
}

/**
 * Right after the login: fetch the menus, definitions and permissions (`Index/index`), start on the
 * first screen's data, and tell where to go: the page asked for (relative to the base) or the first
 * menu page. The shell then draws that page directly, with no loading route in between. Rejects
 * when the bootstrap fails (the loading route then shows why and offers to try again).
 */
export async function openShell(target: string | undefined, parts: ShellParts): Promise<string> {
  // A new session starts with an empty cache: nothing of a previous session's lists or permissions
  // (the cache outlives the shell, which a session that expired left without signing out).
  adminQueryClient.clear();
  const shell = await adminBootstrap.reload();
  const inner = target ?? firstPage(shell.nav)?.to;
  if (!inner) return '/404';
  // The menus' icons: drawn with the menu in its first render rather than when they arrive.
  const icons = briefly(preloadIcons(menuIcons(shell.menus)));
  if (!inner.includes('?') && !inner.includes('#')) {
    await fetchListAhead(inner, shell.menus, parts).catch((error: unknown) => console.error('Fetching the first list ahead failed', error));
  }
  await icons;
  return `${parts.base}${inner}`;
}
