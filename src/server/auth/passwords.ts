import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

/**
 * scrypt's cost: each hash works in 128·N·r bytes, here 32 MB and a few kilobytes. The size matters to
 * the server's memory as much as to an attacker: glibc maps a work area above 32 MB on its own and
 * unmaps it when the hash is done, while a smaller one (16 MB at N = 16384) stays in the allocator of
 * every thread-pool thread that ever hashed a password, up to 64 MB held for good. Hashes made with
 * smaller parameters still verify, and are made again with these at their next login.
 */
const N = 32768;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** Node refuses scrypt work areas over `maxmem` (32 MB by default): room for the parameters above, and for older hashes. */
const MAX_MEMORY = 64 * 1024 * 1024;

/** `scrypt$N$r$p$<salt b64>$<hash b64>`: parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAX_MEMORY });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * The password of a member or admin row being written, as the form typed it, made its stored hash (the
 * `salt` column is emptied: the hash carries its own); an empty password is dropped, so the stored one stays.
 */
export async function hashGivenPassword(values: Record<string, unknown>): Promise<void> {
  if (typeof values.password === 'string' && values.password !== '') {
    values.password = await hashPassword(values.password);
    values.salt = '';
  } else {
    delete values.password;
  }
}

interface PasswordCheck {
  ok: boolean;
  /** the stored hash is an imported BuildAdmin md5 hash, or a scrypt hash with smaller parameters, and should be replaced by a fresh one */
  needsUpgrade: boolean;
}

/**
 * Marks a password hash brought across from a BuildAdmin database (`md5(md5(password) . salt)`, 32 hex
 * digits, the salt in the account's `salt` column). Only a hash carrying this mark is checked the old way,
 * so an account created here can never be logged into with an md5 hash.
 */
const IMPORTED_MD5_MARK = 'buildadmin-md5$';

/** The stored form of a BuildAdmin password hash, or '' when the value is not one (the account then has no usable password). */
export function importedPasswordHash(buildAdminHash: string): string {
  return /^[0-9a-f]{32}$/i.test(buildAdminHash) ? `${IMPORTED_MD5_MARK}${buildAdminHash.toLowerCase()}` : '';
}

async function scryptMatches(password: string, stored: string): Promise<{ ok: boolean; weaker: boolean }> {
  const [, n, r, p, salt, hash] = stored.split('$');
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEMORY });
  return { ok: timingSafeEqual(actual, expected), weaker: Number(n) < N || Number(r) < R || Number(p) < P };
}

let standIn: Promise<string> | undefined;

/** A hash of a random password nobody knows, made once per process. */
function standInHash(): Promise<string> {
  standIn ??= hashPassword(randomPassword(32));
  return standIn;
}

/**
 * Verify against our scrypt hashes, or against a marked BuildAdmin hash of an imported account (accepted
 * once: the caller replaces it with a scrypt hash on success, as it does a scrypt hash made with smaller
 * parameters). Both comparisons are constant-time. Every check costs one scrypt run whatever is stored: an
 * md5 hash, an unusable value or none at all (`''`, for an account that does not exist) is checked beside
 * a run against a stand-in hash, so the time a refusal takes does not tell which accounts exist.
 */
export async function verifyPassword(password: string, stored: string, legacySalt: string): Promise<PasswordCheck> {
  if (stored.startsWith('scrypt$')) {
    const { ok, weaker } = await scryptMatches(password, stored);
    return { ok, needsUpgrade: ok && weaker };
  }
  await scryptMatches(password, await standInHash());
  if (stored.startsWith(IMPORTED_MD5_MARK) && /^[0-9a-f]{32}$/.test(stored.slice(IMPORTED_MD5_MARK.length))) {
    const md5 = (text: string) => createHash('md5').update(text).digest('hex');
    const actual = Buffer.from(md5(md5(password) + legacySalt));
    const ok = timingSafeEqual(actual, Buffer.from(stored.slice(IMPORTED_MD5_MARK.length)));
    return { ok, needsUpgrade: ok };
  }
  return { ok: false, needsUpgrade: false };
}

const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random password for first start: 14 characters without look-alikes. */
export function randomPassword(length = 14): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}
