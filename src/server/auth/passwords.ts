import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$<salt b64>$<hash b64>`: parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

interface PasswordCheck {
  ok: boolean;
  /** the stored hash is BuildAdmin's md5 scheme and should be replaced by a fresh scrypt hash */
  needsUpgrade: boolean;
}

/**
 * Verify against our scrypt hashes, or against a BuildAdmin `md5(md5(p) + salt)` hash imported from an
 * existing database (accepted once: the caller upgrades it on success).
 */
export async function verifyPassword(password: string, stored: string, legacySalt: string): Promise<PasswordCheck> {
  if (stored.startsWith('scrypt$')) {
    const [, n, r, p, salt, hash] = stored.split('$');
    const expected = Buffer.from(hash, 'base64');
    const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
    return { ok: timingSafeEqual(actual, expected), needsUpgrade: false };
  }
  if (/^[0-9a-f]{32}$/i.test(stored)) {
    const md5 = (text: string) => createHash('md5').update(text).digest('hex');
    const actual = Buffer.from(md5(md5(password) + legacySalt));
    const ok = timingSafeEqual(actual, Buffer.from(stored.toLowerCase()));
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
