import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_INFO, BUILD_LAYOUT, buildState, sourceHash } from '../../scripts/build-stamp.js';

/**
 * The build stamp `npm start` compares with the sources: code and the client's message files make a build
 * stale; what a schema brings (its locale files, `npm run gen`'s types) does not, so a new schema needs
 * only a restart, as the README says.
 */

let root: string;

function write(file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

function stamp(): void {
  write(BUILD_INFO, JSON.stringify({ layout: BUILD_LAYOUT, sources: sourceHash(root) }));
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  write('src/server/main.ts', 'export {};\n');
  write('src/generated/resources.ts', 'export interface Row { id: number }\n');
  write('locales/en/admin/shell.json', '{"a": "A"}\n');
  write('dist/server/main.js', '');
  write('dist/client/index.html', '');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the build stamp', () => {
  it('stays current when a schema brings locale files or npm run gen rewrites the types', () => {
    stamp();
    expect(buildState(root)).toBe('current');
    write('locales/en/schemas/demo/thing.json', '{"title": "Thing"}\n');
    write('src/generated/resources.ts', 'export interface Row { id: number; name: string }\n');
    expect(buildState(root)).toBe('current');
  });

  it('turns stale when code or a message file the client is built with changes', () => {
    stamp();
    write('src/server/main.ts', 'export const changed = 1;\n');
    expect(buildState(root)).toBe('stale');
    stamp();
    write('locales/en/admin/shell.json', '{"a": "B"}\n');
    expect(buildState(root)).toBe('stale');
  });

  it('leaves out only what no bundle holds: the generated files declare types and nothing else', () => {
    const dir = join(import.meta.dirname, '../../src/generated');
    for (const file of readdirSync(dir)) {
      const statements = readFileSync(join(dir, file), 'utf8').split('\n').filter((line) => /^(export|import|const|let|var|function|class)\b/.test(line));
      expect(statements.filter((line) => !/^(export (interface|type)|import type)\b/.test(line)), file).toEqual([]);
    }
  });
});
