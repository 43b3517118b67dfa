import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inflate } from 'fflate';
import { LANGUAGES, type Language } from '../../contract/headers.js';
import type { SchemaLocaleFile } from '../../schema/local-text.js';
import { ApiError, errors } from '../errors.js';
import { isOneOf, isRecord } from '../../contract/checks.js';

/**
 * A module package: what a zip (uploaded) or a folder (the catalogue, `modules/<uid>/`) holds, read and
 * checked before anything is written. A package is data only:
 *
 * - `module.json`: `uid`, `title` and `description` in both languages, `version` (`1.2.3`), `author`,
 *   optional `website` and `requires` (uids of other modules);
 * - `schemas/<$id>.json`: resource schemas whose `$id` starts with `<uid>/`;
 * - `locales/<zh-cn|en>/schemas/<$id>.json`: their texts (other JSON files under `locales/<lang>/` are kept
 *   but unused);
 * - `seed/<name>.json`: `{"$id", "rows"}`, the rows a schema's table starts with;
 * - PNG, JPEG, GIF and WebP images anywhere in the package.
 *
 * Anything else (a script, an SVG, a text file), a path with `..`, an absolute path, a link, an encrypted or
 * ZIP64 entry is refused naming the entry; so is a package larger than the limits below, counted on the
 * sizes the zip declares and again on the bytes actually inflated (a zip bomb stops at the limit).
 */

/** Limits of one package, once unpacked. */
export const PACKAGE_LIMITS = { fileBytes: 1024 * 1024, totalBytes: 8 * 1024 * 1024, files: 400, schemas: 20 } as const;

const UID = /^[a-z][a-z0-9_]{1,39}$/;
const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;
const IMAGE = /\.(png|jpe?g|gif|webp)$/i;
/** `crud/<table>` is the `$id` of a schema designed in the CRUD designer, which may change or delete it. */
const RESERVED_UIDS: ReadonlySet<string> = new Set(['crud']);
const INFO_KEYS = new Set(['uid', 'title', 'version', 'description', 'author', 'website', 'requires']);

/** `module.json`, checked. */
export interface ModuleInfo {
  uid: string;
  title: Record<Language, string>;
  version: string;
  description: Record<Language, string>;
  author: string;
  website: string;
  requires: string[];
}

/** A schema of the package with its locale texts. */
interface ModuleSchema {
  raw: Record<string, unknown>;
  locale?: Partial<Record<Language, SchemaLocaleFile>>;
}

export interface ModulePackage {
  info: ModuleInfo;
  schemas: ModuleSchema[];
  /** image files by their path in the package, base64 */
  images: Record<string, string>;
}

interface PackageFile {
  path: string;
  data: Uint8Array;
}

/** A path inside a package: relative, `/`-separated, no empty segment or one starting with `.` (`..`, hidden files), no drive letter or NUL. */
function checkEntryPath(name: string): void {
  const segments = name.split('/');
  const unsafe =
    name === '' || name.length > 300 || name.includes('\\') || name.includes('\0') || name.startsWith('/') || /^[a-zA-Z]:/.test(name) ||
    segments.some((segment) => segment === '' || segment.startsWith('.'));
  if (unsafe) throw errors.moduleEntryUnsafe(name.slice(0, 120));
}

// --- zip ---------------------------------------------------------------------------------------------

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

function unreadable(reason: string): Error {
  return errors.moduleZipUnreadable(reason);
}

