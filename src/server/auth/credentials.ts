import { ApiError, errors } from '../errors.js';
import type { Row } from '../../schema/definition.js';

/** Rules of spec §5 and contract §3.7. */
export const USERNAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{2,15}$/;
export const PASSWORD_PATTERN = /^(?!.*[&<>"'\n\r]).{6,32}$/;
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Shape checks of a login body before any lookup: strings, lengths, the password rule. */
export function checkCredentialsShape(body: Row, area: 'admin' | 'user'): { username: string; password: string } {
  const { username, password } = body;
  if (typeof username !== 'string' || username.trim() === '') throw new ApiError('%s cannot be empty', ['Username']);
  if (typeof password !== 'string' || password === '') throw new ApiError('%s cannot be empty', ['Password']);
  const name = username.trim();
  if (area === 'admin' && (name.length < 3 || name.length > 30)) throw new ApiError('Please input correct username');
  if (area === 'user' && name.length > 50) throw errors.accountNotExist();
  if (!PASSWORD_PATTERN.test(password)) throw new ApiError('Please input correct password');
  return { username: name, password };
}
