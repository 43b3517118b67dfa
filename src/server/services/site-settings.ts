import { isIP } from 'node:net';
import {
  CLEAR_SECRETS_KEY, decodeConfigValue, decodeDictionary, durationBoundsOf, JSON_ARRAY_TYPES, rulesOf, type ConfigGroup, type ConfigIndex, type ConfigItem, type ConfigOverride,
} from '../../contract/config-values.js';
import { durationText } from '../../contract/durations.js';
import { createAjv } from '../../schema/ajv.js';
import type { Row } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import type { Db } from '../db/connection.js';
import { errors } from '../errors.js';
import type { Translate } from '../i18n.js';
import { sendMail, type SmtpSettings } from '../mail/smtp.js';
import { mailRoute, reasonOf, recordChannelCheck } from './code-channels.js';
import { parseByteSize, type Settings } from '../settings.js';
import { UPLOAD_MAX_SIZE_LIMIT } from '../uploads/upload-settings.js';
import { configOverride } from './config-overrides.js';
import { POINTS_EXCHANGE_BOUNDS } from './points-exchange.js';

/**
 * Site settings (the `config` table): reading them grouped for the settings screen, saving any subset
 * with each value checked and stored by its item's type, the initial value of a new item, and a test
 * mail with unsaved mail settings. Items are read through `ConfigStore`'s cache, so every change here
 * clears it.
 */

interface StoredItem {
  id: number;
  name: string;
  group: string | null;
  title: string | null;
  tip: string | null;
  type: string | null;
  value: string | null;
  content: string | null;
  rule: string | null;
  extend: string | null;
  allow_del: number | null;
  weigh: number | null;
}

const GROUP_KEY = /^[a-zA-Z][a-zA-Z0-9_]{0,29}$/;
/** the `email` format every schema field uses */
const isEmail = createAjv({ coerce: false }).compile({ type: 'string', format: 'email' });
const MAX_VALUE_LENGTH = 65_535;

export async function storedItems(db: Db): Promise<StoredItem[]> {
  return await db.selectFrom('config').selectAll().orderBy('weigh', 'desc').orderBy('id', 'asc').execute();
}

function keyValueList(value: unknown): { key: string; value: string }[] {
  return Array.isArray(value)
    ? value.filter((item): item is Row => !!item && typeof item === 'object').map((item) => ({ key: String(item.key ?? ''), value: String(item.value ?? '') }))
    : [];
}

/** The `{key, value}` rows of a key/value item (`config_group`, `config_quick_entrance`). */
export function keyValueItem(items: readonly StoredItem[], name: string): { key: string; value: string }[] {
  return keyValueList(decodeConfigValue('array', items.find((item) => item.name === name)?.value));
}

/** A dictionary's labels in the reader's language (a label without a translation stays as stored). */
function translatedDictionary(dictionary: Record<string, string> | '', t: Translate): Record<string, string> | '' {
  return dictionary === '' ? '' : Object.fromEntries(Object.entries(dictionary).map(([value, label]) => [value, t(label)]));
}

function overrideOf(settings: Settings, name: string): { override?: ConfigOverride } {
  const override = configOverride(settings, name);
  return override ? { override } : {};
}

/** The items grouped as the settings screen shows them, titles in the reader's language; passwords never sent back. */
export async function settingsIndex(db: Db, settings: Settings, t: Translate): Promise<ConfigIndex> {
  const items = await storedItems(db);
  const groups = keyValueItem(items, 'config_group');
  const list: Record<string, ConfigGroup> = {};
  const configGroup: Record<string, string> = {};
  for (const group of groups) {
    const title = t(group.value);
    configGroup[group.key] = title;
    const rows = items.filter((item) => item.group === group.key).map((item): ConfigItem => {
      const type = item.type ?? 'string';
      return {
        id: Number(item.id),
        name: item.name,
        group: group.key,
        title: t(item.title ?? item.name),
        tip: item.tip ? t(item.tip) : '',
        type,
        // a password is never sent back: the screen shows it empty and keeps it when left so
        value: type === 'password' ? '' : decodeConfigValue(type, item.value),
        ...(type === 'password' ? { isSet: (item.value ?? '') !== '' } : {}),
        ...overrideOf(settings, item.name),
        content: translatedDictionary(decodeDictionary(type, item.content), t),
        rule: item.rule ?? '',
        extend: item.extend ?? '',
        allow_del: Number(item.allow_del ?? 0),
        weigh: Number(item.weigh ?? 0),
      };
    });
    list[group.key] = rows.length > 0 ? { name: group.key, title, list: rows } : { name: group.key, title };
  }
  const quickEntrance = keyValueItem(items, 'config_quick_entrance');
  return { list, remark: '', configGroup, quickEntrance };
}

