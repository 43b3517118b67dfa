import { CODE_CHANNELS, type CodeChannel, type CodeChannelHealth } from '../../contract/code-channels.js';
import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import type { DatabaseHandle } from '../db/connection.js';
import { CODE_CHANNEL_TABLE } from '../db/system-tables.js';
import { configuredSmtp } from '../mail/mail-settings.js';
import type { SmtpSettings } from '../mail/smtp.js';
import type { SmsDriver } from '../sms/sms-message.js';

/**
 * Whether each verification-code channel works (docs/wire-contract.md#code-channels): the outcome of the last
 * message through its settings, a test from the settings screen or a member's code. A channel is offered to
 * members only while the last message through its current settings arrived; settings nobody has tried yet
 * are unchecked, so saving mail settings whose test failed, or never ran, offers nothing.
 */

/** A row of `code_channel_check`, created by `ensureCodeChannelTable` below: one per channel and settings tried. */
interface CodeChannelCheckTable {
  channel: string;
  /** a digest of the settings the message went through (`mailRoute`, an SMS driver's `route`) */
  route: string;
  /** 1 when the last message left the site, 0 when it did not */
  delivered: number;
  /** when a message last left the site through these settings; 0 never */
  delivered_time: number;
  /** `test` or `code` */
  checked_by: string;
  checked_time: number;
  detail: string;
}

declare module '../db/system-tables.js' {
  interface SystemTables {
    [CODE_CHANNEL_TABLE]: CodeChannelCheckTable;
  }
}

const DETAIL_LENGTH = 300;

export async function ensureCodeChannelTable(handle: DatabaseHandle): Promise<void> {
  await handle.db.schema
    .createTable(CODE_CHANNEL_TABLE)
    .ifNotExists()
    .addColumn('channel', 'varchar(16)', (column) => column.notNull())
    .addColumn('route', 'varchar(128)', (column) => column.notNull())
    .addColumn('delivered', 'integer', (column) => column.notNull())
    .addColumn('delivered_time', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('checked_by', 'varchar(8)', (column) => column.notNull())
    .addColumn('checked_time', 'bigint', (column) => column.notNull())
    .addColumn('detail', 'varchar(300)', (column) => column.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('code_channel_check_pk', ['channel', 'route'])
    .execute();
}

/**
 * The route of mail settings: a keyed digest (the password is part of what is tried, and must not be
 * readable from it), the same for the values a test mail took from the form and for the same values saved.
 */
export function mailRoute(app: AppContext, smtp: SmtpSettings): string {
  const parts = [smtp.server.trim().toLowerCase(), String(smtp.port), smtp.user.trim(), smtp.pass, smtp.verification, smtp.sender.trim().toLowerCase()];
  return app.tokens.digest(`mail route\n${JSON.stringify(parts)}`);
}

/** The route of an SMS driver: a digest of what its texts go through, as long as any other route. */
export function smsRoute(app: AppContext, sms: SmsDriver): string {
  return app.tokens.digest(`sms route\n${sms.route}`);
}

/** The route of the channel's current settings; `notSetUp` or `outbox` when no message can go out by it. */
async function currentRoute(app: AppContext, channel: CodeChannel): Promise<{ route: string } | { state: 'notSetUp' | 'outbox' }> {
  if (channel === 'email') {
    const smtp = await configuredSmtp(app);
    return smtp ? { route: mailRoute(app, smtp) } : { state: 'notSetUp' };
  }
  if (!app.sms) return { state: 'notSetUp' };
  return app.sms.sends ? { route: smsRoute(app, app.sms) } : { state: 'outbox' };
}

/** A failed send's reason, as the mail server or SMS service gave it, for the settings screen. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Keeps the outcome of a message through `route`: delivered or not, and why not. */
export async function recordChannelCheck(app: AppContext, channel: CodeChannel, route: string, outcome: { delivered: boolean; by: 'test' | 'code'; detail?: string }): Promise<void> {
  const now = nowSeconds();
  const values = {
    delivered: outcome.delivered ? 1 : 0,
    checked_by: outcome.by,
    checked_time: now,
    detail: (outcome.delivered ? '' : outcome.detail ?? '').slice(0, DETAIL_LENGTH),
    // a failure keeps the time the settings last delivered
    ...(outcome.delivered ? { delivered_time: now } : {}),
  };
  await app.db
    .insertInto(CODE_CHANNEL_TABLE)
    .values({ channel, route, delivered_time: 0, ...values })
    .onConflict((conflict) => conflict.columns(['channel', 'route']).doUpdateSet(values))
    .execute();
}

/** The outcome of a member's code through the channel's current settings (a send that never happened records nothing). */
export async function recordCodeSent(app: AppContext, channel: CodeChannel, delivered: boolean, detail?: string): Promise<void> {
  const current = await currentRoute(app, channel);
  if ('route' in current) await recordChannelCheck(app, channel, current.route, { delivered, by: 'code', detail });
}

export async function channelHealth(app: AppContext, channel: CodeChannel): Promise<CodeChannelHealth> {
  const current = await currentRoute(app, channel);
  if (!('route' in current)) return { channel, state: current.state, checkedTime: null, checkedBy: '', detail: '' };
  const row = await app.db.selectFrom(CODE_CHANNEL_TABLE).selectAll().where('channel', '=', channel).where('route', '=', current.route).executeTakeFirst();
  if (!row) return { channel, state: 'unchecked', checkedTime: null, checkedBy: '', detail: '' };
  return {
    channel,
    state: Number(row.delivered) === 1 ? 'working' : 'failing',
    checkedTime: Number(row.checked_time),
    checkedBy: row.checked_by === 'test' ? 'test' : 'code',
    detail: row.detail,
  };
}

/**
 * Whether a message ever left the site through the channel's current settings, however the last one went.
 * A channel that has worked and then fails is broken, not unset: members cannot use it, but it does not
 * count as "no channel set up" (member-accounts.ts, `registrationWithoutCode`), so a failure a visitor can
 * cause (a code to a number the SMS service refuses) never opens registration without a code.
 */
export async function channelEverDelivered(app: AppContext, channel: CodeChannel): Promise<boolean> {
  const current = await currentRoute(app, channel);
  if (!('route' in current)) return false;
  const row = await app.db.selectFrom(CODE_CHANNEL_TABLE).select('delivered_time').where('channel', '=', channel).where('route', '=', current.route).executeTakeFirst();
  return Number(row?.delivered_time ?? 0) > 0;
}

/** Both channels, mail first. */
export async function channelsHealth(app: AppContext): Promise<CodeChannelHealth[]> {
  return Promise.all(CODE_CHANNELS.map((channel) => channelHealth(app, channel)));
}
