import { HttpError } from 'ra-core';
import { Code, LoginStateType } from '../../contract/codes.js';
import { isEnvelope, type Envelope } from '../../contract/envelope.js';
import { adminApiBase, CLIENT_MARKER, DEFAULT_ADMIN_ENTRANCE, Header } from '../../contract/headers.js';
import { stringifyQuery } from '../../contract/query-string.js';
import { currentLanguage } from '../i18n/store-config.js';
import { clearSession, readSession, writeSession, type Area } from './session.js';

/**
 * The one place that knows the envelope (docs/client.md#the-http-client, #error-messages): headers,
 * the `/admin/` rewrite, the 10 s timeout, the 409 refresh queue, 302/303 navigation, cancellation of
 * identical in-flight requests and the error catalogue shown as toasts. Every failure rejects with a
 * react-admin `HttpError` whose `body` is the envelope (or `{code: 0, msg}` when no envelope arrived)
 * and whose `status` is the HTTP status (200 for every envelope, 0 for a timeout or a network failure).
 */

export type HttpMethod = 'GET' | 'POST' | 'DELETE';
export type NotifyType = 'success' | 'error' | 'info';

export interface RequestOptions {
  /** default GET, POST for uploads */
  method?: HttpMethod;
  /** query string parameters, PHP bracket notation (`search[0][field]=…`, `ids[]=1`) */
  params?: Record<string, unknown>;
  /** JSON body; for uploads a `FormData` or a record turned into one (Blobs become files) */
  data?: unknown;
  /** multipart upload: no timeout, progress reported through `onProgress` */
  upload?: boolean;
  onProgress?: (percent: number) => void;
  /** milliseconds before this request is abandoned, for the few that work long (a bulk reconciliation); default the client's */
  timeout?: number;
  /** toast failures (server msg or the text of docs/client.md#error-messages); default true */
  showErrorMessage?: boolean;
  /** toast success: true → the server msg or "Operation successful", a string → that text; default false */
  showSuccessMessage?: boolean | string;
  /** whose token to send and whose session a 409/303 concerns; default: the area of the current path */
  area?: Area;
}

export interface HttpClientOptions {
  navigate(to: string): void;
  notify(message: string, type: NotifyType): void;
  translate(key: string): string;
  /** the admin route base; its API is `<adminBase>.php/…` (default `/chidaoadminstator`) */
  adminBase?: string;
  /** the current route path, deciding the area; default `window.location.pathname` */
  currentPath?(): string;
  fetch?: typeof fetch;
  /** milliseconds before a request is abandoned; default 10 000 (docs/client.md#the-http-client). Uploads have none. */
  timeout?: number;
  /** told the headers of every answer that came back (uploads aside), with the area whose call it was */
  onAnswer?(area: Area, headers: Headers): void;
}

/** A file the server sent instead of an envelope (a CSV export). */
export interface DownloadedFile {
  blob: Blob;
  /** from `Content-Disposition`, else '' */
  fileName: string;
}

export interface HttpClient {
  request<T = unknown>(path: string, options?: RequestOptions): Promise<Envelope<T>>;
  /**
   * GET a file. The server answers a refusal with an envelope instead, handled as `request` handles one
   * (a 409 refreshes the token and asks again). No timeout: a large export takes as long as it takes.
   */
  download(path: string, options?: Pick<RequestOptions, 'params' | 'area'>): Promise<DownloadedFile>;
}

/** Every call but uploads gives up after 10 s. */
export const DEFAULT_TIMEOUT = 10_000;
/** The member area's route base (docs/client.md#routes). */
export const USER_BASE = '/user';
const REFRESH_TOKEN_PATH = '/api/common/refreshToken';

/** Message keys of `locales/<lang>/common/http.json`. */
export const HttpMessage = {
  timeout: 'http.timeout',
  serverException: 'http.serverException',
  disconnected: 'http.disconnected',
  operationSuccessful: 'http.operationSuccessful',
  loginExpired: 'http.loginExpired',
  status: (status: number | 'other') => `http.status.${status}`,
} as const;

const STATUS_MESSAGES = new Set([302, 400, 401, 403, 404, 408, 409, 500, 501, 502, 503, 504, 505]);
/** A request replays at most this often after 409s, so a server that keeps answering 409 cannot loop us. */
const MAX_REPLAYS = 2;

/** `/admin/auth.Admin/index` → `/chidaoadminstator.php/auth.Admin/index`; other paths unchanged (docs/wire-contract.md#urls-and-areas). */
export function rewritePath(path: string, adminBase: string = DEFAULT_ADMIN_ENTRANCE): string {
  return path.startsWith('/admin/') ? `${adminApiBase(adminBase)}/${path.slice('/admin/'.length)}` : path;
}

