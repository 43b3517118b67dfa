import { createHmac } from 'node:crypto';

/**
 * One-time codes computed from RFC 6238 itself (HMAC-SHA-1 over the 30-second step, dynamic truncation,
 * six digits), not by the library the server uses: codes a test signs in with are what any authenticator
 * app following the RFC shows.
 */

const STEP = 30;

function base32Bytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/[\s=]/g, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let index = 0; index + 8 <= bits.length; index += 8) bytes.push(parseInt(bits.slice(index, index + 8), 2));
  return Buffer.from(bytes);
}

/** The code of `secret` (base32, spaces allowed) for time step `step`. */
export function codeAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

export const currentStep = (): number => Math.floor(Date.now() / 1000 / STEP);

/** Six digits that are none of the codes a server accepts now (the steps around the current one). */
export function notACode(secret: string): string {
  const accepted = [-1, 0, 1, 2].map((offset) => codeAt(secret, currentStep() + offset));
  let guess = 0;
  while (accepted.includes(String(guess).padStart(6, '0'))) guess += 1;
  return String(guess).padStart(6, '0');
}
