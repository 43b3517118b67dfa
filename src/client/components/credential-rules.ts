/**
 * The login rules (docs/client.md#validation-before-sending), checked before anything is sent. Each check
 * returns the message key of the first broken rule, or undefined. Keys live in
 * `locales/<lang>/admin/login.json` (and the member pages' pack).
 */

/** 3 to 15 characters, begins with a letter, only letters, digits and underscore. */
const ACCOUNT_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{2,14}$/;
/** 6 to 32 characters, none of & < > " ' (nor line breaks, as on the server). */
export const PASSWORD_PATTERN = /^(?!.*[&<>"'\n\r]).{6,32}$/;

export function checkAccount(value: string): string | undefined {
  if (value.trim() === '') return 'login.rules.accountRequired';
  return ACCOUNT_PATTERN.test(value.trim()) ? undefined : 'login.rules.account';
}

export function checkPassword(value: string): string | undefined {
  if (value === '') return 'login.rules.passwordRequired';
  return PASSWORD_PATTERN.test(value) ? undefined : 'login.rules.password';
}
