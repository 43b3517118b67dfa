import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Where a name that came from outside (a table of an imported database, a schema's `$id`, a module's uid, a
 * stored file's URL) becomes a path on disk. Every such path is made here: a segment that could climb out
 * (`..`, a separator, a NUL) is refused, and the resolved path must lie inside its folder, so no name can
 * make the server write or read a file anywhere else.
 */

/** A plain name: letters, digits and `_` only (what a table, a schema name or a module uid may be called). */
const PLAIN_NAME = /^[A-Za-z0-9_]+$/;

export function isPlainName(name: string): boolean {
  return PLAIN_NAME.test(name);
}

/** Whether `path` lies inside the folder `root` (never `root` itself). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel !== '' && !isAbsolute(rel) && !rel.split(sep).includes('..');
}

/**
 * `root` joined with `segments`, or undefined when a segment is empty, `.` or `..`, holds a separator or a
 * NUL, or the resolved path would leave `root`.
 */
export function pathInside(root: string, segments: readonly string[]): string | undefined {
  if (segments.length === 0 || segments.some((segment) => segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment))) return undefined;
  const path = resolve(root, ...segments);
  return isInside(root, path) ? path : undefined;
}

/**
 * The file `root/<name>/<name>…<extension>` for plain names (`schemas/` + `crud/order` + `.json`), or
 * undefined when any name is not plain or the path would leave `root`.
 */
export function namedPath(root: string, names: readonly string[], extension = ''): string | undefined {
  if (names.length === 0 || !names.every(isPlainName)) return undefined;
  return pathInside(root, [...names.slice(0, -1), `${names[names.length - 1]}${extension}`]);
}
