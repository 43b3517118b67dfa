// @vitest-environment jsdom
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import enHttp from '../../../locales/en/common/http.json';
import { createHttpClient } from '../../../src/client/http/http-client.js';
import { currentLanguage } from '../../../src/client/i18n/store-config.js';
import { createTranslate } from '../../../src/client/i18n/translate.js';
import { chooseLanguage } from '../../../src/client/member/choose-language.js';

/**
 * A member's language menu: a signed-in member's choice reaches the server (which writes their texts and
 * mails in it) before the page reloads in it; a visitor's stays in the browser.
 */

const server = setupServer();
const sent: { lang: unknown; token: string | null }[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  sent.length = 0;
  server.resetHandlers(
    http.post('/api/account/language', async ({ request }) => {
      sent.push({ lang: ((await request.json()) as { lang: unknown }).lang, token: request.headers.get('ba-user-token') });
      return HttpResponse.json({ code: 1, msg: '', time: 1717000000, data: { lang: 'en' } });
    }),
  );
});
afterAll(() => server.close());

function client() {
  return createHttpClient({ navigate: vi.fn(), notify: vi.fn(), translate: createTranslate(enHttp), currentPath: () => '/user/account/overview' });
}

describe('choosing a language in the member pages', () => {
  it('tells the server a signed-in member’s choice, then reloads the page in it', async () => {
    localStorage.setItem('userInfo', JSON.stringify({ id: 7, username: 'ben', token: 'ben-token', refresh_token: 'ben-refresh' }));
    const reload = vi.fn(() => expect(sent).toHaveLength(1));
    await chooseLanguage('en', client(), reload);
    expect(sent).toEqual([{ lang: 'en', token: 'ben-token' }]);
    expect(reload).toHaveBeenCalledOnce();
    expect(currentLanguage()).toBe('en');
  });

  it('still changes the page when the server cannot be reached', async () => {
    localStorage.setItem('userInfo', JSON.stringify({ id: 7, username: 'ben', token: 'ben-token', refresh_token: 'ben-refresh' }));
    server.resetHandlers(http.post('/api/account/language', () => HttpResponse.error()));
    const reload = vi.fn();
    await chooseLanguage('en', client(), reload);
    expect(reload).toHaveBeenCalledOnce();
    expect(currentLanguage()).toBe('en');
  });

  it('keeps a visitor’s choice in the browser only', async () => {
    const reload = vi.fn();
    await chooseLanguage('en', client(), reload);
    expect(sent).toEqual([]);
    expect(reload).toHaveBeenCalledOnce();
    expect(currentLanguage()).toBe('en');
  });
});
