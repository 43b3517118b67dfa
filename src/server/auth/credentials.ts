import { ApiError, errors } from '../errors.js';
import type { Row } from '../../schema/definition.js';
import { PASSWORD_PATTERN } from '../../contract/credentials.js';
import { CUSTOM_FORMATS } from '../../schema/formats.js';

/**
 * The login rules of both areas. A username's own rule is its schema's (`system/admin`, `system/user`):
 * members' input is checked by the `system/user` validator (services/member-accounts.ts).
 */
/** the schemas' `mobile` format */
export const MOBILE_PATTERN = CUSTOM_FORMATS.mobile;
/** what a login name or a payment account must look like to be taken as an email address */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Shape checks of a login body before any lookup: strings, lengths, the password rule. */
export function checkCredentialsShape(body: Row, area: 'admin' | 'user'): { username: string; password: string } {
  const { username, password } = body;
  if (typeof username !== 'string' || username.trim() === '') throw new ApiError('%s cannot be empty', ['Username']);
  if (typeof password !== 'string' || password === '') throw new ApiError('%s cannot be empty', ['Password']);
  const name = username.trim();
  if (area === 'admin' && (name.length < 3 || name.length > 30)) throw new ApiError('Please input correct username');
  if (area === 'user' && name.length > 50) throw errors.loginFailed();
  if (!PASSWORD_PATTERN.test(password)) throw new ApiError('Please input correct password');
  return { username: name, password };
}
