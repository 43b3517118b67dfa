// @vitest-environment jsdom
import { render, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { CoreAdminContext, useNotificationContext } from 'ra-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { useLocation } from 'react-router-dom';
import { HttpClientBridge } from '../../../src/client/http/HttpClientBridge.js';
import { httpClient } from '../../../src/client/http/index.js';
import { createI18nProvider } from '../../../src/client/providers/i18n-provider.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const seen: { path?: string; notifications: string[] } = { notifications: [] };

function Probe() {
  const { notifications } = useNotificationContext();
  seen.path = useLocation().pathname;
  seen.notifications = notifications.map((item) => `${item.type}: ${String(item.message)}`);
  return null;
}

it('sends the singleton client toasts to react-admin and its redirects to the router, translated by the i18n provider', async () => {
  server.use(
    http.get('/api/slow', () => new HttpResponse(null, { status: 504 })),
    http.get('/api/moved', () => HttpResponse.json({ code: 302, msg: 'Moved', time: 0, data: { routePath: '/somewhere' } })),
  );
  const { unmount } = render(
    <CoreAdminContext i18nProvider={createI18nProvider({ reload: () => undefined })}>
      <HttpClientBridge />
      <Probe />
    </CoreAdminContext>,
  );
  await expect(httpClient.request('/api/slow')).rejects.toThrow('服务暂时无法访问，请稍后再试！');
  await expect(httpClient.request('/api/moved')).rejects.toThrow('Moved');
  await waitFor(() => expect(seen.path).toBe('/somewhere'));
  expect(seen.notifications).toEqual(['error: 服务暂时无法访问，请稍后再试！', 'error: Moved']);
  unmount();
});
