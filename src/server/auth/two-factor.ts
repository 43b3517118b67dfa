import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { AppContext } from '../app-context.js';
import { nowSeconds } from '../clock.js';
import type { Db } from '../db/connection.js';

/**
 * Two-factor sign-in for admins (docs/two-factor.md): time-based one-time codes (RFC 6238: SHA-1, six
 * digits, 30-second steps, as every authenticator app reads an `otpauth://` address) and ten single-use
 * recovery codes.
 *
 * One row of `admin_two_factor` per admin who began setting it up. Its secret is sealed with the server's
 * key (`SecretBox`); it counts as on once `confirmed_time` is set, which only a correct code does. The last
 * time step a code was accepted for is kept, and a code of that step or an earlier one is refused: a code
 * seen over someone's shoulder cannot be used again, and of two requests racing with one code only one
 * wins (the step moves forward in one conditional update). Recovery codes are kept as SHA-256 digests (they
 * are random, 50 bits each, so a digest is as safe as a slow hash) and removed as they are used, by an
 * update that only succeeds on the list it read.
 */

const PERIOD = 30;
/** a code of the step before or after the current one is accepted (a phone's clock a little off) */
const WINDOW = 1;
const RECOVERY_CODES = 10;
/** a recovery code's letters: no 0/o, 1/l/i, so one read from paper is typed right */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

interface TwoFactorState {
  /** codes are asked at sign-in */
  enabled: boolean;
  /** one of the admin's enabled groups asks for it: it cannot be turned off */
  required: boolean;
  recoveryCodesLeft: number;
}

/** What an authenticator app needs to add the account: the secret to type, or the address a QR code holds. */
interface TwoFactorSetup {
  secret: string;
  uri: string;
}

