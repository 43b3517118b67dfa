import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkResources } from './check.js';
import { SchemaError } from './normalise.js';
import type { ResourceDefinition } from './definition.js';

function listJsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return listJsonFiles(path);
      return name.endsWith('.json') ? [path] : [];
    });
}

/**
 * Load `schemas/**\/*.json` from `dir`, check every file and return the normalised definitions.
 * Throws a SchemaError naming the file (relative to the project) and the JSON path.
 */
export function loadResourceDefinitions(dir: string): ResourceDefinition[] {
  const base = join(dir, '..');
  const files = listJsonFiles(dir).map((path) => {
    const file = relative(base, path).replace(/\\/g, '/');
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new SchemaError(file, '', `not valid JSON: ${(error as Error).message}`);
    }
    return { file, raw };
  });
  return checkResources(files);
}
