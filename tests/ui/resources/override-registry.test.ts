import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORM_INPUTS, SCREEN_OVERRIDES } from '../../../src/client/admin/resources/index.js';

/**
 * The client's hand-written screens are found the way the server's hooks are: by the schema's `$id`, in
 * `src/client/admin/resources/<$id>/index.tsx`. A key that names no schema would never be used, so a renamed
 * schema would fall back to its generated screens without a word: this check fails the build instead.
 */

const ROOT = join(import.meta.dirname, '../../..');
const registries = { SCREEN_OVERRIDES, FORM_INPUTS } as Record<string, Readonly<Record<string, unknown>>>;
const entries = Object.entries(registries).flatMap(([registry, overrides]) => Object.entries(overrides).map(([id, override]) => [registry, id, override] as const));

describe('the client override registries', () => {
  it.each(entries)('%s: %s names a schema file and is exported by resources/<$id>/index.tsx', async (_registry, id, override) => {
    const file = join(ROOT, 'schemas', `${id}.json`);
    expect(existsSync(file), `schemas/${id}.json`).toBe(true);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { $id: string }).$id).toBe(id);
    const module = (await import(join(ROOT, 'src/client/admin/resources', id, 'index.tsx'))) as Record<string, unknown>;
    expect(Object.values(module)).toContain(override);
  });
});
