import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import type { Controller } from '../../../src/server/app-context.js';
import { allows, type Identity } from '../../../src/server/auth/identity.js';

/**
 * The promise of the generated permission nodes (`src/generated/permission-nodes.ts`): code that names a node
 * no schema or seed declares does not compile. The lines marked `@ts-expect-error` below are checked by the
 * project's `tsc` (part of landing and `npm test`), which fails if they ever compile; the tests compile a
 * snippet the same way and read the compiler's answer.
 *
 * @module-tag full (the TypeScript compiler over the project's types, seconds of CPU a compile): `npm test` runs it, `npm run test:quick` leaves it out.
 */

const PROJECT_ROOT = resolve(import.meta.dirname, '../../..');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const member: Identity = { area: 'user', id: 1, username: 'user', account: {}, groupIds: [1], isSuper: false, ruleIds: new Set([2]), ruleNames: new Set(['account/overview']) };

// A node a seed declares (the member centre's overview page) compiles.
const declared: boolean = allows(member, 'account/overview');
// @ts-expect-error: no schema or seed declares this node, so no rule could ever grant it
const misspelt: boolean = allows(member, 'account/overveiw');

export const controllerNaming: Pick<Controller, 'permissions'> = {
  // @ts-expect-error: a controller may not admit an action with an undeclared node either
  permissions: { getUserData: ['account/overveiw'] },
};

/** The compiler's messages for `code`, written beside the project's sources and compiled with its options. */
function compile(code: string): string[] {
  const cache = join(PROJECT_ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const folder = mkdtempSync(join(cache, 'permission-nodes-'));
  folders.push(folder);
  const file = join(folder, 'check.ts');
  const identity = relative(folder, join(PROJECT_ROOT, 'src/server/auth/identity.js')).replace(/\\/g, '/');
  writeFileSync(file, `import { allows, type Identity } from '${identity}';\n${code}\n`);
  const config = ts.readConfigFile(join(PROJECT_ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, PROJECT_ROOT);
  const program = ts.createProgram([file], { ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file?.fileName === file).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('permission nodes in code', () => {
  it('checks a declared node at run time, and an undeclared one grants nothing', () => {
    expect(declared).toBe(true);
    expect(misspelt).toBe(false);
    expect(allows(member, 'account/profile')).toBe(false);
  });

  it('compiles a check of nodes the schemas and seeds declare, in both areas, and refuses one nobody declares, naming it', () => {
    const messages = compile(
      [
        `export const ok = (admin: Identity, user: Identity) => allows(admin, 'user/payout/account') && allows(admin, 'routine/jobs/run') && allows(user, 'survey/ranking');`,
        `export const wrong = (admin: Identity) => allows(admin, 'user/payout/acount');`,
      ].join('\n'),
    );
    expect(messages, messages.join('\n')).toHaveLength(1);
    expect(messages[0]).toContain('"user/payout/acount"');
    expect(messages[0]).toContain('DeclaredNode');
  }, 60_000);
});
