import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkHookIds, RESOURCE_HOOKS } from '../../src/server/resources/index.js';
import { PROJECT_ROOT, startTestServer } from '../support/test-server.js';

/**
 * Server hooks are found by the schema's `$id`: the key of the registry, and the file
 * `src/server/resources/<$id>.ts` that exports them. A hook whose schema is not loaded stops the start,
 * so a renamed schema cannot quietly lose its hooks.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the resource hook registry', () => {
  it.each(Object.entries(RESOURCE_HOOKS))('%s names a schema file and is exported by src/server/resources/<$id>.ts', async (id, hooks) => {
    const schema = JSON.parse(readFileSync(join(PROJECT_ROOT, 'schemas', `${id}.json`), 'utf8')) as { $id: string };
    expect(schema.$id).toBe(id);
    const module = (await import(join(PROJECT_ROOT, 'src/server/resources', `${id}.ts`))) as Record<string, unknown>;
    expect(Object.values(module)).toContain(hooks);
  });

  it('refuses a hook for a schema that is not loaded, naming it and its file', () => {
    expect(() => checkHookIds(['system/user'], { 'system/user': {}, 'system/balance_log': {} })).toThrow(
      /unknown schema system\/balance_log \(src\/server\/resources\/system\/balance_log\.ts\)/,
    );
    expect(() => checkHookIds(Object.keys(RESOURCE_HOOKS))).not.toThrow();
  });

  it('stops the start when a hooked schema was renamed, before migrating a table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chidao-hooks-'));
    dirs.push(dir);
    const schemas = join(dir, 'schemas');
    cpSync(join(PROJECT_ROOT, 'schemas'), schemas, { recursive: true });
    // The balance ledger under a new name, and every reference to it renamed too: without its hooks it
    // would take the generic edit and delete.
    for (const entry of readdirSync(schemas, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json'))) {
      const path = join(schemas, entry);
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"system/user_money_log"', '"system/balance_log"'));
    }
    renameSync(join(schemas, 'system/user_money_log.json'), join(schemas, 'system/balance_log.json'));
    await expect(startTestServer('sqlite', { schemasDir: schemas })).rejects.toThrow(/Hooks for unknown schema system\/user_money_log/);
  });
});
