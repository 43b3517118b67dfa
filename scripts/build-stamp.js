/**
 * The build stamp, dist/build-info.json: what `npm run build` (scripts/build.js) built from, so that
 * `npm start` (scripts/start.js) can tell a build that no longer matches its sources. Plain JavaScript:
 * both scripts run on a production install, without tsx.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const BUILD_INFO = 'dist/build-info.json';
export const SERVER_ENTRY = 'dist/server/main.js';
export const CLIENT_ENTRY = 'dist/client/index.html';

/**
 * The shape of dist/ that this version's start expects. Raised whenever what the build writes, or where,
 * changes: a build of another layout is refused rather than half used.
 */
export const BUILD_LAYOUT = 1;

/**
 * What the client and the server bundle are made of. Not what a schema brings, so that a new or changed
 * schema needs only a restart: the server reads `schemas/` and the schemas' locale files
 * (`locales/<lang>/schemas/`) at start-up, and `npm run gen`'s `src/generated/` holds types only, which
 * the bundles do not contain.
 */
const SOURCES = ['src', 'locales', 'vite.config.ts', 'package-lock.json'];
const NOT_BUILT = [/^src\/generated\//, /^locales\/[^/]+\/schemas\//];

function filesBelow(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => filesBelow(join(path, entry.name)));
}

/** A SHA-256 of the build's sources below `root`: their paths and contents, in a fixed order. */
export function sourceHash(root) {
  const hash = createHash('sha256');
  const files = SOURCES.map((path) => join(root, path)).filter(existsSync).flatMap(filesBelow);
  for (const file of files.filter((path) => !NOT_BUILT.some((pattern) => pattern.test(relative(root, path).split(sep).join('/'))))) {
    hash.update(relative(root, file).split(sep).join('/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Where the build in `root` stands:
 * - `missing`: nothing was ever built here (a fresh clone);
 * - `other-layout`: dist/ holds a build another version wrote, or one that is incomplete;
 * - `stale`: the sources changed since the build;
 * - `current`: built from these sources, or copied without them (no src/ to compare with).
 */
export function buildState(root) {
  const stampFile = join(root, BUILD_INFO);
  const hasStamp = existsSync(stampFile);
  const hasOutput = [SERVER_ENTRY, CLIENT_ENTRY].some((path) => existsSync(join(root, path)));
  if (!hasStamp && !hasOutput) return 'missing';
  if (!hasStamp) return 'other-layout';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return 'other-layout';
  }
  if (stamp?.layout !== BUILD_LAYOUT || ![SERVER_ENTRY, CLIENT_ENTRY].every((path) => existsSync(join(root, path)))) return 'other-layout';
  if (!existsSync(join(root, 'src'))) return 'current';
  return stamp.sources === sourceHash(root) ? 'current' : 'stale';
}
