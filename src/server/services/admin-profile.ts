import type { Row } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import { verifyPassword } from '../auth/passwords.js';
import { setAccountPassword } from '../auth/sessions.js';
import { errors } from '../errors.js';
import { nowSeconds } from '../clock.js';

/** An administrator's own profile: read, a new avatar, and the fields they may change on themselves. */

/** Profile fields an admin may change on themselves; username, status, groups and the rest are not. */
export const ADMIN_PROFILE_FIELDS = ['nickname', 'email', 'mobile', 'motto', 'password', 'avatar'] as const;

/** The administrator's stored row, or undefined when it is gone. */
export async function adminAccount(app: AppContext, id: number): Promise<Row | undefined> {
  return await app.db.selectFrom('admin').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A new avatar (already checked) for the administrator. */
export async function setAdminAvatar(app: AppContext, id: number, avatar: string): Promise<void> {
  await app.db.updateTable('admin').set({ avatar, update_time: nowSeconds() }).where('id', '=', id).execute();
}

/**
 * Writes the checked profile values. A new password needs the current one (`currentPassword`): whoever
 * holds only a session of the admin cannot take the account over with it. It is stored hashed, and every
 * other session of the admin ends; `session` (the request's access token and the refresh token the client
 * holds) stays valid.
 */
export async function updateAdminProfile(app: AppContext, id: number, values: Row, currentPassword: unknown, session: readonly string[]): Promise<void> {
  const changes: Row = {};
  for (const name of ADMIN_PROFILE_FIELDS) if (name in values && name !== 'password') changes[name] = values[name];
  changes.update_time = nowSeconds();
  const password = typeof values.password === 'string' ? values.password : '';
  if (password === '') {
    await app.db.updateTable('admin').set(changes).where('id', '=', id).execute();
    return;
  }
  if (typeof currentPassword !== 'string' || currentPassword === '') throw errors.oldPasswordMissing();
  const account = await adminAccount(app, id);
  const check = account ? await verifyPassword(currentPassword, String(account.password ?? ''), String(account.salt ?? '')) : undefined;
  if (!check?.ok) throw errors.oldPasswordError();
  await setAccountPassword(app, 'admin', id, password, { changes, keep: session });
}
