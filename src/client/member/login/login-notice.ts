/**
 * A message the member login page shows when it opens, left by the page that sent the member there (the
 * password change, which ends every session): kept in the tab's session storage, so it survives the
 * way to the login page and is read there once.
 */
const NOTICE_KEY = 'chidao-member.loginNotice';

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

export function leaveLoginNotice(message: string): void {
  storage()?.setItem(NOTICE_KEY, message);
}

/** The message left for the login page, if any; it stays until `clearLoginNotice` (a page drawn twice reads it both times). */
export function readLoginNotice(): string {
  return storage()?.getItem(NOTICE_KEY) ?? '';
}

export function clearLoginNotice(): void {
  storage()?.removeItem(NOTICE_KEY);
}
