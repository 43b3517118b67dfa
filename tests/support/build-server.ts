import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The server bundle the tests run (`node dist/test-server/main.js`, and every test server when
 * TEST_SERVER=bundle): built by the project's build script, server only, beside the real build's
 * dist/server so a test run never replaces what `npm start` serves.
 */
export const TEST_SERVER_BUNDLE = join(ROOT, 'dist/test-server');

/**
 * Vitest global setup of the node project: one server bundle for the whole run (about a second). The quick
 * lane (`--tags-filter='!full'` on the sources) runs nothing that needs it: the tests that run the bundle as
 * a process are tagged `full`, so it is not built then.
 */
export default function buildServerBundle(project: TestProject): void {
  if (process.env.TEST_SERVER !== 'bundle' && project.globalConfig.tagsFilter?.includes('!full')) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.js'), '--server-only', '--outdir', TEST_SERVER_BUNDLE], { stdio: 'inherit' });
}
