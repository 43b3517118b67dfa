import type { RequestContext } from '../app-context.js';
import { uploadSettings } from '../uploads/upload-settings.js';

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
    upload: await uploadSettings(ctx.app),
  };
}