/** Inflate one entry's data, stopping as soon as it passes the size its zip declares (itself within the limits). */
function inflateLimited(name: string, compressed: Uint8Array, declared: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflate = new Inflate((chunk) => {
    total += chunk.length;
    if (total > declared) throw errors.moduleZipEntryUnreadable(name.slice(0, 120), 'it inflates to more than the size the zip declares');
    chunks.push(chunk);
  });
  const step = 64 * 1024;
  try {
    for (let offset = 0; offset < compressed.length; offset += step) {
      inflate.push(compressed.subarray(offset, offset + step), offset + step >= compressed.length);
    }
    if (compressed.length === 0) inflate.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw errors.moduleZipEntryUnreadable(name.slice(0, 120), 'its compressed data is damaged');
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The files of a zip, every entry checked from its central directory record before any is inflated. */
function readZip(zip: Uint8Array): PackageFile[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) throw unreadable('not a zip file');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw unreadable('ZIP64 archives are not supported');
  if (count > PACKAGE_LIMITS.files) throw errors.modulePackageTooLarge(Math.floor(PACKAGE_LIMITS.totalBytes / 1024 / 1024), PACKAGE_LIMITS.files);
  const entries: { name: string; method: number; compressedSize: number; size: number; offset: number }[] = [];
  let declared = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== CENTRAL) throw unreadable('damaged central directory');
    const madeBy = view.getUint16(at + 4, true) >> 8;
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    const offset = view.getUint32(at + 42, true);
    let name: string;
    try {
      name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    } catch {
      throw errors.moduleEntryUnsafe('(a name that is not UTF-8)');
    }
    at += 46 + nameLength + extraLength + commentLength;
    const mode = external >>> 16;
    const fileType = mode & S_IFMT;
    // Unix (3) and macOS (19) record the file type in the high bits: anything but a file or a folder is refused.
    if ((madeBy === 3 || madeBy === 19) && fileType !== 0 && fileType !== S_IFREG && fileType !== S_IFDIR) throw errors.moduleEntryUnsafe(name.slice(0, 120));
    if (fileType === S_IFLNK) throw errors.moduleEntryUnsafe(name.slice(0, 120));
    const folder = name.endsWith('/');
    checkEntryPath(folder ? name.slice(0, -1) : name);
    if (folder) continue;
    if (flags & 1) throw errors.moduleZipEntryUnreadable(name.slice(0, 120), 'encrypted entries are not supported');
    if (method !== 0 && method !== 8) throw errors.moduleZipEntryUnreadable(name.slice(0, 120), 'its compression method is not supported (only stored and deflated)');
    if (size === 0xffffffff || compressedSize === 0xffffffff) throw unreadable('ZIP64 archives are not supported');
    if (size > PACKAGE_LIMITS.fileBytes) throw errors.moduleEntryTooLarge(name.slice(0, 120), Math.floor(PACKAGE_LIMITS.fileBytes / 1024));
    declared += size;
    if (declared > PACKAGE_LIMITS.totalBytes) throw errors.modulePackageTooLarge(Math.floor(PACKAGE_LIMITS.totalBytes / 1024 / 1024), PACKAGE_LIMITS.files);
    entries.push({ name, method, compressedSize, size, offset });
  }
  checkNames(entries.map((entry) => entry.name));
  let inflated = 0;
  return entries.map((entry) => {
    const local = entry.offset;
    if (local + 30 > zip.length || view.getUint32(local, true) !== LOCAL) throw errors.moduleZipEntryUnreadable(entry.name.slice(0, 120), 'the entry is damaged');
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + entry.compressedSize > zip.length) throw errors.moduleZipEntryUnreadable(entry.name.slice(0, 120), 'the entry is damaged');
    const raw = zip.subarray(start, start + entry.compressedSize);
    // The declared size may lie: the inflated bytes are counted against the limits as they come.
    const data = entry.method === 0 ? raw : inflateLimited(entry.name, raw, entry.size);
    if (data.length !== entry.size) throw errors.moduleZipEntryUnreadable(entry.name.slice(0, 120), 'its size differs from the size the zip declares');
    inflated += data.length;
    if (inflated > PACKAGE_LIMITS.totalBytes) throw errors.modulePackageTooLarge(Math.floor(PACKAGE_LIMITS.totalBytes / 1024 / 1024), PACKAGE_LIMITS.files);
    return { path: entry.name, data };
  });
}

/** Every name once (case-insensitively: two names one file on some disks) and of an allowed kind. */
function checkNames(names: string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) throw errors.moduleFileInvalid(name.slice(0, 120), 'the name appears twice');
    seen.add(key);
  }
}

// --- folder ------------------------------------------------------------------------------------------

