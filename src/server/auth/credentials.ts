import { errors } from '../errors.js';
import type { Row } from '../../schema/definition.js';
import { PASSWORD_PATTERN } from '../../contract/credentials.js';
import { CUSTOM_FORMATS } from '../../schema/formats.js';

/**
 * The login rules of both areas. A username's own rule is its schema's (`system/admin`, `system/user`):
 * members' input is checked by the `system/user` validator (services/member-accounts.ts).
 */
/** the schemas' `mobile` format */
export const MOBILE_PATTERN = CUSTOM_FORMATS.mobile;

/** Shape checks of a login body before any lookup: strings, lengths, the password rule. */
export function checkCredentialsShape(body: Row, area: 'admin' | 'user'): { username: string; password: string } {
  const { username, password } = body;
  if (typeof username !== 'string' || username.trim() === '') throw errors.fieldEmpty('Username');
  if (typeof password !== 'string' || password === '') throw errors.fieldEmpty('Password');
  const name = username.trim();
  if (area === 'admin' && (name.length < 3 || name.length > 30)) throw errors.incorrectUsername();
  if (area === 'user' && name.length > 50) throw errors.loginFailed();
  if (!PASSWORD_PATTERN.test(password)) throw errors.incorrectPassword();
  return { username: name, password };
}
