import type { Settings } from '../settings.js';
import type { RequestContext } from '../http/controller.js';

/** Upload settings shared by the server checks and the `siteConfig.upload` the clients read (§4.4, §8). */
export interface UploadSettings {
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

/** `siteConfig` of `Index/index`: names, version, protocol-relative CDN and store API base (this server), upload settings. */
export async function siteConfig(ctx: RequestContext) {
  const config = ctx.app.config;
  const origin = `//${ctx.request.headers.host ?? `${ctx.app.settings.host}:${ctx.app.settings.port}`}`;
  return {
    siteName: await config.get('site_name'),
    recordNumber: await config.get('record_number'),
    version: await config.get('version'),
    cdnUrl: origin,
    // BuildAdmin's module store screen asks `<apiUrl>/api/v6.store/modules`: this server answers that the
    // store is not available, where buildadmin.com would offer modules this product cannot install
    apiUrl: origin,
    timeZone: await config.timeZone(),
    upload: uploadSettings(ctx.app.settings),
  };
}