/** The rewritten path plus the query string in PHP bracket notation. */
export function buildUrl(path: string, params: Record<string, unknown> | undefined, adminBase: string = DEFAULT_ADMIN_ENTRANCE): string {
  const rewritten = rewritePath(path, adminBase);
  const query = params ? stringifyQuery(params) : '';
  if (!query) return rewritten;
  return `${rewritten}${rewritten.includes('?') ? '&' : '?'}${query}`;
}

/** The area a route path belongs to: the admin base and below, else the member area (docs/client.md#routes). */
export function areaOfPath(pathname: string, adminBase: string = DEFAULT_ADMIN_ENTRANCE): Area {
  return pathname === adminBase || pathname.startsWith(`${adminBase}/`) ? 'admin' : 'user';
}

export function areaBase(area: Area, adminBase: string = DEFAULT_ADMIN_ENTRANCE): string {
  return area === 'admin' ? adminBase : USER_BASE;
}

export function loginPath(area: Area, adminBase: string = DEFAULT_ADMIN_ENTRANCE): string {
  return `${areaBase(area, adminBase)}/login`;
}

/** Outcome of the transport: the HTTP status and raw text, or a thrown network/abort error. */
interface RawResponse {
  status: number;
  text: string;
}

interface Prepared {
  area: Area;
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
  upload: boolean;
  onProgress?: (percent: number) => void;
  timeout?: number;
}

type RefreshOutcome = { kind: 'refreshed' } | { kind: 'replay' } | { kind: 'failed'; message: string; body: unknown };

interface InFlight {
  controller: AbortController;
  /** set when a newer identical request cancelled this one: its outcome becomes ours */
  supersededBy?: Promise<Envelope>;
}

function samePath(a: string, b: string): boolean {
  const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);
  return trim(a) === trim(b);
}

function absolute(url: string): string {
  // Browsers resolve relative URLs themselves; Node's fetch (tests) needs an absolute one.
  return typeof location === 'undefined' ? url : new URL(url, location.href).href;
}

