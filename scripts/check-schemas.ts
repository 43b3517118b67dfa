/**
 * Check the schema files of a folder (default `schemas/`) as the server does at start-up: the
 * meta-schema, the normalising rules, references between schemas and their locale files. Prints the
 * number of resources checked, or the file and JSON path of the first problem and exits with 1.
 *
 *   tsx scripts/check-schemas.ts [schemas folder]
 *
 * The web terminal runs it as `schema.check` on the folder the server loaded.
 */
import { resolve } from 'node:path';
import { loadResourceDefinitions } from '../src/schema/load-files.js';
import { SchemaError } from '../src/schema/normalise.js';

const dir = resolve(process.argv[2] ?? resolve(import.meta.dirname, '..', 'schemas'));
console.log(`Checking the schemas in ${dir}`);
try {
  const definitions = loadResourceDefinitions(dir);
  console.log(`${definitions.length} schemas are valid`);
} catch (error) {
  if (!(error instanceof SchemaError)) throw error;
  console.error(`Invalid schema: ${error.message}`);
  process.exitCode = 1;
}
