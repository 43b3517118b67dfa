/**
 * `npm start`: runs the server bundle (dist/server/main.js) in this process, so the server is the
 * process npm's shell runs and receives SIGTERM and SIGINT itself. Plain JavaScript, for production
 * installs without tsx.
 *
 * With no build at all (a fresh clone), it first runs the build (scripts/build.js, what `npm run build`
 * runs) in a child process, whose memory goes with it. A build that no longer matches the sources, or one
 * another version wrote, stops the start with one line: the build is never redone behind the operator's back.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildState, SERVER_ENTRY } from './build-stamp.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const REFUSALS = {
  stale: 'the sources changed since the last build',
  'other-layout': 'dist/ holds a build of another version, or an incomplete one',
};

let state = buildState(root);
if (state === 'missing') {
  console.log('No build found: building the client and the server once (npm run build)…');
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.js')], { stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('Cannot start: the build failed (see above); fix it and run `npm run build`.');
    process.exit(1);
  }
  state = buildState(root);
}
if (state !== 'current') {
  console.error(`Cannot start: ${REFUSALS[state] ?? `the build is ${state}`}; run \`npm run build\`, then start again.`);
  process.exit(1);
}
await import(pathToFileURL(join(root, SERVER_ENTRY)).href);
