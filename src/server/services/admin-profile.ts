import type { Row } from '../../schema/definition.js';
import type { AppContext } from '../app-context.js';
import { hashPassword } from '../auth/passwords.js';
import { nowSeconds } from '../clock.js';

/** An administrator's own profile: read, a new avatar, and the fields they may change on themselves. */

/** Profile fields an admin may change on themselves; username, status, groups and the rest are not. */
export const ADMIN_PROFILE_FIELDS = ['nickname', 'email', 'mobile', 'motto', 'password', 'avatar'] as const;

/** The administrator's stored row, or undefined when it is gone. */
export async function adminAccount(app: AppContext, id: number): Promise<Row | undefined> {
  return (await app.db.selectFrom('admin').selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined;
}

/** A new avatar (already checked) for the administrator. */
export async function setAdminAvatar(app: AppContext, id: number, avatar: string): Promise<void> {
  await app.db.updateTable('admin').set({ avatar, update_time: nowSeconds() }).where('id', '=', id).execute();
}

/** Writes the checked profile values; a non-empty password is stored hashed (and the legacy salt cleared). */
export async function updateAdminProfile(app: AppContext, id: number, values: Row): Promise<void> {
  const changes: Row = {};
  for (const name of ADMIN_PROFILE_FIELDS) if (name in values && name !== 'password') changes[name] = values[name];
  if (typeof values.password === 'string' && values.password !== '') {
    changes.password = await hashPassword(values.password);
    changes.salt = '';
  }
  changes.update_time = nowSeconds();
  await app.db.updateTable('admin').set(changes).where('id', '=', id).execute();
}
