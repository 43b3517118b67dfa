import { randomInt } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import type { Db } from '../db/connection.js';
import { errors } from '../errors.js';

/** Events a code can be sent for (contract §3.6). */
export const EMAIL_EVENTS = ['user_register', 'user_retrieve_pwd', 'user_change_email', 'user_email_verify'] as const;
export const MOBILE_EVENTS = ['user_register', 'user_retrieve_pwd', 'user_change_mobile', 'user_mobile_verify'] as const;

/** The charset of contract §3.6, without look-alike characters. */
const CHARSET = '2345678abcdefhijkmnpqrstuvwxyzABCDEFGHJKLMNPQRTUVWXY';
const CODE_LENGTH = 4;
export const CODE_TTL = 600;
/** one code per address and event per minute (contract §7.5 "Frequent email sending") */
export const RESEND_INTERVAL = 60;
export const CODES_PER_ADDRESS_PER_HOUR = 10;
export const CODES_PER_IP_PER_HOUR = 30;
/** a code dies after this many wrong guesses, so four characters cannot be guessed */
export const MAX_ATTEMPTS = 5;

/**
 * Email and SMS verification codes, one row per code in `verification_code`. Only an HMAC of the code
 * is kept. The hourly limits count rows in the table, so they hold across processes sharing a database.
 */
export class VerificationCodes {
  constructor(private readonly app: AppContext) {}

  private digest(address: string, event: string, code: string): string {
    return this.app.tokens.digest(`code\n${address}\n${event}\n${code.toUpperCase()}`);
  }

  /** Refuses (with a translated error, writing nothing) when the address or IP asked too often. */
  async checkLimits(address: string, event: string, ip: string, db: Db = this.app.db): Promise<void> {
    const now = nowSeconds();
    const count = async (column: 'address' | 'ip', value: string) => {
      const row = (await db
        .selectFrom('verification_code')
        .select((eb) => eb.fn.countAll().as('total'))
        .where(column, '=', value)
        .where('create_time', '>', now - 3600)
        .executeTakeFirst()) as { total: number | string };
      return Number(row.total);
    };
    const latest = (await db
      .selectFrom('verification_code')
      .select('create_time')
      .where('address', '=', address)
      .where('event', '=', event)
      .orderBy('create_time', 'desc')
      .limit(1)
      .executeTakeFirst()) as { create_time: number } | undefined;
    if (latest && now - Number(latest.create_time) < RESEND_INTERVAL) throw errors.codeSentRecently();
    if ((await count('address', address)) >= CODES_PER_ADDRESS_PER_HOUR) throw errors.tooManyCodes();
    if ((await count('ip', ip.slice(0, 50))) >= CODES_PER_IP_PER_HOUR) throw errors.tooManyCodes();
  }

  /** A fresh code for `address` + `event`; earlier unused codes of that pair stop working. */
  async issue(address: string, event: string, ip: string, db: Db = this.app.db): Promise<string> {
    let code = '';
    for (let index = 0; index < CODE_LENGTH; index += 1) code += CHARSET[randomInt(CHARSET.length)];
    code = code.toUpperCase();
    const now = nowSeconds();
    await db.updateTable('verification_code').set({ used_time: now }).where('address', '=', address).where('event', '=', event).where('used_time', 'is', null).execute();
    await db
      .insertInto('verification_code')
      .values({ address, event, code_hash: this.digest(address, event, code), ip: ip.slice(0, 50), attempts: 0, used_time: null, create_time: now, expire_time: now + CODE_TTL })
      .execute();
    // old rows only matter for the hourly counts
    await db.deleteFrom('verification_code').where('create_time', '<', now - 86_400).execute();
    return code;
  }

  /**
   * Checks `code` for `address` + `event` and uses it up when right (case-insensitive, contract §3.6).
   * A wrong guess counts against the live code. Run inside the transaction of the change it guards.
   */
  async consume(address: string, event: string, code: unknown, db: Db = this.app.db): Promise<boolean> {
    if (typeof code !== 'string' || code.length === 0 || code.length > 20 || address === '') return false;
    const now = nowSeconds();
    const live = (await db
      .selectFrom('verification_code')
      .select(['id', 'code_hash', 'attempts'])
      .where('address', '=', address)
      .where('event', '=', event)
      .where('used_time', 'is', null)
      .where('expire_time', '>', now)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()) as { id: number; code_hash: string; attempts: number } | undefined;
    if (!live) return false;
    if (live.code_hash !== this.digest(address, event, code.trim())) {
      const attempts = Number(live.attempts) + 1;
      await db.updateTable('verification_code').set(attempts >= MAX_ATTEMPTS ? { attempts, used_time: now } : { attempts }).where('id', '=', live.id).execute();
      return false;
    }
    // the `used_time is null` guard makes two concurrent uses of one code succeed once
    const used = await db.updateTable('verification_code').set({ used_time: now }).where('id', '=', live.id).where('used_time', 'is', null).executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }
}
