import type { AppContext, RequestContext } from '../app-context.js';
import { LANGUAGES, type Language } from '../../contract/headers.js';
import { readStoredText, storedMessage, type StoredParam } from '../stored-text.js';
import { sql } from 'kysely';
import type { Row } from '../../schema/definition.js';
import { Code } from '../../contract/codes.js';
import { nowSeconds } from '../clock.js';
import { ApiError } from '../errors.js';
import { isSecretName, redactedUrl } from './log-redaction.js';

/** The log keeps a summary of the request, never the whole of a large one (anyone may post to login). */
const LOG_DATA_LIMIT = 8 * 1024;

interface SummaryLimits {
  text: number;
  items: number;
}

/** Ever tighter summaries, tried in turn until one fits in `LOG_DATA_LIMIT`. */
const SUMMARIES: readonly SummaryLimits[] = [{ text: 500, items: 50 }, { text: 100, items: 20 }, { text: 20, items: 5 }];
const MAX_DEPTH = 4;

/** The request address for the log: secrets in its query (`batoken` of an event stream) masked as `***`. */
function loggedUrl(url: string): string {
  return redactedUrl(url.replace(/%00/gi, '')).slice(0, 1500);
}

/**
 * Whether a value is masked: under a secret name, under a name the request's fields or items declare
 * secret by their type, or the `value` of an item that is a password or is named like a secret
 * (`{name: "sms_api_key", value: …}`, `{type: "password", value: …}`).
 */
function isSecretEntry(key: string, owner: Row, typed: ReadonlySet<string>): boolean {
  if (isSecretName(key) || typed.has(key)) return true;
  if (key !== 'value') return false;
  const name = owner.name ?? owner.key;
  return owner.type === 'password' || (typeof name === 'string' && (isSecretName(name) || typed.has(name)));
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length})` : text;
}

/**
 * Request data for the log: secrets (`isSecretEntry`) masked as `***` at every depth, long texts cut, at
 * most `items` entries per list or object and a few levels, NUL characters dropped (PostgreSQL refuses them).
 */
function maskSecrets(value: unknown, typed: ReadonlySet<string>, limits: SummaryLimits = SUMMARIES[0], depth = 0): unknown {
  if (typeof value === 'string') return cut(value.replaceAll('\u0000', ''), limits.text);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, limits.items).map((item) => maskSecrets(item, typed, limits, depth + 1));
    return value.length > limits.items ? [...items, `…(${value.length})`] : items;
  }
  const owner = value as Row;
  const entries = Object.entries(owner);
  const kept = entries
    .slice(0, limits.items)
    .map(([key, item]) => [cut(key.replaceAll('\u0000', ''), limits.text), isSecretEntry(key, owner, typed) ? '***' : maskSecrets(item, typed, limits, depth + 1)]);
  if (entries.length > limits.items) kept.push(['…', entries.length]);
  return Object.fromEntries(kept);
}

/** The logged request data: the first summary that fits, always valid JSON of at most `LOG_DATA_LIMIT`. */
function logData(params: Row, typed: ReadonlySet<string>): string {
  for (const limits of SUMMARIES) {
    const text = JSON.stringify(maskSecrets(params, typed, limits));
    if (text.length <= LOG_DATA_LIMIT) return text;
  }
  return JSON.stringify({ '…': Object.keys(params).length });
}

/**
 * Admin writes (POST/DELETE) are logged, except reads that happen to be POSTs and logout
 * (docs/wire-contract.md#side-effects-of-admin-writes), and a write refused only because its token had
 * expired (409): the back office refreshes the token and sends it again, and that one is the write.
 */
export function shouldLog(ctx: RequestContext, outcome: unknown): boolean {
  if (outcome instanceof ApiError && outcome.code === Code.tokenExpired) return false;
  return ctx.area === 'admin' && (ctx.method === 'POST' || ctx.method === 'DELETE') && !['select', 'index', 'logout'].includes(ctx.action);
}

/** The longest title a log row keeps (`schemas/system/admin_log.json`). */
const TITLE_LIMIT = 255;

/**
 * A rule's title in every language as a message parameter: the back office's name for it in each (as the
 * menus read), or as stored where an administrator wrote their own, a plain text when all are the same.
 */
function ruleTitleParam(ctx: RequestContext, rule: { name: string; title: string; type: string }): StoredParam {
  const texts = Object.fromEntries(LANGUAGES.map((lang) => [lang, ctx.app.ruleTitles.shownTitleIn(lang, 'admin_rule', rule)]));
  return new Set(Object.values(texts)).size === 1 ? rule.title : { texts };
}

/**
 * The log row's title, stored free of any language (`src/server/stored-text.ts`) and put into words in the
 * reader's language when the log is read: the action's own title (a server message key such as "Login"),
 * else the titles of its menu and button rules in every language.
 */
async function titleOf(ctx: RequestContext): Promise<string> {
  if (ctx.logTitle) return storedMessage(ctx.logTitle, [], TITLE_LIMIT);
  const path = ctx.controller.path.toLowerCase();
  const rows = await ctx.app.db
    .selectFrom('admin_rule')
    .select(['name', 'title', 'type'])
    .where(sql`lower(name)`, 'in', [path, `${path}/${ctx.action}`])
    .execute();
  const menu = rows.find((row) => row.name.toLowerCase() === path);
  const button = rows.find((row) => row.name.toLowerCase() === `${path}/${ctx.action}`);
  if (menu && button) return storedMessage('%s-%s', [ruleTitleParam(ctx, menu), ruleTitleParam(ctx, button)], TITLE_LIMIT);
  if (menu) return storedMessage('%s', [ruleTitleParam(ctx, menu)], TITLE_LIMIT);
  return storedMessage('Unknown(%s)', [ctx.action.slice(0, 100)], TITLE_LIMIT);
}

/** A log row's title in `lang`: a stored message in words; a title stored as text (rows written before) as it is. */
export function adminLogTitleIn(app: AppContext, lang: Language, stored: unknown): string {
  return readStoredText(stored, lang, app.messages);
}

/** Names secret by their type: the resource's password and write-only fields, and what the action named (`logSecrets`). */
function typedSecrets(ctx: RequestContext): Set<string> {
  const fields = ctx.controller.resource?.fields ?? [];
  const secret = fields.filter((field) => field.writeOnly || field.ui.widget === 'password').map((field) => field.name);
  return new Set([...secret, ...(ctx.logSecrets ?? [])]);
}

export async function writeAdminLog(ctx: RequestContext): Promise<void> {
  const identity = ctx.identity?.area === 'admin' ? ctx.identity : undefined;
  const username = identity?.username ?? (typeof ctx.params.username === 'string' ? ctx.params.username.replaceAll('\u0000', '') : 'Unknown');
  await ctx.app.db
    .insertInto('admin_log')
    .values({
      admin_id: identity?.id ?? 0,
      username: username.slice(0, 20),
      url: loggedUrl(ctx.request.url),
      title: await titleOf(ctx),
      data: logData(ctx.params, typedSecrets(ctx)),
      ip: ctx.ip.slice(0, 50),
      request_id: ctx.request.id.slice(0, 128),
      useragent: ctx.userAgent.slice(0, 255),
      create_time: nowSeconds(),
    })
    .execute();
}
