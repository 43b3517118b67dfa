/**
 * `npm start`: runs the server bundle (dist/server/main.js) in this process, so the server is the
 * process npm's shell runs and receives SIGTERM and SIGINT itself. Plain JavaScript, for production
 * installs without tsx. With no build at all (a fresh clone) it builds first (scripts/lib/current-build.js).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVER_ENTRY } from './build-stamp.js';
import { requireCurrentBuild } from './lib/current-build.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

requireCurrentBuild(root, 'start');
await import(pathToFileURL(join(root, SERVER_ENTRY)).href);
