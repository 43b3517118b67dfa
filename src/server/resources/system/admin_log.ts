import { sql, type SqlBool } from 'kysely';
import type { AppContext, ResourceHooks } from '../../app-context.js';
import type { Condition } from '../../db/condition.js';
import { DEFAULT_LANGUAGE } from '../../../contract/headers.js';
import { adminLogTitleIn } from '../../http/admin-log.js';

/** How many message keys a quick search looks for at most (a short term may be part of many texts). */
const MAX_SEARCHED_KEYS = 50;
/** How a title stored as a message begins (`src/server/stored-text.ts`). */
const STORED_MARK = '{"key":';
/** The stored title of a menu's button: its menu's and its button's titles (`http/admin-log.ts`). */
const MENU_BUTTON_KEY = '%s-%s';

/** `text` as a LIKE pattern's literal part (`ESCAPE '\'`). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** `text` as it stands inside a stored title's JSON (quotes and backslashes escaped as JSON writes them). */
function inJson(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The title matches `pattern` (a bound value, never part of the statement), ignoring case. */
function titleLike(app: AppContext, pattern: string): Condition {
  const operator = sql.raw(app.handle.dialect === 'postgres' ? 'ILIKE' : 'LIKE');
  return (eb) => sql<SqlBool>`${eb.ref('title')} ${operator} ${pattern} ESCAPE '\\'`;
}

/** A title stored as the message `key` (`{"key":"Login",…}`). */
function storedAs(app: AppContext, key: string): Condition {
  return titleLike(app, `${likeLiteral(`{"key":${JSON.stringify(key)},`)}%`);
}

/**
 * The rows whose title, as a reader sees it in either language, holds `term`: titles are stored as their
 * message key ("Login", read as 登录) with their parameters (a menu's titles), so those are searched, never
 * the stored form's own words ("key", "%s"): the keys whose words hold the term, the parameters holding it,
 * and for a term spanning a menu's and its button's titles ("管理员日志管理-导出"), rows naming both sides
 * of its dash. A title stored as text (rows written before) is searched as it is.
 */
function shownTitleMatch(app: AppContext, term: string): Condition {
  const keys = app.messages.keysShowing(term, MAX_SEARCHED_KEYS).filter((key) => key !== MENU_BUTTON_KEY && key !== '%s');
  const spans = [...term.matchAll(/-/g)].map((dash) => [term.slice(0, dash.index), term.slice(dash.index + 1)] as const).filter(([menu, button]) => menu !== '' && button !== '');
  const plain: Condition = (eb) => eb.and([eb.not(titleLike(app, `${likeLiteral(STORED_MARK)}%`)(eb)), titleLike(app, `%${likeLiteral(term)}%`)(eb)]);
  const inParams = titleLike(app, `${likeLiteral(STORED_MARK)}%${likeLiteral('"params":[')}%${likeLiteral(inJson(term))}%`);
  const conditions: Condition[] = [
    plain,
    inParams,
    ...keys.map((key) => storedAs(app, key)),
    ...spans.map(([menu, button]): Condition => (eb) => eb.and([storedAs(app, MENU_BUTTON_KEY)(eb), titleLike(app, `%${likeLiteral(inJson(menu))}%`)(eb), titleLike(app, `%${likeLiteral(inJson(button))}%`)(eb)])),
  ];
  return (eb) => eb.or(conditions.map((condition) => condition(eb)));
}

/**
 * The operation log (docs/wire-contract.md#side-effects-of-admin-writes): admins other than super admins see only their
 * own entries, and every title reads in the reader's language, and is found by a quick search for those words.
 */
export const adminLogHooks: ResourceHooks = {
  async present(operator, rows) {
    const lang = operator.lang ?? DEFAULT_LANGUAGE;
    return rows.map((row) => ({ ...row, title: adminLogTitleIn(operator.app, lang, row.title) }));
  },

  quickSearch: shownTitleMatch,

  async scope(operator) {
    const identity = operator.identity;
    if (!identity || identity.isSuper) return undefined;
    return (eb) => eb(eb.ref('admin_id'), '=', identity.id);
  },
};
