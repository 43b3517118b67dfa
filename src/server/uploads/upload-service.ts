import { createHash } from 'node:crypto';
import type { Row } from '../../schema/definition.js';
import { resourceByTable, type AppContext } from '../app-context.js';
import type { Area } from '../auth/identity.js';
import { nowSeconds } from '../clock.js';
import { ensureQuota } from './upload-limits.js';
import { IMAGE_SUFFIXES, uploadSettings } from './upload-settings.js';
import { completeRow } from '../db/seed.js';
import { rowFromStorage } from '../db/values.js';
import { errors } from '../errors.js';
import { formatLocalDateTime } from '../../contract/site-time.js';
import { IMAGE_MIME_TYPES, imageInfo } from './image-size.js';
import { fileOfUrl, isFile, storageFile, writeStorageFile } from './storage.js';

/**
 * Uploads to the local storage (docs/wire-contract.md#uploads): checks in that order, the save name
 * `/storage/{topic}/{YYYYMMDD}/{fileName}{sha1}.{suffix}`, and one attachment row per sha1 + topic +
 * storage whose `quote` counts the uploads.
 */

export interface IncomingFile {
  /** the client's file name */
  filename: string;
  data: Buffer;
  /** the multipart parser stopped reading at its limit: the file is larger than `data` */
  truncated: boolean;
}

interface UploadInput {
  file?: IncomingFile;
  topic?: unknown;
  driver?: unknown;
  uploader: { area: Area; id: number };
}

const ALPHA_DASH = /^[A-Za-z0-9_-]+$/;
/** characters BuildAdmin removes from the name part of the save name, plus what is unsafe in a path or URL */
const UNSAFE_NAME_CHARACTERS = /[\s:@#?&/=',+\\%<>"*|^`{}[\]\p{Cc}]/gu;

/** `photo.JPG` → base `photo`, suffix `jpg`; an extension that is not alphanumeric becomes `file`. */
export function splitFileName(original: string): { base: string; suffix: string } {
  const name = original.split(/[\\/]/).pop() ?? '';
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1) : '';
  return { base: dot >= 0 ? name.slice(0, dot) : name, suffix: /^[a-z0-9]+$/i.test(extension) ? extension.toLowerCase() : 'file' };
}

/** The `{fileName}` of the save name: unsafe characters and leading dots removed, 15 characters at most. */
export function saveNamePart(base: string): string {
  return Array.from(base.replace(UNSAFE_NAME_CHARACTERS, '').replace(/^\.+/, '')).slice(0, 15).join('');
}