function toFormData(data: unknown): FormData {
  if (data instanceof FormData) return data;
  const form = new FormData();
  if (typeof data === 'object' && data !== null) {
    for (const [key, value] of Object.entries(data)) {
      if (value === undefined || value === null) continue;
      if (value instanceof File) form.append(key, value, value.name);
      else if (value instanceof Blob) form.append(key, value);
      else form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
  }
  return form;
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function abortError(): Error {
  return new DOMException('The request was aborted', 'AbortError');
}

/** XMLHttpRequest, because fetch cannot report upload progress. */
function sendWithXhr(prepared: Prepared, signal: AbortSignal): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(prepared.method, absolute(prepared.url));
    for (const [name, value] of Object.entries(prepared.headers)) xhr.setRequestHeader(name, value);
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(abortError());
    if (prepared.onProgress) {
      const report = prepared.onProgress;
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) report(Math.round((event.loaded * 100) / event.total));
      };
    }
    if (signal.aborted) return reject(abortError());
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(prepared.body ?? null);
  });
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const adminBase = options.adminBase ?? DEFAULT_ADMIN_ENTRANCE;
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const currentPath = options.currentPath ?? (() => (typeof location === 'undefined' ? '/' : location.pathname));
  // Looked up at call time so a fetch installed later (msw in tests, polyfills) is used.
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  /** one refresh per area at a time; every request of that area waits for it (docs/client.md#the-http-client) */
  const refreshing = new Map<Area, Promise<RefreshOutcome>>();
  const inFlight = new Map<string, InFlight>();

  const { translate, notify, navigate } = options;

  function prepare(path: string, request: RequestOptions, token: string, area: Area): Prepared {
    const upload = request.upload === true;
    const method = request.method ?? (upload ? 'POST' : 'GET');
    const headers: Record<string, string> = {
      Accept: 'application/json, text/plain, */*',
      [Header.lang]: currentLanguage(),
      [Header.server]: 'true',
      [Header.client]: CLIENT_MARKER,
    };
    if (token) headers[area === 'admin' ? Header.adminToken : Header.userToken] = token;
    let body: string | FormData | undefined;
    if (upload) {
      body = toFormData(request.data);
    } else if (method !== 'GET' && request.data !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.data);
    }
    return { area, method, url: buildUrl(path, request.params, adminBase), headers, body, upload, onProgress: request.onProgress, timeout: request.timeout };
  }

  function transport(prepared: Prepared, signal: AbortSignal): Promise<RawResponse> {
    if (prepared.upload) return sendWithXhr(prepared, signal);
    return fetchImpl(absolute(prepared.url), { method: prepared.method, headers: prepared.headers, body: prepared.body, signal }).then(
      async (response) => {
        options.onAnswer?.(prepared.area, response.headers);
        return { status: response.status, text: await response.text() };
      },
    );
  }

  function failure(message: string, status: number, body: unknown, show: boolean): HttpError {
    if (show && message) notify(message, 'error');
    return new HttpError(message, status, body);
  }

  /** The text for an HTTP status (docs/client.md#error-messages); 404 names the address. */
  function statusMessage(status: number, url: string): string {
    const text = translate(HttpMessage.status(STATUS_MESSAGES.has(status) ? status : 'other'));
    return status === 404 ? `${text}${url}` : text;
  }

  /** Parse a raw response into an envelope, or throw the HTTP-status failure. */
  function envelopeOf(raw: RawResponse, url: string, show: boolean): Envelope {
    if (raw.status < 200 || raw.status >= 300) {
      const message = statusMessage(raw.status, url);
      throw failure(message, raw.status, { code: 0, msg: message }, show);
    }
    let parsed: unknown;
    try {
      parsed = raw.text ? JSON.parse(raw.text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!isEnvelope(parsed)) {
      // A 2xx without an envelope (an HTML page, an empty body): nothing we can read.
      const message = translate(HttpMessage.status('other'));
      throw failure(message, raw.status, { code: 0, msg: message }, show);
    }
    return parsed;
  }

  /** Run the transport once, with the timeout; `entry` lets a newer identical request cancel it. */
  async function exchange(prepared: Prepared, show: boolean, entry: InFlight): Promise<Envelope | { superseded: Promise<Envelope> }> {
    let timedOut = false;
    const timer = prepared.upload
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          entry.controller.abort();
        }, prepared.timeout ?? timeout);
    let raw: RawResponse;
    try {
      raw = await transport(prepared, entry.controller.signal);
    } catch {
      if (timedOut) {
        const message = translate(HttpMessage.timeout);
        throw failure(message, 0, { code: 0, msg: message }, show);
      }
      if (entry.supersededBy) return { superseded: entry.supersededBy };
      const message = translate(isOffline() ? HttpMessage.disconnected : HttpMessage.serverException);
      throw failure(message, 0, { code: 0, msg: message }, show);
    } finally {
      clearTimeout(timer);
    }
    return envelopeOf(raw, prepared.url, show);
  }

  async function refresh(area: Area): Promise<RefreshOutcome> {
    const session = readSession(area);
    let envelope: Envelope | undefined;
    if (session.refreshToken) {
      const prepared = prepare(REFRESH_TOKEN_PATH, { method: 'POST', data: { refreshToken: session.refreshToken } }, session.token, area);
      try {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), timeout);
        try {
          envelope = envelopeOf(await transport(prepared, controller.signal), prepared.url, false);
        } finally {
          clearTimeout(timer);
        }
      } catch {
        envelope = undefined;
      }
    }
    const data = envelope?.data as { type?: unknown; token?: unknown; refresh_token?: unknown } | null | undefined;
    if (envelope?.code === Code.success && typeof data?.token === 'string' && data.token) {
      const target: Area = data.type === 'user-refresh' ? 'user' : data.type === 'admin-refresh' ? 'admin' : area;
      // A refresh token works once: the server answers its successor (a BuildAdmin server, none).
      writeSession(target, { token: data.token, ...(typeof data.refresh_token === 'string' && data.refresh_token ? { refreshToken: data.refresh_token } : {}) });
      return { kind: 'refreshed' };
    }
    // Another tab of this browser used the same refresh token first and stored its successor: that tab's
    // new tokens serve this one too.
    const now = readSession(area);
    if (session.refreshToken && now.refreshToken && now.refreshToken !== session.refreshToken && now.token) return { kind: 'refreshed' };
    clearSession(area);
    const login = loginPath(area, adminBase);
    // Already on the login page: carry on without a token rather than bounce (docs/client.md#the-http-client).
    if (samePath(currentPath(), login)) return { kind: 'replay' };
    const message = envelope?.msg || translate(HttpMessage.loginExpired);
    notify(message, 'error');
    navigate(login);
    return { kind: 'failed', message, body: envelope ?? { code: 0, msg: message } };
  }

  function awaitRefresh(area: Area): Promise<RefreshOutcome> {
    let pending = refreshing.get(area);
    if (!pending) {
      pending = refresh(area).finally(() => refreshing.delete(area));
      refreshing.set(area, pending);
    }
    return pending;
  }

  function handleFailureCode(envelope: Envelope, area: Area, show: boolean): never {
    if (show && envelope.msg) notify(envelope.msg, 'error');
    const data = (typeof envelope.data === 'object' && envelope.data !== null ? envelope.data : {}) as Record<string, unknown>;
    if (envelope.code === Code.redirect) {
      const target = typeof data.routePath === 'string' && data.routePath ? data.routePath : typeof data.routeName === 'string' ? data.routeName : '';
      if (target) navigate(target);
    } else if (envelope.code === Code.loginState) {
      const base = areaBase(area, adminBase);
      if (data.type === LoginStateType.needLogin) {
        clearSession(area);
        navigate(`${base}/login`);
      } else {
        navigate(base);
      }
    }
    throw new HttpError(envelope.msg, 200, envelope);
  }

  async function run(path: string, request: RequestOptions, area: Area, replays: number): Promise<Envelope> {
    // While this area's token is being refreshed every request waits, then goes out with the new token.
    const pending = refreshing.get(area);
    if (pending) {
      const refreshed = await pending;
      // The refresh failed and the user is on the way to the login page: this one need not go out.
      if (refreshed.kind === 'failed') throw new HttpError(refreshed.message, 200, refreshed.body);
    }
    const show = request.showErrorMessage !== false;
    const token = readSession(area).token;
    const prepared = prepare(path, request, token, area);

    // Identical requests in flight: the older is cancelled and adopts the newer one's outcome (docs/client.md#the-http-client).
    const entry: InFlight = { controller: new AbortController() };
    const key = prepared.upload ? undefined : JSON.stringify([prepared.method, prepared.url, request.data ?? null, area, token]);
    const older = key === undefined ? undefined : inFlight.get(key);
    if (key !== undefined) inFlight.set(key, entry);

    const outcome: Promise<Envelope> = (async () => {
      let result: Envelope | { superseded: Promise<Envelope> };
      try {
        result = await exchange(prepared, show, entry);
      } finally {
        if (key !== undefined && inFlight.get(key) === entry) inFlight.delete(key);
      }
      if ('superseded' in result) return result.superseded;
      const envelope = result;
      if (envelope.code === Code.success) {
        if (request.showSuccessMessage) {
          const message = typeof request.showSuccessMessage === 'string' ? request.showSuccessMessage : envelope.msg || translate(HttpMessage.operationSuccessful);
          notify(message, 'success');
        }
        return envelope;
      }
      if (envelope.code === Code.tokenExpired && replays < MAX_REPLAYS) {
        const now = readSession(area).token;
        if (now !== token) {
          // The session changed while this request was out. Refreshed: replay with the new token.
          // Cleared by a failed refresh (which already said so and went to the login): give up quietly.
          if (!now && !samePath(currentPath(), loginPath(area, adminBase))) {
            const message = translate(HttpMessage.loginExpired);
            throw new HttpError(message, 200, { code: 0, msg: message });
          }
          return run(path, request, area, replays + 1);
        }
        const refreshed = await awaitRefresh(area);
        if (refreshed.kind === 'failed') throw new HttpError(refreshed.message, 200, refreshed.body);
        return run(path, request, area, replays + 1);
      }
      return handleFailureCode(envelope, area, show);
    })();

    if (older) {
      older.supersededBy = outcome;
      console.debug(`[http] cancelled a duplicate request: ${prepared.method} ${prepared.url}`);
      older.controller.abort();
    }
    return outcome;
  }

  async function download(path: string, request: Pick<RequestOptions, 'params' | 'area'>, area: Area, replays: number): Promise<DownloadedFile> {
    const pending = refreshing.get(area);
    if (pending) await pending;
    const token = readSession(area).token;
    const prepared = prepare(path, { params: request.params }, token, area);
    let response: Response;
    try {
      response = await fetchImpl(absolute(prepared.url), { method: 'GET', headers: prepared.headers });
    } catch {
      const message = translate(isOffline() ? HttpMessage.disconnected : HttpMessage.serverException);
      throw failure(message, 0, { code: 0, msg: message }, true);
    }
    if (!(response.headers.get('content-type') ?? '').includes('application/json') && response.ok) {
      const disposition = response.headers.get('content-disposition') ?? '';
      return { blob: await response.blob(), fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? '' };
    }
    const envelope = envelopeOf({ status: response.status, text: await response.text() }, prepared.url, true);
    if (envelope.code === Code.tokenExpired && replays < MAX_REPLAYS) {
      const refreshed = readSession(area).token !== token ? { kind: 'refreshed' as const } : await awaitRefresh(area);
      if (refreshed.kind === 'failed') throw new HttpError(refreshed.message, 200, refreshed.body);
      return download(path, request, area, replays + 1);
    }
    return handleFailureCode(envelope, area, true);
  }

  return {
    request<T = unknown>(path: string, request: RequestOptions = {}): Promise<Envelope<T>> {
      const area = request.area ?? areaOfPath(currentPath(), adminBase);
      return run(path, request, area, 0) as Promise<Envelope<T>>;
    },
    download(path, request = {}) {
      return download(path, request, request.area ?? areaOfPath(currentPath(), adminBase), 0);
    },
  };
}
