import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeModuleProblem } from '../../../src/server/db/connection.js';

/**
 * better-sqlite3 built under one Node and the server started under another: start-up stops with one line
 * that says what the module was built for, what runs, and the command that fixes it.
 */

/** The error Node raises when an addon built for another ABI is loaded, as Node words it. */
function abiMismatch(builtFor: number, required: number): Error {
  const error = new Error(
    `The module '/srv/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION ${builtFor}. This version of Node.js requires\nNODE_MODULE_VERSION ${required}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
  );
  return Object.assign(error, { code: 'ERR_DLOPEN_FAILED' });
}

describe('a native module built for another Node', () => {
  it('names the Node it was built for, the Node running, and the rebuild command, on one line', () => {
    const line = nativeModuleProblem(abiMismatch(115, 137), { version: 'v24.11.0', modules: '137' });
    expect(line).toBe('better-sqlite3 was built for Node 20 (NODE_MODULE_VERSION 115), but this is Node 24.11.0 (NODE_MODULE_VERSION 137): run `npm rebuild better-sqlite3` with this Node.');
    expect(line).not.toContain('\n');
  });

  it('still gives the command when the ABI of the build is not one it knows', () => {
    expect(nativeModuleProblem(abiMismatch(999, 127), { version: 'v22.12.0', modules: '127' })).toBe(
      'better-sqlite3 was built for another Node (NODE_MODULE_VERSION 999), but this is Node 22.12.0 (NODE_MODULE_VERSION 127): run `npm rebuild better-sqlite3` with this Node.',
    );
  });

  it('maps a module file that fails to load at all (a real dlopen failure) to the same advice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chidao-addon-'));
    try {
      const file = join(dir, 'broken.node');
      writeFileSync(file, 'not an ELF file');
      let failure: unknown;
      try {
        createRequire(import.meta.url)(file);
      } catch (error) {
        failure = error;
      }
      expect(nativeModuleProblem(failure)).toBe(
        `better-sqlite3 was built for another Node or system, but this is Node ${process.version.slice(1)} (NODE_MODULE_VERSION ${process.versions.modules}): run \`npm rebuild better-sqlite3\` with this Node.`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves every other failure to open the database as it is', () => {
    expect(nativeModuleProblem(Object.assign(new Error('SQLITE_CANTOPEN: unable to open database file'), { code: 'SQLITE_CANTOPEN' }))).toBeUndefined();
    expect(nativeModuleProblem('not an error')).toBeUndefined();
  });
});
