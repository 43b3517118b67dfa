import type { ConfigOverride } from '../../contract/config-values.js';
import type { Settings } from '../settings.js';

/**
 * Config items an environment variable sets while it is set (`docs/configuration.md#config-items`): the variable, and
 * what it makes the item, as the item's wire value. The server reads the same settings where the item
 * applies, so what the config screen shows is what happens.
 */
const OVERRIDES: Readonly<Record<string, { variable: string; value(settings: Settings): unknown }>> = {
  admin_login_captcha: { variable: 'ADMIN_LOGIN_CAPTCHA', value: (settings) => settings.adminLoginCaptcha },
  user_login_captcha: { variable: 'USER_LOGIN_CAPTCHA', value: (settings) => settings.userLoginCaptcha },
  upload_max_size: { variable: 'UPLOAD_MAX_SIZE', value: (settings) => (settings.uploadMaxSize === undefined ? undefined : byteText(settings.uploadMaxSize)) },
};

const UNITS: readonly [string, number][] = [['gb', 1024 ** 3], ['mb', 1024 ** 2], ['kb', 1024]];

/** 10485760 → `10mb`, 1536 → `1.5kb`… in the largest unit that writes it exactly, else bytes. */
function byteText(bytes: number): string {
  for (const [unit, size] of UNITS) {
    if (bytes >= size && (bytes * 100) % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

/** The environment's setting of the item `name`, when a variable sets it now. */
export function configOverride(settings: Settings, name: string): ConfigOverride | undefined {
  const override = Object.hasOwn(OVERRIDES, name) ? OVERRIDES[name] : undefined;
  const value = override?.value(settings);
  return override && value !== undefined ? { variable: override.variable, value } : undefined;
}