/** The files of a folder (the catalogue), links refused, the same limits as a zip. */
function readFolder(dir: string): PackageFile[] {
  const files: PackageFile[] = [];
  let total = 0;
  const walk = (relative: string): void => {
    for (const name of readdirSync(join(dir, relative)).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      checkEntryPath(path);
      const stat = lstatSync(join(dir, path));
      if (stat.isDirectory()) {
        walk(path);
        continue;
      }
      if (!stat.isFile()) throw errors.moduleEntryUnsafe(path.slice(0, 120));
      if (stat.size > PACKAGE_LIMITS.fileBytes) throw errors.moduleEntryTooLarge(path.slice(0, 120), Math.floor(PACKAGE_LIMITS.fileBytes / 1024));
      total += stat.size;
      if (total > PACKAGE_LIMITS.totalBytes || files.length >= PACKAGE_LIMITS.files) throw errors.modulePackageTooLarge(Math.floor(PACKAGE_LIMITS.totalBytes / 1024 / 1024), PACKAGE_LIMITS.files);
      files.push({ path, data: readFileSync(join(dir, path)) });
    }
  };
  walk('');
  return files;
}

// --- contents ----------------------------------------------------------------------------------------

function isImage(data: Uint8Array): boolean {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => data[index] === byte);
  const ascii = (from: number, text: string) => [...text].every((char, index) => data[from + index] === char.charCodeAt(0));
  return starts(0x89, 0x50, 0x4e, 0x47) || starts(0xff, 0xd8, 0xff) || ascii(0, 'GIF8') || (ascii(0, 'RIFF') && ascii(8, 'WEBP'));
}

/** The line (from 1) where a JSON text stops parsing, when the parser says where; 0 when it does not (a text that is not UTF-8). */
function jsonErrorLine(data: Uint8Array, error: unknown): number {
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  if (position === undefined) return 0;
  const text = new TextDecoder().decode(data).slice(0, Number(position));
  return text.split('\n').length;
}

function parseJson(file: PackageFile): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(file.data));
  } catch (error) {
    throw errors.moduleFileNotJson(file.path.slice(0, 120), jsonErrorLine(file.data, error));
  }
}

function text(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= max;
}

function bothLanguages(value: unknown, key: string, max: number): Record<Language, string> {
  if (!isRecord(value) || !LANGUAGES.every((lang) => text(value[lang], max))) throw errors.moduleInfoIncomplete(`"${key}" needs a text in each language (${LANGUAGES.join(', ')}), at most ${max} characters`);
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, (value[lang] as string).trim()])) as Record<Language, string>;
}

function checkInfo(raw: unknown): ModuleInfo {
  if (!isRecord(raw)) throw errors.moduleInfoIncomplete('module.json must be an object');
  const unknown = Object.keys(raw).find((key) => !INFO_KEYS.has(key));
  if (unknown !== undefined) throw errors.moduleInfoIncomplete(`unknown key "${unknown.slice(0, 40)}"`);
  if (typeof raw.uid !== 'string' || !UID.test(raw.uid)) throw errors.moduleInfoIncomplete('"uid" is 2 to 40 lower-case letters, digits and "_", starting with a letter');
  if (RESERVED_UIDS.has(raw.uid)) throw errors.moduleInfoIncomplete(`the uid "${raw.uid}" is reserved (its schemas' "$id"s are the CRUD designer's)`);
  if (typeof raw.version !== 'string' || !VERSION.test(raw.version)) throw errors.moduleInfoIncomplete('"version" is written as 1.2.3');
  if (!text(raw.author, 100)) throw errors.moduleInfoIncomplete('"author" is a text of at most 100 characters');
  if (raw.website !== undefined && (typeof raw.website !== 'string' || !/^https?:\/\/\S{1,200}$/.test(raw.website))) throw errors.moduleInfoIncomplete('"website" is an http or https address');
  const requires = raw.requires ?? [];
  if (!Array.isArray(requires) || requires.length > 20 || !requires.every((uid) => typeof uid === 'string' && UID.test(uid) && uid !== raw.uid)) {
    throw errors.moduleInfoIncomplete('"requires" lists the uids of other modules');
  }
  return {
    uid: raw.uid,
    title: bothLanguages(raw.title, 'title', 100),
    version: raw.version,
    description: bothLanguages(raw.description, 'description', 1000),
    author: raw.author.trim(),
    website: raw.website ?? '',
    requires: [...new Set(requires as string[])],
  };
}

