import { randomInt } from 'node:crypto';
import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import type { Db } from '../db/connection.js';
import { errors } from '../errors.js';

/** Events a code can be sent for (docs/wire-contract.md#verification-codes). */
export const EMAIL_EVENTS = ['user_register', 'user_retrieve_pwd', 'user_change_email', 'user_email_verify'] as const;
export const MOBILE_EVENTS = ['user_register', 'user_retrieve_pwd', 'user_change_mobile', 'user_mobile_verify'] as const;

/** The characters of a code, without look-alikes (docs/wire-contract.md#verification-codes). */
const CHARSET = '2345678abcdefhijkmnpqrstuvwxyzABCDEFGHJKLMNPQRTUVWXY';
const CODE_LENGTH = 4;
const CODE_TTL = 600;
/** one code per address and event per minute (docs/wire-contract.md#verification-codes) */
const RESEND_INTERVAL = 60;
const CODES_PER_ADDRESS_PER_HOUR = 10;
const CODES_PER_IP_PER_HOUR = 30;
/** a code dies after this many wrong guesses, so four characters cannot be guessed */
const MAX_ATTEMPTS = 5;

/**
 * Email and SMS verification codes, one row per code in `verification_code`. Only an HMAC of the code
 * is kept. The hourly limits count rows in the table, so they hold across processes sharing a database.
 */
export class VerificationCodes {
  constructor(private readonly app: AppContext) {}

  private digest(address: string, event: string, code: string): string {
    return this.app.tokens.digest(`code\n${address}\n${event}\n${code.toUpperCase()}`);
  }

  private async count(db: Db, filters: { address?: string; event?: string; ip?: string }, since: number): Promise<number> {
    let query = db.selectFrom('verification_code').select((eb) => eb.fn.countAll().as('total')).where('create_time', '>', since);
    if (filters.address !== undefined) query = query.where('address', '=', filters.address);
    if (filters.event !== undefined) query = query.where('event', '=', filters.event);
    if (filters.ip !== undefined) query = query.where('ip', '=', filters.ip);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /**
   * The limit an address or IP would break with `extra` more codes, if any. `extra` is 1 before a code
   * is stored and 0 after: the stored code then counts itself.
   */
  private async brokenLimit(db: Db, address: string, event: string, ip: string, extra: 0 | 1): Promise<'resend' | 'hourly' | undefined> {
    const now = nowSeconds();
    if ((await this.count(db, { address, event }, now - RESEND_INTERVAL)) + extra > 1) return 'resend';
    if ((await this.count(db, { address }, now - 3600)) + extra > CODES_PER_ADDRESS_PER_HOUR) return 'hourly';
    if ((await this.count(db, { ip: ip.slice(0, 50) }, now - 3600)) + extra > CODES_PER_IP_PER_HOUR) return 'hourly';
    return undefined;
  }

  /** Refuses (with a translated error, writing nothing) when the address or IP asked too often. */
  async checkLimits(address: string, event: string, ip: string, db: Db = this.app.db): Promise<void> {
    const broken = await this.brokenLimit(db, address, event, ip, 1);
    if (broken) throw broken === 'resend' ? errors.codeSentRecently() : errors.tooManyCodes();
  }

  /**
   * A fresh code for `address` + `event`; earlier unused codes of that pair stop working. The limits
   * are checked again once the code is stored, counting it: of concurrent requests (other processes
   * included) the last to store its code sees all the others, so together they never pass a limit.
   */
  async issue(address: string, event: string, ip: string, db: Db = this.app.db): Promise<string> {
    let code = '';
    for (let index = 0; index < CODE_LENGTH; index += 1) code += CHARSET[randomInt(CHARSET.length)];
    code = code.toUpperCase();
    const now = nowSeconds();
    const inserted = await db
      .insertInto('verification_code')
      .values({ address, event, code_hash: this.digest(address, event, code), ip: ip.slice(0, 50), attempts: 0, used_time: null, create_time: now, expire_time: now + CODE_TTL })
      .returning('id')
      .executeTakeFirstOrThrow();
    const broken = await this.brokenLimit(db, address, event, ip, 0);
    if (broken) {
      await db.deleteFrom('verification_code').where('id', '=', inserted.id).execute();
      throw broken === 'resend' ? errors.codeSentRecently() : errors.tooManyCodes();
    }
    await db.updateTable('verification_code').set({ used_time: now }).where('address', '=', address).where('event', '=', event).where('used_time', 'is', null).where('id', '<>', inserted.id).execute();
    // old rows only matter for the hourly counts
    await db.deleteFrom('verification_code').where('create_time', '<', now - 86_400).execute();
    return code;
  }

  /**
   * Checks `code` for `address` + `event` and uses it up when right (case-insensitive, docs/wire-contract.md#verification-codes).
   * A wrong guess counts against the live code. Run inside the transaction of the change it guards.
   */
  async consume(address: string, event: string, code: unknown, db: Db = this.app.db): Promise<boolean> {
    if (typeof code !== 'string' || code.length === 0 || code.length > 20 || address === '') return false;
    const now = nowSeconds();
    const live = await db
      .selectFrom('verification_code')
      .select(['id', 'code_hash', 'attempts'])
      .where('address', '=', address)
      .where('event', '=', event)
      .where('used_time', 'is', null)
      .where('expire_time', '>', now)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
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
