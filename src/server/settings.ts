import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_ADMIN_ENTRANCE } from '../contract/headers.js';
import { AddressList } from './address-list.js';
import { messageOf } from '../contract/checks.js';

/** Process settings from the environment (`docs/configuration.md#environment-variables`). */
export interface Settings {
  host: string;
  port: number;
  databaseUrl: string;
  adminPassword?: string;
  /** override of the `admin_login_captcha` config switch */
  adminLoginCaptcha?: boolean;
  userLoginCaptcha?: boolean;
  allowDestructiveMigrations: boolean;
  tokenSecret?: string;
  adminEntrance: string;
  projectRoot: string;
  /** absolute directory served at `/storage/`: uploads land in `<storageDir>/<topic>/<YYYYMMDD>/` */
  storageDir: string;
  /** `UPLOAD_MAX_SIZE` in bytes: overrides the `upload_max_size` config item while set */
  uploadMaxSize?: number;
  /** uploads per minute and member (`UPLOAD_RATE_LIMIT`); 0 = off */
  uploadRateLimit: number;
  /** bytes a member may store by uploads per day of the site's calendar (`UPLOAD_DAILY_QUOTA`); 0 = off */
  uploadDailyQuota: number;
  /** API GET/HEAD requests per minute and client IP (docs/wire-contract.md#get-throttle); 0 turns the throttle off */
  apiGetRateLimit: number;
  /** how long site configuration rows are cached, in ms; 0 reads them at every use */
  configCacheMs: number;
  /** every background job's slot length in seconds instead of its own schedule (`JOB_SLOT_SECONDS`; tests, demonstrations) */
  jobSlotSeconds?: number;
  /** PEM certificates trusted for the mail server besides the system's (an internal CA), from `SMTP_CA_FILE` */
  smtpTrustedCa?: string;
  /** proxies whose X-Forwarded-For gives the client address: addresses/CIDRs, `loopback`, or true for any */
  trustProxy: string | boolean;
  /**
   * This site's public origin (`PUBLIC_URL`, e.g. `https://panel.example.com`): what a provider signs when its
   * signature covers the whole URL, and the start of the addresses handed to providers. Empty: the scheme and
   * host of each request, as the proxies `TRUST_PROXY` trusts report them.
   */
  publicUrl: string;
  /** which verification codes members can use (`ACCOUNT_VERIFICATION`, default both) */
  accountVerification: ('email' | 'mobile')[];
  /** how SMS leave: `aliyun` sends through Dysms, `outbox` (development) keeps them in the `sms_outbox` table, `none` sends none */
  sms: SmsSettings;
  /** sources the pages may frame besides the site itself (`CSP_FRAME_SRC`): the iframe menu items' hosts */
  cspFrameSrc: string[];
  /** logins, and separately code requests, per minute and client address (`AUTH_RATE_LIMIT`); 0 = off */
  authRateLimit: number;
  /** whether the back office's web terminal runs its whitelisted commands (`TERMINAL`, on unless `off`) */
  terminal: boolean;
  /** who may read `/metrics` (`docs/configuration.md#health-metrics-and-logs`); neither set: the endpoint is off */
  metrics: MetricsAccess;
}

export interface MetricsAccess {
  /** `METRICS_TOKEN`: the bearer token a scraper sends */
  token?: string;
  /** `METRICS_ALLOW`: addresses and CIDR ranges a scraper may come from, as `address-list.ts` reads them */
  allow?: string;
}

/** Shorter tokens are refused at start: the token is all that guards the endpoint from the internet. */
const MIN_METRICS_TOKEN_LENGTH = 16;

