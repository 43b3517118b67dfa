import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isInside, pathInside } from '../safe-paths.js';

/**
 * The local upload storage: a directory served read-only at `/storage/` (docs/wire-contract.md#uploads). Attachment rows
 * hold URLs such as `/storage/default/20240315/avatar<sha1>.png`; this module maps them to files inside
 * the directory, never outside it.
 */

export const STORAGE_URL_PREFIX = '/storage/';

/** A URL path under the storage directory, when it is a plain relative path: no `..`, no dot segments. */
function isSafeStoragePath(path: string): boolean {
  if (path.includes('\0') || path.includes('\\')) return false;
  const segments = path.split('/').filter((segment) => segment !== '');
  return segments.length > 0 && segments.every((segment) => !segment.startsWith('.'));
}

/** The file of a `/storage/...` URL, or undefined when the URL does not point inside the storage directory. */
export function fileOfUrl(storageDir: string, url: string): string | undefined {
  if (!url.startsWith(STORAGE_URL_PREFIX)) return undefined;
  const path = url.slice(STORAGE_URL_PREFIX.length);
  if (!isSafeStoragePath(path)) return undefined;
  return pathInside(storageDir, path.split('/').filter(Boolean));
}

export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Write a file atomically (temporary name, then rename); directories are created as needed. */
export async function writeStorageFile(file: string, data: Buffer): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Delete a stored file, then its parent directories while they are empty, up to the storage directory. */
export async function removeStorageFile(storageDir: string, file: string): Promise<void> {
  if (!isInside(storageDir, file)) return;
  await rm(file, { force: true });
  let directory = dirname(file);
  while (isInside(storageDir, directory) && existsSync(directory)) {
    if ((await readdir(directory)).length > 0) break;
    await rmdir(directory).catch(() => undefined);
    directory = dirname(directory);
  }
}

/** The file of `segments` inside the storage directory, or undefined when they would lead out of it. */
export function storageFile(storageDir: string, ...segments: string[]): string | undefined {
  return pathInside(storageDir, segments);
}
