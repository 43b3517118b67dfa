// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { firstListQueryOf, GeneratedList } from '../../../src/client/admin/resources/index.js';
import { fillListAhead } from '../../../src/client/admin/shell-start.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

const admins = [
  { id: 2, username: 'editor', nickname: 'Editor', avatar: '', email: '', mobile: '', group_arr: [2], group_name_arr: ['Editors'], last_login_time: null, last_login_ip: '', status: '1' },
];

afterEach(cleanup);

describe('a list fetched ahead (right after the login)', () => {
  it('draws its rows in its first render and asks the server once', async () => {
    const definition = schema('system/admin');
    const query = firstListQueryOf(definition);
    expect(query).toEqual({ pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'DESC' }, filter: {} });
    const queryClient = new QueryClient();
    const dataProvider = fakeDataProvider({ 'auth/admin': admins });
    const authProvider = fakeAuthProvider();
    await fillListAhead(queryClient, { resource: 'auth/admin', query: query!, authProvider, dataProvider });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    renderScreen(<GeneratedList definition={definition} />, { resource: 'auth/admin', dataProvider, authProvider, queryClient });
    // No loading state in between: the row is there as soon as the list is.
    expect(screen.getByText('editor')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(dataProvider.getList).toHaveBeenCalledTimes(1);
    expect(authProvider.canAccess.mock.calls.filter(([params]) => params.action === 'list')).toHaveLength(1);
  });

  it('a list mounting while the rows are on their way waits for that request', async () => {
    const definition = schema('system/admin');
    const queryClient = new QueryClient();
    const dataProvider = fakeDataProvider({ 'auth/admin': admins });
    await fillListAhead(queryClient, { resource: 'auth/admin', query: firstListQueryOf(definition)!, authProvider: fakeAuthProvider(), dataProvider });
    renderScreen(<GeneratedList definition={definition} />, { resource: 'auth/admin', dataProvider, queryClient });
    expect(await screen.findByText('editor')).toBeTruthy();
    expect(dataProvider.getList).toHaveBeenCalledTimes(1);
  });

  it('nothing is fetched ahead for a list not allowed, and the list checks for itself', async () => {
    const queryClient = new QueryClient();
    const dataProvider = fakeDataProvider({ 'auth/admin': admins });
    await fillListAhead(queryClient, { resource: 'auth/admin', query: firstListQueryOf(schema('system/admin'))!, authProvider: fakeAuthProvider(() => false), dataProvider });
    expect(dataProvider.getList).not.toHaveBeenCalled();
  });

  it('a hand-written list screen is not fetched ahead (it asks for what it wants)', () => {
    expect(firstListQueryOf(schema('survey/provider'))).toBeUndefined();
  });
});
