import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFiles } from '../../../scripts/gen-types.js';
import type { ResourceDefinition } from '../../../src/schema/definition.js';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';

/**
 * The promise of the generated `Database` type: a query that names a column its schema does not declare
 * does not compile. The types are generated from the project's schemas into a folder under
 * `node_modules/.cache` (where `kysely` resolves), beside a service-like query on `survey.description`,
 * and compiled with the project's compiler options: once as the schemas are, once with that field removed
 * from the survey schema.
 *
 * @module-tag full (the TypeScript compiler over the generated types, seconds of CPU a compile): `npm test` runs it, `npm run test:quick` leaves it out.
 */

const PROJECT_ROOT = resolve(import.meta.dirname, '../../..');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const QUERY = `
import type { Kysely } from 'kysely';
import type { SchemaTables } from './database.js';

export async function surveyText(db: Kysely<SchemaTables>, id: number): Promise<string> {
  const survey = await db.selectFrom('survey').select(['title', 'description', 'reward_money']).where('id', '=', id).executeTakeFirstOrThrow();
  const cents: number = survey.reward_money;
  return \`\${survey.title}: \${survey.description} (\${cents})\`;
}
`;

async function compileAgainst(definitions: ResourceDefinition[]): Promise<string[]> {
  const cache = join(PROJECT_ROOT, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const folder = mkdtempSync(join(cache, 'schema-columns-'));
  folders.push(folder);
  for (const [name, code] of await generateFiles(definitions)) writeFileSync(join(folder, name), code);
  writeFileSync(join(folder, 'query.ts'), QUERY);
  const config = ts.readConfigFile(join(PROJECT_ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, PROJECT_ROOT);
  const program = ts.createProgram([join(folder, 'query.ts')], { ...options, types: [], noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

function withoutField(definitions: ResourceDefinition[], id: string, field: string): ResourceDefinition[] {
  return definitions.map((definition) =>
    definition.id !== id
      ? definition
      : {
          ...definition,
          fields: definition.fields.filter((item) => item.name !== field),
          rowSchema: { ...definition.rowSchema, properties: Object.fromEntries(Object.entries(definition.rowSchema.properties as Record<string, unknown>).filter(([name]) => name !== field)) },
        },
  );
}

describe('generated Database type', () => {
  const definitions = loadResourceDefinitions(join(PROJECT_ROOT, 'schemas'));

  it('compiles a query on the columns the schemas declare, money as integer cents', async () => {
    expect(await compileAgainst(definitions)).toEqual([]);
  }, 60_000);

  it('refuses the same query once the schema no longer has the column', async () => {
    const errors = await compileAgainst(withoutField(definitions, 'survey/survey', 'description'));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(/description/);
  }, 60_000);
});