const invalid = (field: string, title: string) => errors.validation({ field, message: '%s has an invalid format', params: [title] });

function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** A wire value → the text stored for an item of this type; throws the item's validation error. */
function encodeValue(item: StoredItem, value: unknown): string {
  const type = item.type ?? 'string';
  const title = item.title ?? item.name;
  const fail = () => invalid(item.name, title);
  const rules = rulesOf(item.rule);
  if (rules.includes('required') && isEmptyValue(value)) throw errors.validation({ field: item.name, message: '%s cannot be empty', params: [title] });
  const dictionary = decodeDictionary(type, item.content);
  const inDictionary = (choice: unknown) => dictionary === '' || Object.hasOwn(dictionary, String(choice));

  let stored: string;
  switch (type) {
    case 'switch':
      if (![true, false, 1, 0, '1', '0', 'true', 'false'].includes(value as never)) throw fail();
      stored = value === true || value === 1 || value === '1' || value === 'true' ? '1' : '0';
      break;
    case 'array': {
      if (!Array.isArray(value) || !value.every((row) => row && typeof row === 'object' && typeof row.key === 'string' && typeof row.value === 'string')) throw fail();
      stored = JSON.stringify(keyValueList(value).filter((row) => row.key.trim() !== ''));
      break;
    }
    case 'checkbox':
    case 'selects':
      if (!Array.isArray(value) || !value.every((choice) => (typeof choice === 'string' || typeof choice === 'number') && inDictionary(choice))) throw fail();
      stored = JSON.stringify(value.map(String));
      break;
    case 'city':
    case 'remoteSelects':
    case 'images':
    case 'files':
      if (typeof value === 'string') stored = value;
      else if (Array.isArray(value) && value.every((part) => typeof part === 'string' || typeof part === 'number')) stored = value.join(',');
      else throw fail();
      break;
    case 'number':
      if (value === '' || value === null) stored = '';
      else if ((typeof value === 'number' || typeof value === 'string') && Number.isFinite(Number(value)) && String(value).trim() !== '') stored = String(Number(value));
      else throw fail();
      break;
    case 'time': {
      const match = typeof value === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(value) : null;
      if (value === '') stored = '';
      else if (match) stored = `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
      else throw fail();
      break;
    }
    default:
      if (typeof value === 'number') stored = String(value);
      else if (typeof value === 'string') stored = value;
      else if (value === null) stored = '';
      else throw fail();
      if ((type === 'radio' || type === 'select') && stored !== '' && !inDictionary(stored)) throw fail();
  }
  if (stored.length > MAX_VALUE_LENGTH) throw fail();
  if (rules.includes('email') && stored !== '' && !isEmail(stored)) throw errors.validation({ field: item.name, message: 'Please enter the correct email address', params: [title] });
  return stored;
}

/**
 * The password items an `edit` asks to empty (`clearSecrets: [name…]`): absent means none; anything but
 * a list of password items' names is refused, so a typo cannot silently keep a secret the admin meant
 * to remove.
 */
function secretsToClear(items: readonly StoredItem[], requested: unknown): Set<string> {
  if (requested === undefined || requested === null || requested === '') return new Set();
  const names = Array.isArray(requested) ? requested : [requested];
  const passwords = new Set(items.filter((item) => item.type === 'password').map((item) => item.name));
  for (const name of names) {
    if (typeof name !== 'string' || !passwords.has(name)) throw errors.validation({ field: CLEAR_SECRETS_KEY, message: 'Only a password item can be cleared', params: [] });
  }
  return new Set(names as string[]);
}

/** Items whose value the rest of the system depends on. */
async function checkSpecial(app: AppContext, item: StoredItem, stored: string, items: StoredItem[]): Promise<void> {
  const duration = durationBoundsOf(item.name);
  if (duration && !(/^\d{1,10}$/.test(stored) && Number(stored) >= duration.min && Number(stored) <= duration.max)) {
    // the bounds in words, as the screen's unit picker reads them ("1 minute", "30 days")
    const words = (seconds: number) => ({ 'zh-cn': durationText(seconds, 'zh-cn'), en: durationText(seconds, 'en') });
    throw errors.validation({ field: item.name, message: '%s must last from %s to %s', params: [item.title ?? item.name, words(duration.min), words(duration.max)] });
  }
  switch (item.name) {
    case 'points_exchange_rate':
    case 'points_exchange_min':
    case 'points_exchange_daily': {
      const bounds = POINTS_EXCHANGE_BOUNDS[item.name];
      const value = Number(stored);
      if (stored === '' || !Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
        throw errors.validation({ field: item.name, message: '%s must be a whole number from %s to %s', params: [item.title ?? item.name, String(bounds.min), String(bounds.max)] });
      }
      return;
    }
    case 'payout_min':
      // yuan with at most two decimals, from one cent to the most an amount column holds
      if (!/^\d{1,10}(\.\d{1,2})?$/.test(stored) || Number(stored) < 0.01) {
        throw errors.validation({ field: item.name, message: '%s must be an amount in yuan of at least 0.01, with at most two decimals', params: [item.title ?? item.name] });
      }
      return;
    case 'upload_max_size': {
      const bytes = parseByteSize(stored);
      if (bytes === undefined || bytes > UPLOAD_MAX_SIZE_LIMIT) {
        throw errors.validation({ field: item.name, message: '%s must be a size such as 10mb, at most 1gb', params: [item.title ?? item.name] });
      }
      return;
    }
    case 'time_zone':
      try {
        new Intl.DateTimeFormat('en', { timeZone: stored });
      } catch {
        throw errors.validation({ field: item.name, message: 'Unknown time zone: %s', params: [stored] });
      }
      return;
    case 'backend_entrance':
      if (stored !== app.settings.adminEntrance) throw errors.validation({ field: item.name, message: 'The back-office entrance is set when the server starts and cannot be changed here', params: [] });
      return;
    case 'config_group': {
      const keys = keyValueList(JSON.parse(stored)).map((row) => row.key);
      if (!keys.every((key) => GROUP_KEY.test(key)) || new Set(keys).size !== keys.length) throw invalid(item.name, item.title ?? item.name);
      const orphaned = items.find((other) => other.group && !keys.includes(other.group));
      if (orphaned) throw errors.validation({ field: item.name, message: 'The group %s still holds config items', params: [orphaned.group ?? ''] });
      break;
    }
  }
}

/**
 * `{<name>: <value>}` for any subset of items: each value checked and stored by its item's type, all or
 * none; the config cache is cleared after.
 */
export async function saveSettings(app: AppContext, values: Row): Promise<void> {
  const items = await storedItems(app.db);
  const cleared = secretsToClear(items, values[CLEAR_SECRETS_KEY]);
  const changes: { item: StoredItem; stored: string }[] = [];
  for (const item of items) {
    if (cleared.has(item.name) && isEmptyValue(values[item.name])) {
      if ((item.value ?? '') !== '') changes.push({ item, stored: '' });
      continue;
    }
    if (!Object.hasOwn(values, item.name)) continue;
    const value = values[item.name];
    // an empty password field means "keep it"; clearing is asked for by name (CLEAR_SECRETS_KEY)
    if (item.type === 'password' && isEmptyValue(value)) continue;
    const stored = encodeValue(item, value);
    await checkSpecial(app, item, stored, items);
    if (stored !== (item.value ?? '')) changes.push({ item, stored });
  }
  await app.db.transaction().execute(async (trx) => {
    for (const { item, stored } of changes) await trx.updateTable('config').set({ value: stored }).where('id', '=', item.id).execute();
  });
  app.config.invalidate();
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * `{smtp_server, smtp_port, smtp_user, smtp_pass, smtp_verification, smtp_sender_mail, testMail}`: send a
 * test mail with the settings as typed on the screen, saved or not (an empty password means the stored
 * one), in the reader's language. Each value is checked as a save checks it, plus what connecting needs.
 */
export async function sendTestMail(app: AppContext, values: Row, t: Translate): Promise<void> {
  const items = new Map((await storedItems(app.db)).map((item) => [item.name, item]));
  /** A setting from the request, checked as `edit` checks it, then by `usable`. */
  const setting = (name: string, usable: (value: string) => boolean = (value) => value !== ''): string => {
    const item = items.get(name);
    if (!item) throw errors.parameterError();
    const title = item.title ?? name;
    const given = values[name];
    // an empty password field means "the stored one", as on `edit`
    const value = name === 'smtp_pass' && isEmptyValue(given) ? item.value ?? '' : encodeValue(item, given ?? '').trim();
    if (usable(value)) return value;
    throw value === '' ? errors.validation({ field: name, message: '%s cannot be empty', params: [title] }) : invalid(name, title);
  };
  const anything = () => true;
  const smtp: SmtpSettings = {
    server: setting('smtp_server', (value) => isIP(value) !== 0 || HOST_NAME.test(value)),
    port: Number(setting('smtp_port', (value) => /^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65_535)),
    user: setting('smtp_user', anything),
    pass: setting('smtp_pass', anything),
    verification: setting('smtp_verification', (value) => value === 'SSL' || value === 'TLS') as SmtpSettings['verification'],
    sender: setting('smtp_sender_mail', (value) => isEmail(value)),
  };
  const to = values.testMail;
  if (typeof to !== 'string' || !isEmail(to)) throw errors.validation({ field: 'testMail', message: 'Please enter the correct email address', params: [] });

  const site = (await app.config.get('site_name')) || 'Chidao';
  // the outcome is kept for these settings: mail codes are offered once they are saved, if it got through
  try {
    await sendMail(smtp, { to, subject: t('Test mail from %s', [site]), text: t('This mail was sent from %s to test its mail settings. They work.', [site]) }, app.settings.smtpTrustedCa);
  } catch (error) {
    await recordChannelCheck(app, 'email', mailRoute(app, smtp), { delivered: false, by: 'test', detail: reasonOf(error) });
    throw errors.testMailFailed(reasonOf(error));
  }
  await recordChannelCheck(app, 'email', mailRoute(app, smtp), { delivered: true, by: 'test' });
}

/** `key=value` lines (the add form's dictionary) or a JSON object → the stored JSON dictionary. */
export function dictionaryText(content: unknown): string | null {
  if (content === undefined || content === null || content === '') return null;
  if (typeof content === 'object' && !Array.isArray(content)) return JSON.stringify(content);
  const text = String(content).trim();
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return JSON.stringify(parsed);
  } catch {
    // not JSON: `key=value` lines
  }
  const pairs = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).map((line) => {
    const at = line.indexOf('=');
    return at < 0 ? [line, line] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
  });
  return JSON.stringify(Object.fromEntries(pairs));
}

/**
 * The initial value of an item being added, typed as text on the add form: checked against the new
 * item's type, dictionary and rules, and stored as `edit` would store it.
 */
export function initialValue(values: Row): string {
  const type = String(values.type ?? 'string');
  const text = values.value === null || values.value === undefined ? '' : String(values.value);
  if (JSON_ARRAY_TYPES.has(type) && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed)) throw invalid('value', 'Value');
  }
  const item: StoredItem = {
    id: 0, name: 'value', group: null, title: 'Value', tip: null, type, value: null,
    content: typeof values.content === 'string' ? values.content : null, rule: String(values.rule ?? ''), extend: null, allow_del: 1, weigh: 0,
  };
  return encodeValue(item, decodeConfigValue(type, text));
}
