// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { firstListQueryOf, GeneratedList, LIST_SCREEN_CHECKS } from '../../../src/client/admin/resources/index.js';
import { fillListAhead } from '../../../src/client/admin/shell-start.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

const admins = [
  { id: 2, username: 'editor', nickname: 'Editor', avatar: '', email: '', mobile: '', group_arr: [2], group_name_arr: ['Editors'], last_login_time: null, last_login_ip: '', status: '1' },
];

afterEach(cleanup);

/**
 * The list screen is mounted and React Query has nothing under way: the list observes its rows and no
 * query is fetching. A query's fetch on mount (a stale list, a permission not filled in) starts, and calls
 * the provider, as its observer subscribes, so from here on any such call has been made.
 */
async function mountedAndQuiet(queryClient: QueryClient, resource: string): Promise<void> {
  await waitFor(() => {
    const lists = queryClient.getQueryCache().findAll({ queryKey: [resource, 'getList'] });
    expect(lists.some((query) => query.getObserversCount() > 0)).toBe(true);
    expect(queryClient.isFetching()).toBe(0);
  });
}

describe('a list fetched ahead (right after the login)', () => {
  it('draws its rows and buttons in its first render, and asks the server and the permissions nothing more', async () => {
    const definition = schema('system/admin');
    const query = firstListQueryOf(definition);
    expect(query).toEqual({ pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    const queryClient = new QueryClient();
    const dataProvider = fakeDataProvider({ 'auth/admin': admins });
    const authProvider = fakeAuthProvider();
    await fillListAhead(queryClient, { resource: 'auth/admin', query: query!, checks: LIST_SCREEN_CHECKS, authProvider, dataProvider });
    const checked = authProvider.canAccess.mock.calls.length;
    renderScreen(<GeneratedList definition={definition} />, { resource: 'auth/admin', dataProvider, authProvider, queryClient });
    // No loading state in between, and nothing drawn later: the row and its selection box beside "select all" (bulk delete)
    // and its edit button, the add button, all there as soon as the list is.
    expect(screen.getByText('editor')).toBeTruthy();
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Edit' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create' })).toBeTruthy();
    await mountedAndQuiet(queryClient, 'auth/admin');
    expect(dataProvider.getList).toHaveBeenCalledTimes(1);
    expect(authProvider.canAccess.mock.calls.slice(checked)).toEqual([]);
  });

  it('a list mounting while the rows are on their way waits for that request', async () => {
    const definition = schema('system/admin');
    const queryClient = new QueryClient();
    const dataProvider = fakeDataProvider({ 'auth/admin': admins });
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const getList = dataProvider.getList.getMockImplementation()!;
    dataProvider.getList.mockImplementation(async (...args: Parameters<typeof getList>) => {
      await answered;
      return getList(...args);
    });
    await fillListAhead(queryClient, { resource: 'auth/admin', query: firstListQueryOf(definition)!, checks: LIST_SCREEN_CHECKS, authProvider: fakeAuthProvider(), dataProvider });
    renderScreen(<GeneratedList definition={definition} />, { resource: 'auth/admin', dataProvider, queryClient });
    expect(screen.queryByText('editor')).toBeNull();
    answer();
    expect(await screen.findByText('editor')).toBeTruthy();
    await mountedAndQuiet(queryClient, 'auth/admin');
    expect(dataProvider.getList).toHaveBeenCalledTimes(1);
  });

  it('nothing is fetched ahead for a list not allowed', async () => {
    const queryClient = new QueryClient();
    const dataProvider = fakeDataProvider({ 'auth/admin': admins });
    await fillListAhead(queryClient, { resource: 'auth/admin', query: firstListQueryOf(schema('system/admin'))!, checks: LIST_SCREEN_CHECKS, authProvider: fakeAuthProvider(() => false), dataProvider });
    expect(dataProvider.getList).not.toHaveBeenCalled();
  });

  it('a hand-written list screen is not fetched ahead (it asks for what it wants)', () => {
    expect(firstListQueryOf(schema('survey/provider'))).toBeUndefined();
  });
});
