import enHttp from '../../../locales/en/common/http.json';
import zhHttp from '../../../locales/zh-cn/common/http.json';
import { currentLanguage } from '../i18n/store-config.js';
import { createTranslate, type MessagePack } from '../i18n/translate.js';
import { createHttpClient, type HttpClient, type HttpClientOptions, type NotifyType } from './http-client.js';
import type { Area } from './session.js';

/**
 * The application's one http client. react-admin providers are created outside React, so the client
 * is a module singleton whose navigate/notify/translate are set later by the shell
 * (`configureHttpClient`, typically from a component inside `<Admin>`; see `HttpClientBridge`).
 * Until then it navigates with `location.assign`, logs toasts to the console and translates its own
 * messages from the bundled `common/http.json` of the stored language.
 */

type HttpClientSettings = Pick<HttpClientOptions, 'navigate' | 'notify' | 'translate'>;

const bundled: Record<string, MessagePack> = { 'zh-cn': zhHttp, en: enHttp };

function defaultTranslate(key: string): string {
  return createTranslate(bundled[currentLanguage()] ?? zhHttp)(key);
}

const defaults: HttpClientSettings = {
  navigate: (to) => {
    if (typeof location !== 'undefined') location.assign(to);
  },
  notify: (message: string, type: NotifyType) => {
    if (type === 'error') console.warn(message);
    else console.info(message);
  },
  translate: defaultTranslate,
};

let settings: HttpClientSettings = { ...defaults };

/** Replace any of navigate/notify/translate; returns a function restoring the previous ones. */
export function configureHttpClient(patch: Partial<HttpClientSettings>): () => void {
  const previous = settings;
  settings = { ...settings, ...patch };
  return () => {
    settings = previous;
  };
}

const answerListeners = new Set<(area: Area, headers: Headers) => void>();

/** Hear the headers of every answer the application's client gets; returns a function that stops. */
export function listenToAnswers(listener: (area: Area, headers: Headers) => void): () => void {
  answerListeners.add(listener);
  return () => answerListeners.delete(listener);
}

export const httpClient: HttpClient = createHttpClient({
  navigate: (to) => settings.navigate(to),
  notify: (message, type) => settings.notify(message, type),
  translate: (key) => settings.translate(key),
  onAnswer: (area, headers) => {
    for (const listener of answerListeners) listener(area, headers);
  },
});

export { createHttpClient, rewritePath, buildUrl, areaOfPath, areaBase, loginPath, HttpMessage, DEFAULT_TIMEOUT } from './http-client.js';
export type { HttpClient, HttpClientOptions, RequestOptions, HttpMethod, NotifyType } from './http-client.js';
export type { Area, Session, AdminInfo, UserInfo } from './session.js';
