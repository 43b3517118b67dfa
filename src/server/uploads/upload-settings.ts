import type { Settings } from '../settings.js';

/** Upload settings shared by the server checks and the `siteConfig.upload` the clients read (docs/wire-contract.md#uploads). */
interface UploadSettings {
  /** bytes (`UPLOAD_MAX_SIZE`, 10 MiB by default) */
  maxSize: number;
  saveName: string;
  /** comma-separated lower-case extensions */
  allowedSuffixes: string;
  /** empty: no MIME check */
  allowedMimeTypes: string[];
  mode: string;
}

export const IMAGE_SUFFIXES = ['gif', 'jpg', 'jpeg', 'bmp', 'png', 'webp'];

export function uploadSettings(settings: Pick<Settings, 'uploadMaxSize'>): UploadSettings {
  return {
    maxSize: settings.uploadMaxSize,
    saveName: '/storage/{topic}/{year}{mon}{day}/{fileName}{fileSha1}{.suffix}',
    allowedSuffixes: 'jpg,png,bmp,jpeg,gif,webp,zip,rar,wav,mp4,mp3',
    allowedMimeTypes: [],
    mode: 'local',
  };
}
