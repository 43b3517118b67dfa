// @vitest-environment jsdom
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient, httpClient } from '../../../src/client/http/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => localStorage.clear());
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

describe('the http client singleton', () => {
  it('toasts through whatever configureHttpClient set, and restores the previous settings', async () => {
    server.use(http.get('/api/x', () => HttpResponse.json({ code: 0, msg: 'Nope', time: 0, data: null })));
    const notify = vi.fn();
    const restore = configureHttpClient({ notify });
    await expect(httpClient.request('/api/x')).rejects.toThrow('Nope');
    expect(notify).toHaveBeenCalledWith('Nope', 'error');
    restore();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(httpClient.request('/api/x')).rejects.toThrow('Nope');
    expect(notify).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledWith('Nope');
  });

  it('translates its own messages in the stored language until the app sets a translate', async () => {
    server.use(http.get('/api/down', () => new HttpResponse(null, { status: 502 })));
    const notify = vi.fn();
    const restore = configureHttpClient({ notify });
    await expect(httpClient.request('/api/down')).rejects.toThrow('网关错误！');
    localStorage.setItem('storeConfig_v2', JSON.stringify({ lang: { defaultLang: 'en' } }));
    await expect(httpClient.request('/api/down')).rejects.toThrow('Gateway error!');
    configureHttpClient({ translate: (key) => `<${key}>` });
    await expect(httpClient.request('/api/down')).rejects.toThrow('<http.status.502>');
    restore();
  });

  it('navigates through the configured navigate, taking the area from the page location', async () => {
    window.history.pushState({}, '', '/chidaoadminstator/auth/admin');
    localStorage.setItem('adminInfo', JSON.stringify({ id: 1, token: 't' }));
    server.use(http.get('/chidaoadminstator.php/Index/index', () => HttpResponse.json({ code: 303, msg: '', time: 0, data: { type: 'need login' } })));
    const navigate = vi.fn();
    const restore = configureHttpClient({ navigate, notify: vi.fn() });
    await expect(httpClient.request('/admin/Index/index')).rejects.toThrow();
    expect(navigate).toHaveBeenCalledWith('/chidaoadminstator/login');
    restore();
  });
});