/** The stored display name: the original name without control characters or markup, 100 characters with its suffix. */
function displayName(base: string, suffix: string): string {
  const clean = base.replace(/[\p{Cc}<>"\\/]/gu, '').trim();
  return `${Array.from(clean).slice(0, 100 - suffix.length - 1).join('')}.${suffix}`;
}

/** The MIME type from the content's signature (never the client's claim). */
export function detectMimeType(data: Buffer): string {
  if (data.length === 0) return 'application/x-empty';
  const image = imageInfo(data);
  if (image) return IMAGE_MIME_TYPES[image.type];
  const head = (start: number, length: number) => data.toString('latin1', start, start + length);
  if (head(0, 4) === 'PK\x03\x04' || head(0, 4) === 'PK\x05\x06') return 'application/zip';
  if (head(0, 6) === 'Rar!\x1a\x07') return 'application/x-rar';
  if (head(0, 4) === 'RIFF' && head(8, 4) === 'WAVE') return 'audio/x-wav';
  if (head(4, 4) === 'ftyp') return 'video/mp4';
  if (head(0, 3) === 'ID3' || (data[0] === 0xff && data.length > 1 && (data[1] & 0xe0) === 0xe0)) return 'audio/mpeg';
  const sample = data.subarray(0, 4096);
  const text = sample.toString('utf8');
  if (!sample.includes(0) && !text.includes('\uFFFD')) return 'text/plain';
  return 'application/octet-stream';
}

/** `YYYYMMDD` of now in the site's time zone. */
async function today(app: AppContext, now: number): Promise<string> {
  const zone = await app.config.timeZone();
  return formatLocalDateTime(now, zone).slice(0, 10).replace(/-/g, '');
}

/**
 * Check and store one upload; returns the attachment row (wire values). A file already stored under the
 * same topic (same sha1) is not written twice: its row's `quote` and `last_upload_time` move instead.
 */
export async function storeUpload(app: AppContext, input: UploadInput): Promise<Row> {
  const settings = await uploadSettings(app);
  const file = input.file;
  if (!file) throw errors.noFileUploaded();
  if (file.filename.trim() === '' || file.data.length === 0) throw errors.uploadIncomplete();

  const { base, suffix } = splitFileName(file.filename);
  const mimetype = detectMimeType(file.data);
  const suffixAllowed = settings.allowedSuffixes.split(',').map((item) => item.trim().toLowerCase().replace(/^\./, '')).includes(suffix);
  const mimeAllowed = settings.allowedMimeTypes.length === 0 || settings.allowedMimeTypes.map((item) => item.toLowerCase()).includes(mimetype);
  if (!suffixAllowed || !mimeAllowed) throw errors.uploadTypeNotAllowed();
  if (file.truncated || file.data.length > settings.maxSize) throw errors.uploadTooLarge();

  let width = 0;
  let height = 0;
  if (IMAGE_SUFFIXES.includes(suffix) || Object.values(IMAGE_MIME_TYPES).includes(mimetype)) {
    const image = imageInfo(file.data);
    if (!image) throw errors.invalidImage();
    ({ width, height } = image);
  }

  const topic = input.topic === undefined || input.topic === '' ? 'default' : input.topic;
  if (typeof topic !== 'string' || !ALPHA_DASH.test(topic) || topic.length > 20) throw errors.topicFormat();
  const driver = input.driver === undefined || input.driver === '' ? 'local' : input.driver;
  if (typeof driver !== 'string' || !ALPHA_DASH.test(driver) || driver !== 'local') throw errors.driverNotSupported(String(driver).slice(0, 30));

  const sha1 = createHash('sha1').update(file.data).digest('hex');
  const definition = resourceByTable(app, 'attachment');
  const now = nowSeconds();
  const existing = (await app.db
    .selectFrom('attachment')
    .selectAll()
    .where('sha1', '=', sha1)
    .where('topic', '=', topic)
    .where('storage', '=', driver)
    .orderBy('id')
    .executeTakeFirst());

  if (existing) {
    // The same file again: count it. A stored file that went missing is written back where its URL says.
    const target = fileOfUrl(app.settings.storageDir, String(existing.url));
    if (target && !(await isFile(target))) await writeStorageFile(target, file.data);
    if (target) {
      await app.db
        .updateTable('attachment')
        .set((eb) => ({ quote: eb('quote', '+', 1), last_upload_time: now }))
        .where('id', '=', Number(existing.id))
        .execute();
      const row = await app.db.selectFrom('attachment').selectAll().where('id', '=', Number(existing.id)).executeTakeFirstOrThrow();
      return rowFromStorage(definition, row);
    }
  }

  // only a file not stored yet takes from the uploader's quota
  await ensureQuota(app, input.uploader, file.data.length);
  const day = await today(app, now);
  const fileName = `${saveNamePart(base)}${sha1}.${suffix}`;
  const target = storageFile(app.settings.storageDir, topic, day, fileName);
  if (!target) throw errors.topicFormat();
  if (!(await isFile(target))) await writeStorageFile(target, file.data);
  const values: Row = {
    topic,
    admin_id: input.uploader.area === 'admin' ? input.uploader.id : 0,
    user_id: input.uploader.area === 'user' ? input.uploader.id : 0,
    url: `/storage/${topic}/${day}/${fileName}`,
    width,
    height,
    name: displayName(base, suffix),
    size: file.data.length,
    mimetype,
    quote: 1,
    storage: driver,
    sha1,
    create_time: now,
    last_upload_time: now,
  };
  const inserted = await app.db.insertInto('attachment').values(completeRow(definition, values, now)).returning('id').executeTakeFirstOrThrow();
  const row = await app.db.selectFrom('attachment').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
  return rowFromStorage(definition, row);
}
