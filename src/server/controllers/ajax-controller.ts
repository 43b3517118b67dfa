import type { Controller, RequestContext } from '../app-context.js';
import { errors, Success } from '../errors.js';
import { areaChoices } from '../services/areas.js';
import { presentAttachment } from '../resources/system/attachment.js';
import { admitUpload } from '../uploads/upload-limits.js';
import { storeUpload, type IncomingFile } from '../uploads/upload-service.js';
import { uploadMaxSize } from '../uploads/upload-settings.js';
import { ajaxTableActions, ajaxTablePermissions } from './ajax-tables.js';
import { buildSuffixSvg } from './suffix-svg.js';
import { terminalActions } from './admin/terminal-controller.js';

/**
 * `ajax`: upload, the area cascade and the file icons (`buildSuffixSvg`), for both areas
 * (docs/wire-contract.md#ajax-utilities), and for the back office the table and cache calls of
 * `ajax-tables.ts` (with the nodes each needs) and the web terminal (`admin/terminal-controller.ts`, for
 * super admins; it checks its caller itself: an event stream cannot carry the envelope's refusals).
 * Members upload with the profile page's rule (the default group holds `*`), and the area list and the
 * file icons are public.
 */

function isCutOff(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /unexpected end of multipart data/i.test(error.message) || ('code' in error && error.code === 'ERR_STREAM_PREMATURE_CLOSE');
}

/** The multipart `file` field and the plain fields of an upload request. */
async function readMultipart(ctx: RequestContext): Promise<{ file?: IncomingFile; fields: Map<string, string> }> {
  const fields = new Map<string, string>();
  if (!ctx.request.isMultipart()) return { fields };
  let file: IncomingFile | undefined;
  // read up to a little over the limit: a file past it arrives truncated and flagged, and is refused by its size
  const fileSize = (await uploadMaxSize(ctx.app)) + 1024 * 1024;
  try {
    for await (const part of ctx.request.parts({ limits: { fileSize } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          // Only the first `file` is stored; the others are read past.
          part.file.resume();
          continue;
        }
        const data = await part.toBuffer();
        file = { filename: part.filename ?? '', data, truncated: part.file.truncated };
      } else if (typeof part.value === 'string') {
        fields.set(part.fieldname, part.value);
      }
    }
  } catch (error) {
    // Everything read here is the client's body, so whatever the parser finds wrong with it is the
    // client's mistake: a body that ends before its last part does (a dropped connection, a client that
    // stopped sending) says so, reported by the parser or, first, by the file's stream closing early;
    // limits (too many parts or fields) and garbled parts are bad input.
    if (isCutOff(error)) throw errors.uploadCutOff();
    throw errors.parameterError();
  }
  return { file, fields };
}

async function upload(ctx: RequestContext) {
  const identity = ctx.identity;
  if (!identity) throw errors.needLogin();
  const uploader = { area: ctx.area, id: identity.id };
  // a member past the throttle or the day's quota is refused before the body is read
  await admitUpload(ctx.app, uploader, ctx.ip);
  const { file, fields } = await readMultipart(ctx);
  const row = await storeUpload(ctx.app, {
    file,
    topic: fields.get('topic') ?? ctx.query.topic,
    driver: fields.get('driver') ?? ctx.query.driver,
    uploader,
  });
  const { create_time: _created, quote: _quote, ...shown } = presentAttachment(row, ctx.request.host);
  return new Success({ file: shown }, 'File uploaded successfully');
}

function areaId(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw errors.parameterError();
  if (!/^\d{1,15}$/.test(String(value))) throw errors.parameterError();
  return Number(value);
}

/** Provinces; with `province` its cities; with `province` and `city` the city's districts. */
async function area(ctx: RequestContext) {
  const province = areaId(ctx.query.province);
  const city = province === undefined ? undefined : areaId(ctx.query.city);
  if (province === undefined) return areaChoices(ctx.app, 0, 1);
  return city === undefined ? areaChoices(ctx.app, province, 2) : areaChoices(ctx.app, city, 3);
}

export const adminAjaxController: Controller = {
  name: 'ajax',
  path: 'ajax',
  area: 'admin',
  actions: { upload, area, buildSuffixSvg, ...ajaxTableActions, ...terminalActions },
  noNeedLogin: ['terminal'],
  // every signed-in admin uploads and reads the cascade and the icons; the terminal is for super admins
  noNeedPermission: ['upload', 'area', 'buildSuffixSvg', 'terminal', 'changeTerminalConfig'],
  permissions: ajaxTablePermissions,
};

export const memberAjaxController: Controller = {
  name: 'ajax',
  path: 'ajax',
  area: 'user',
  actions: { upload, area, buildSuffixSvg },
  noNeedLogin: ['area', 'buildSuffixSvg'],
  noNeedPermission: ['area', 'buildSuffixSvg'],
  // members upload their avatar on the profile page: its rule grants the upload
  permissions: { upload: ['account/profile'] },
};