function totpOf(secret: string, account: string, issuer: string): TOTP {
  return new TOTP({
    issuer,
    label: account,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

function digest(code: string): string {
  return createHash('sha256').update(normalRecoveryCode(code)).digest('hex');
}

/** A recovery code as typed: case, spaces and dashes do not matter. */
function normalRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

function newRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < 10; index += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

async function rowOf(db: Db, adminId: number) {
  return db.selectFrom('admin_two_factor').selectAll().where('admin_id', '=', adminId).executeTakeFirst();
}

function storedDigests(stored: string | null | undefined): string[] {
  return stored ? stored.split(',').filter((part) => part.length === 64) : [];
}

/** Whether one of the admin's enabled groups asks for two-factor sign-in. */
export async function isTwoFactorRequired(db: Db, adminId: number): Promise<boolean> {
  const group = await db
    .selectFrom('admin_group_access')
    .innerJoin('admin_group', 'admin_group.id', 'admin_group_access.group_id')
    .select('admin_group.id')
    .where('admin_group_access.uid', '=', adminId)
    .where('admin_group.status', '=', '1')
    .where('admin_group.two_factor', '=', '1')
    .executeTakeFirst();
  return group !== undefined;
}

export async function twoFactorState(db: Db, adminId: number): Promise<TwoFactorState> {
  const [row, required] = await Promise.all([rowOf(db, adminId), isTwoFactorRequired(db, adminId)]);
  const enabled = Boolean(row?.confirmed_time);
  return { enabled, required, recoveryCodesLeft: enabled ? storedDigests(row?.recovery_codes).length : 0 };
}

/**
 * A new secret for an admin whose two-factor sign-in is not on, replacing one a set-up left unconfirmed.
 * Nothing changes at sign-in until `confirmSetup` accepts a code of it. Undefined when it is already on.
 */
export async function beginSetup(
  app: AppContext,
  adminId: number,
  account: string,
): Promise<TwoFactorSetup | undefined> {
  const existing = await rowOf(app.db, adminId);
  if (existing?.confirmed_time) return undefined;
  const secret = new Secret({ size: 20 }).base32;
  const sealed = app.secrets.seal(secret);
  const now = nowSeconds();
  if (existing) {
    await app.db
      .updateTable('admin_two_factor')
      .set({ secret: sealed, last_step: 0, recovery_codes: '', update_time: now })
      .where('id', '=', existing.id)
      .where('confirmed_time', 'is', null)
      .execute();
  } else {
    await app.db
      .insertInto('admin_two_factor')
      .values({
        admin_id: adminId,
        secret: sealed,
        last_step: 0,
        recovery_codes: '',
        confirmed_time: null,
        create_time: now,
        update_time: now,
      })
      .execute();
  }
  return { secret, uri: totpOf(secret, account, await issuerOf(app)).toString() };
}

/** The site's name as authenticator apps list the account under it. */
async function issuerOf(app: AppContext): Promise<string> {
  return (await app.config.get('site_name')) || 'Chidao';
}

/**
 * Accepts a code of the secret being set up and turns two-factor sign-in on, answering the recovery codes
 * (shown once; only digests are kept). Undefined when the code is wrong or nothing is being set up.
 */
export async function confirmSetup(app: AppContext, adminId: number, code: string): Promise<string[] | undefined> {
  const row = await rowOf(app.db, adminId);
  if (!row || row.confirmed_time) return undefined;
  const step = await acceptedStep(app, row.secret, row.last_step, code);
  if (step === undefined) return undefined;
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const now = nowSeconds();
  const updated = await app.db
    .updateTable('admin_two_factor')
    .set({ confirmed_time: now, last_step: step, recovery_codes: codes.map(digest).join(','), update_time: now })
    .where('id', '=', row.id)
    .where('confirmed_time', 'is', null)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? codes : undefined;
}

/** The time step a six-digit `code` belongs to, when it is one of the secret's and newer than `lastStep`. */
async function acceptedStep(
  app: AppContext,
  sealed: string,
  lastStep: number,
  code: string,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const secret = app.secrets.open(sealed);
  if (secret === undefined) return undefined;
  const timestamp = nowSeconds() * 1000;
  const delta = totpOf(secret, '', '').validate({ token: code, timestamp, window: WINDOW });
  if (delta === null) return undefined;
  const step = Math.floor(timestamp / 1000 / PERIOD) + delta;
  return step > lastStep ? step : undefined;
}

/**
 * Checks the second factor of a sign-in: a current code of the admin's authenticator (each accepted once)
 * or one of their recovery codes (each works once). False when two-factor sign-in is not on.
 */
export async function verifySecondFactor(
  app: AppContext,
  adminId: number,
  input: string,
): Promise<'code' | 'recovery' | undefined> {
  const row = await rowOf(app.db, adminId);
  if (!row?.confirmed_time) return undefined;
  const code = input.trim();
  const step = await acceptedStep(app, row.secret, row.last_step, code);
  if (step !== undefined) {
    const moved = await app.db
      .updateTable('admin_two_factor')
      .set({ last_step: step })
      .where('id', '=', row.id)
      .where('last_step', '<', step)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1 ? 'code' : undefined;
  }
  const digests = storedDigests(row.recovery_codes);
  const used = digest(code);
  if (!digests.includes(used)) return undefined;
  const left = digests.filter((item) => item !== used).join(',');
  const taken = await app.db
    .updateTable('admin_two_factor')
    .set({ recovery_codes: left, update_time: nowSeconds() })
    .where('id', '=', row.id)
    .where('recovery_codes', '=', row.recovery_codes)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? 'recovery' : undefined;
}

/** Ten new recovery codes in place of the old ones (for an admin whose two-factor sign-in is on). */
export async function renewRecoveryCodes(app: AppContext, adminId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await app.db
    .updateTable('admin_two_factor')
    .set({ recovery_codes: codes.map(digest).join(','), update_time: nowSeconds() })
    .where('admin_id', '=', adminId)
    .where('confirmed_time', 'is not', null)
    .execute();
  return codes;
}

/** Turns two-factor sign-in off (or drops an unfinished set-up). */
export async function removeTwoFactor(db: Db, adminId: number): Promise<void> {
  await db.deleteFrom('admin_two_factor').where('admin_id', '=', adminId).execute();
}
