import { decodeConfigValue } from '../../contract/config-values.js';
import type { AppContext } from '../app-context.js';
import { parseByteSize } from '../settings.js';

/** Upload settings shared by the server checks and the `siteConfig.upload` the clients read (docs/wire-contract.md#uploads). */
interface UploadSettings {
  /** bytes: `UPLOAD_MAX_SIZE` while set, else the config item `upload_max_size` (10 MiB by default) */
  maxSize: number;
  saveName: string;
  /** comma-separated lower-case extensions (the config item `upload_allowed_suffixes`) */
  allowedSuffixes: string;
  /** empty: no MIME check */
  allowedMimeTypes: string[];
  mode: string;
}

export const IMAGE_SUFFIXES = ['gif', 'jpg', 'jpeg', 'bmp', 'png', 'webp'];

/** The largest upload when neither the environment nor the config item says otherwise. */
const DEFAULT_UPLOAD_MAX_SIZE = 10 * 1024 * 1024;
/** The most the config item `upload_max_size` may allow: a file is read into memory before it is stored. */
export const UPLOAD_MAX_SIZE_LIMIT = 1024 ** 3;
const DEFAULT_SUFFIXES = 'jpg,png,bmp,jpeg,gif,webp,zip,rar,wav,mp4,mp3';

/** The largest accepted upload in bytes, as `maxSize` of `uploadSettings`. */
export async function uploadMaxSize(app: Pick<AppContext, 'settings' | 'config'>): Promise<number> {
  if (app.settings.uploadMaxSize !== undefined) return app.settings.uploadMaxSize;
  const bytes = parseByteSize(await app.config.get('upload_max_size', ''));
  return bytes !== undefined && bytes <= UPLOAD_MAX_SIZE_LIMIT ? bytes : DEFAULT_UPLOAD_MAX_SIZE;
}

export async function uploadSettings(app: Pick<AppContext, 'settings' | 'config'>): Promise<UploadSettings> {
  const stored = await app.config.get('upload_allowed_suffixes', '');
  const suffixes = stored === '' ? DEFAULT_SUFFIXES : (decodeConfigValue('checkbox', stored) as unknown[]).map(String).join(',');
  return {
    maxSize: await uploadMaxSize(app),
    saveName: '/storage/{topic}/{year}{mon}{day}/{fileName}{fileSha1}{.suffix}',
    allowedSuffixes: suffixes,
    allowedMimeTypes: [],
    mode: 'local',
  };
}
