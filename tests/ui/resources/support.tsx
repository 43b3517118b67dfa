import { render } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactElement, ReactNode } from 'react';
import { AdminContext, memoryStore, Notification, ResourceContextProvider, TestMemoryRouter, type AuthProvider, type DataProvider, type I18nProvider, type RaRecord } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { Route, Routes } from 'react-router-dom';
import { vi, type Mock } from 'vitest';
import { definitionById } from '../../../src/client/schemas.js';
import type { ResourceDefinition } from '../../../src/schema/definition.js';
import { mergePacks, type MessagePack } from '../../../src/client/i18n/translate.js';

/** A schema of the project, by `$id`. */
export function schema(id: string): ResourceDefinition {
  const definition = definitionById(id);
  if (!definition) throw new Error(`no schema ${id}`);
  return definition;
}

type Rows = Record<string, RaRecord[]>;
type Method = 'getList' | 'getOne' | 'getMany' | 'getManyReference' | 'create' | 'update' | 'updateMany' | 'delete' | 'deleteMany' | 'sortable' | 'action';
export type FakeDataProvider = DataProvider & Record<Method, Mock>;

function flatten(rows: RaRecord[]): RaRecord[] {
  return rows.flatMap((row) => [row, ...flatten((row.children as RaRecord[] | undefined) ?? [])]);
}

/**
 * An in-memory data provider: every method is a spy; lists answer the resource's rows (the whole set,
 * as the server would for the filter the test asserts on), reads find rows by id, tree rows included.
 */
export function fakeDataProvider(tables: Rows): FakeDataProvider {
  const rowsOf = (resource: string) => tables[resource] ?? [];
  const find = (resource: string, id: unknown) => flatten(rowsOf(resource)).find((row) => String(row.id) === String(id));
  return {
    getList: vi.fn(async (resource: string) => ({ data: rowsOf(resource), total: rowsOf(resource).length })),
    getOne: vi.fn(async (resource: string, params: { id: unknown }) => ({ data: find(resource, params.id) as RaRecord })),
    getMany: vi.fn(async (resource: string, params: { ids: unknown[] }) => ({ data: params.ids.map((id) => find(resource, id)).filter(Boolean) as RaRecord[] })),
    getManyReference: vi.fn(async (resource: string) => ({ data: rowsOf(resource), total: rowsOf(resource).length })),
    create: vi.fn(async (_resource: string, params: { data: Record<string, unknown> }) => ({ data: { ...params.data, id: 99 } })),
    update: vi.fn(async (resource: string, params: { id: unknown; data: Record<string, unknown> }) => ({ data: { ...find(resource, params.id), ...params.data } as RaRecord })),
    updateMany: vi.fn(async (_resource: string, params: { ids: unknown[] }) => ({ data: params.ids })),
    delete: vi.fn(async (resource: string, params: { id: unknown }) => ({ data: find(resource, params.id) as RaRecord })),
    deleteMany: vi.fn(async (_resource: string, params: { ids: unknown[] }) => ({ data: params.ids })),
    sortable: vi.fn(async () => ({ data: null })),
    // a resource's own action: `info` answers the row as the server would (`{row}`), others `null`
    action: vi.fn(async (resource: string, name: string, params?: { params?: { id?: unknown } }) => ({ data: name === 'info' ? { row: find(resource, params?.params?.id) } : null })),
  } as unknown as FakeDataProvider;
}

/** An auth provider that is always signed in and allows what `allow` says (`auth/admin/delete` style). */
export function fakeAuthProvider(allow: (node: string) => boolean = () => true): AuthProvider & { canAccess: Mock } {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => undefined,
    canAccess: vi.fn(async ({ resource, action }: { resource: string; action: string }) => allow(`${resource}/${action}`)),
  };
}

/**
 * The app's English message files, as the back office has them once a route has loaded them: the screens
 * carry no text of their own beside a key, so without these a test would read the keys.
 */
const englishFiles = Object.values(import.meta.glob<MessagePack>('../../../locales/en/{admin,common,member}/*.json', { eager: true, import: 'default' }));
const englishPack = mergePacks(englishMessages as unknown as MessagePack, ...englishFiles);

/** react-admin's and the app's English; `locale` decides which server pack the screens fall back to. */
export function i18nProviderFor(locale = 'en') {
  return polyglotI18nProvider(() => englishPack as unknown as typeof englishMessages, locale, [{ locale, name: locale }], { allowMissing: true });
}

export function renderScreen(
  element: ReactElement,
  { resource, dataProvider, authProvider = fakeAuthProvider(), wrapper, locale = 'en', path, resourceRoute = false, queryClient, i18nProvider }: {
    resource: string;
    /** the messages to render with (default: react-admin's English) */
    i18nProvider?: I18nProvider;
    /** react-query's cache, for a test that starts with data already cached (as after a list) */
    queryClient?: QueryClient;
    locale?: string;
    /** render at this URL under the route `/<resource>/:id` (edit screens read the id from it) */
    path?: string;
    /** at `path`, render under `/<resource>/*` instead, as the shell routes a resource (a list draws its add and edit dialogs below it) */
    resourceRoute?: boolean;
    dataProvider: DataProvider;
    authProvider?: AuthProvider;
    wrapper?: (children: ReactNode) => ReactElement;
  },
) {
  const screen = <ResourceContextProvider value={resource}>{element}</ResourceContextProvider>;
  const inner = path ? (
    <Routes>
      <Route path={resourceRoute ? `/${resource}/*` : `/${resource}/:id`} element={screen} />
    </Routes>
  ) : (
    screen
  );
  // A memory router and store per render, so no list state (filters, sort) leaks into the next test.
  return render(
    <TestMemoryRouter initialEntries={path ? [path] : undefined}>
      <AdminContext dataProvider={dataProvider} authProvider={authProvider} queryClient={queryClient} i18nProvider={i18nProvider ?? i18nProviderFor(locale)} store={memoryStore()}>
        {wrapper ? wrapper(inner) : inner}
        {/* toasts, as the layout shows them */}
        <Notification />
      </AdminContext>
    </TestMemoryRouter>,
  );
}
