/**
 * What `npm start` and `npm run demo-data` run from: the build in dist/, made once when there is none (a
 * fresh clone) by scripts/build.js in a child process, whose memory goes with it. A build that no longer
 * matches the sources, or one another version wrote, stops the command with one line: the build is never
 * redone behind the operator's back. Plain JavaScript, for production installs without tsx.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildState } from '../build-stamp.js';

const REFUSALS = {
  stale: 'the sources changed since the last build',
  'other-layout': 'dist/ holds a build of another version, or an incomplete one',
};

/** Returns once the build in `root` is current; otherwise says why and exits the process with 1. */
export function requireCurrentBuild(root, command) {
  let state = buildState(root);
  if (state === 'missing') {
    console.log('No build found: building the client and the server once (npm run build)…');
    const build = spawnSync(process.execPath, [join(root, 'scripts/build.js')], { stdio: 'inherit' });
    if (build.status !== 0) {
      console.error(`Cannot ${command}: the build failed (see above); fix it and run \`npm run build\`.`);
      process.exit(1);
    }
    state = buildState(root);
  }
  if (state !== 'current') {
    console.error(`Cannot ${command}: ${REFUSALS[state] ?? `the build is ${state}`}; run \`npm run build\`, then ${command} again.`);
    process.exit(1);
  }
}
