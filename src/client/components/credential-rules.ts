import { PASSWORD_PATTERN, USERNAME_PATTERN } from '../../contract/credentials.js';

/**
 * The account rules of src/contract/credentials.ts, checked before anything is sent. Each check returns
 * the message key of the first broken rule, or undefined. Keys live in `locales/<lang>/admin/login.json`
 * (and the member pages' pack).
 */

export function checkAccount(value: string): string | undefined {
  if (value.trim() === '') return 'login.rules.accountRequired';
  return USERNAME_PATTERN.test(value.trim()) ? undefined : 'login.rules.account';
}

export function checkPassword(value: string): string | undefined {
  if (value === '') return 'login.rules.passwordRequired';
  return PASSWORD_PATTERN.test(value) ? undefined : 'login.rules.password';
}