/** Sort a package's files into its parts, refusing any file a module may not hold. */
function assemble(given: PackageFile[]): ModulePackage {
  let files = given;
  // A zip made from the module's folder holds it under one top folder: that folder is the package.
  if (!files.some((file) => file.path === 'module.json')) {
    const tops = new Set(files.map((file) => file.path.split('/')[0]));
    const [top] = tops;
    if (tops.size === 1 && files.some((file) => file.path === `${top}/module.json`)) files = files.map((file) => ({ ...file, path: file.path.slice(top.length + 1) }));
  }
  const infoFile = files.find((file) => file.path === 'module.json');
  if (!infoFile) throw errors.moduleInfoIncomplete('the package has no module.json');
  const info = checkInfo(parseJson(infoFile));
  const schemas = new Map<string, ModuleSchema>();
  const locales: { lang: Language; id: string; file: PackageFile }[] = [];
  const seeds: PackageFile[] = [];
  const images: Record<string, string> = {};
  for (const file of files) {
    const { path } = file;
    if (path === 'module.json') continue;
    const schema = /^schemas\/(.+)\.json$/.exec(path);
    const locale = /^locales\/([^/]+)\/(.+)\.json$/.exec(path);
    if (schema) {
      const raw = parseJson(file);
      const id = isRecord(raw) ? raw.$id : undefined;
      if (id !== schema[1]) throw errors.moduleFileInvalid(path.slice(0, 120), `its "$id" must be "${schema[1]}", the path under schemas/`);
      if (!schema[1].startsWith(`${info.uid}/`)) throw errors.moduleFileInvalid(path.slice(0, 120), `a module's schemas have "$id"s starting with "${info.uid}/"`);
      schemas.set(schema[1], { raw: raw as Record<string, unknown> });
    } else if (locale && isOneOf(LANGUAGES, locale[1])) {
      const schemaLocale = /^schemas\/(.+)$/.exec(locale[2]);
      const parsed = parseJson(file);
      if (schemaLocale) locales.push({ lang: locale[1], id: schemaLocale[1], file: { ...file, data: new TextEncoder().encode(JSON.stringify(parsed)) } });
    } else if (/^seed\/[^/]+\.json$/.test(path)) {
      seeds.push(file);
    } else if (IMAGE.test(path)) {
      if (!isImage(file.data)) throw errors.moduleFileInvalid(path.slice(0, 120), 'not a PNG, JPEG, GIF or WebP image');
      images[path] = Buffer.from(file.data).toString('base64');
    } else {
      throw errors.moduleEntryType(path.slice(0, 120));
    }
  }
  if (schemas.size === 0) throw errors.moduleInfoIncomplete('the package has no schema (schemas/<uid>/<name>.json)');
  if (schemas.size > PACKAGE_LIMITS.schemas) throw errors.moduleInfoIncomplete(`at most ${PACKAGE_LIMITS.schemas} schemas`);
  for (const { lang, id, file } of locales) {
    const schema = schemas.get(id);
    if (!schema) throw errors.moduleFileInvalid(file.path.slice(0, 120), `the package has no schema "${id}"`);
    schema.locale = { ...schema.locale, [lang]: parseJson(file) as SchemaLocaleFile };
  }
  for (const file of seeds) {
    const seed = parseJson(file);
    const schema = isRecord(seed) && typeof seed.$id === 'string' ? schemas.get(seed.$id) : undefined;
    if (!schema || !isRecord(seed) || !Array.isArray(seed.rows) || !seed.rows.every(isRecord)) {
      throw errors.moduleFileInvalid(file.path.slice(0, 120), 'a seed file is {"$id": "<a schema of the package>", "rows": [{…}, …]}');
    }
    if (schema.raw['x-seed'] !== undefined) throw errors.moduleFileInvalid(file.path.slice(0, 120), `"${seed.$id as string}" already has rows in "x-seed"`);
    schema.raw = { ...schema.raw, 'x-seed': seed.rows };
  }
  return { info, schemas: [...schemas.values()], images };
}

/** A package from the bytes of a zip. */
export function packageOfZip(zip: Uint8Array): ModulePackage {
  return assemble(readZip(zip));
}

/** A package from a folder (the catalogue). */
export function packageOfFolder(dir: string): ModulePackage {
  return assemble(readFolder(dir));
}

/** Whether version `a` is higher than `b` (both `1.2.3`). */
export function isHigherVersion(a: string, b: string): boolean {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let index = 0; index < 3; index++) if (x[index] !== y[index]) return x[index] > y[index];
  return false;
}