function metricsAccess(env: NodeJS.ProcessEnv): MetricsAccess {
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && (token.length < MIN_METRICS_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token))) {
    throw new Error(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} printable characters without spaces`);
  }
  const allow = env.METRICS_ALLOW?.trim() || undefined;
  const unreadable = allow === undefined ? [] : AddressList.unreadableEntries(allow);
  if (unreadable.length > 0) throw new Error(`METRICS_ALLOW lists addresses or CIDR ranges, got "${unreadable.join('", "')}"`);
  return { token, allow };
}

export interface SmsSettings {
  driver: 'none' | 'outbox' | 'aliyun';
  aliyunAccessKeyId: string;
  aliyunAccessKeySecret: string;
  aliyunSignName: string;
  /** Dysms endpoint; a test points it at a local fake */
  aliyunEndpoint: string;
}

function verificationTypes(value: string | undefined): ('email' | 'mobile')[] {
  if (value === undefined) return ['email', 'mobile'];
  const types = value.split(',').map((type) => type.trim()).filter((type) => type !== '');
  for (const type of types) if (type !== 'email' && type !== 'mobile') throw new Error(`ACCOUNT_VERIFICATION lists email and/or mobile, got "${value}"`);
  return [...new Set(types)] as ('email' | 'mobile')[];
}

function smsSettings(env: NodeJS.ProcessEnv): SmsSettings {
  // The outbox is asked for by name: a site left unset sends no SMS rather than keeping codes where admins read them.
  const driver = env.SMS_DRIVER || 'none';
  if (driver !== 'none' && driver !== 'outbox' && driver !== 'aliyun') throw new Error(`SMS_DRIVER must be aliyun, outbox or none, got "${driver}"`);
  const settings: SmsSettings = {
    driver,
    aliyunAccessKeyId: env.ALIYUN_SMS_ACCESS_KEY_ID ?? '',
    aliyunAccessKeySecret: env.ALIYUN_SMS_ACCESS_KEY_SECRET ?? '',
    aliyunSignName: env.ALIYUN_SMS_SIGN_NAME ?? '',
    aliyunEndpoint: env.ALIYUN_SMS_ENDPOINT || 'https://dysmsapi.aliyuncs.com/',
  };
  if (driver === 'aliyun' && (!settings.aliyunAccessKeyId || !settings.aliyunAccessKeySecret || !settings.aliyunSignName)) {
    throw new Error('SMS_DRIVER=aliyun needs ALIYUN_SMS_ACCESS_KEY_ID, ALIYUN_SMS_ACCESS_KEY_SECRET and ALIYUN_SMS_SIGN_NAME');
  }
  return settings;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };

/** `10mb`, `512k`, `2048` (bytes): units b/k/kb/m/mb/g/gb are powers of 1024, as BuildAdmin's `max_size`. */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? SIZE_UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * unit);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

function flag(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return !['false', '0', 'no', 'off'].includes(value.toLowerCase());
}

const DEFAULT_UPLOAD_DAILY_QUOTA = 200 * 1024 * 1024;

/** A size in bytes from the variable `name`, undefined when unset. */
function optionalByteSize(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const bytes = parseByteSize(value);
  if (bytes === undefined) throw new Error(`${name} must be a size such as 10mb or 2048, got "${value}"`);
  return bytes;
}

/** A size in bytes from the variable `name`, `fallback` when unset. */
function byteSize(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return optionalByteSize(env, name) ?? fallback;
}

/** A whole number ≥ 0 from the variable `name`, `fallback` when unset; `meaning` explains it in the error. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, meaning: string): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new Error(`${name} must be a whole number of ${meaning}, got "${value}"`);
  return number;
}

function pemFile(name: string, path: string | undefined, projectRoot: string): string | undefined {
  if (!path) return undefined;
  let text: string;
  try {
    text = readFileSync(resolve(projectRoot, path), 'utf8');
  } catch (error) {
    throw new Error(`${name}: cannot read "${path}" (${messageOf(error)})`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${name}: "${path}" holds no PEM certificate`);
  return text;
}

/** `https://panel.example.com` (a trailing `/` dropped), or '' when unset; anything else stops start-up. */
function publicOrigin(value: string | undefined): string {
  const text = (value ?? '').trim().replace(/\/$/, '');
  if (text === '') return '';
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== text) {
    throw new Error(`PUBLIC_URL must be this site's origin, a scheme and host such as https://panel.example.com, got "${value}"`);
  }
  return text;
}

/** `https://a.example https://b.example` (spaces or commas): each an origin, a scheme such as `https:`, or a host pattern. */
function frameSources(value: string | undefined): string[] {
  const sources = (value ?? '').split(/[\s,]+/).filter(Boolean);
  for (const source of sources) {
    if (!/^(https?:|(https?:\/\/)?(\*\.)?[a-z0-9.-]+(:\d+)?)$/i.test(source)) throw new Error(`CSP_FRAME_SRC: "${source}" is not an origin, a host or a scheme`);
  }
  return sources;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv, projectRoot: string): Settings {
  const port = Number(env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    databaseUrl: env.DATABASE_URL || 'sqlite:data/app.db',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    adminLoginCaptcha: flag(env.ADMIN_LOGIN_CAPTCHA),
    userLoginCaptcha: flag(env.USER_LOGIN_CAPTCHA),
    allowDestructiveMigrations: flag(env.ALLOW_DESTRUCTIVE_MIGRATIONS) ?? false,
    tokenSecret: env.TOKEN_SECRET || undefined,
    adminEntrance: DEFAULT_ADMIN_ENTRANCE,
    projectRoot,
    storageDir: resolve(projectRoot, env.STORAGE_DIR || 'data/storage'),
    uploadMaxSize: optionalByteSize(env, 'UPLOAD_MAX_SIZE'),
    uploadRateLimit: wholeNumber(env, 'UPLOAD_RATE_LIMIT', 20, 'uploads per minute (0 = off)'),
    uploadDailyQuota: byteSize(env, 'UPLOAD_DAILY_QUOTA', DEFAULT_UPLOAD_DAILY_QUOTA),
    apiGetRateLimit: wholeNumber(env, 'API_GET_RATE_LIMIT', 120, 'requests per minute (0 = off)'),
    configCacheMs: wholeNumber(env, 'CONFIG_CACHE_MS', 5_000, 'milliseconds (0 = no cache)'),
    jobSlotSeconds: wholeNumber(env, 'JOB_SLOT_SECONDS', 0, 'seconds (0 = each job its own schedule)') || undefined,
    smtpTrustedCa: pemFile('SMTP_CA_FILE', env.SMTP_CA_FILE, projectRoot),
    trustProxy: env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY === 'false' ? false : env.TRUST_PROXY || 'loopback',
    publicUrl: publicOrigin(env.PUBLIC_URL),
    accountVerification: verificationTypes(env.ACCOUNT_VERIFICATION),
    sms: smsSettings(env),
    cspFrameSrc: frameSources(env.CSP_FRAME_SRC),
    authRateLimit: wholeNumber(env, 'AUTH_RATE_LIMIT', 10, 'attempts per minute (0 = off)'),
    terminal: flag(env.TERMINAL) ?? true,
    metrics: metricsAccess(env),
  };
}
