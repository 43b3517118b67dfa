import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaReference } from '../../../scripts/schema-reference.js';
import { checkSchemaFiles, readSchemaFiles } from '../../../src/schema/load-files.js';
import { RENDERS, WIDGETS, X_KEYWORDS } from '../../../src/schema/meta-schema.js';

/**
 * `docs/schema-reference.md` as `npm run gen` writes it (`npm run gen:check` compares it with the file):
 * the same text at every run, every keyword, widget and render of the meta-schema, and each field as its
 * schema declares it.
 */

const files = readSchemaFiles(join(import.meta.dirname, '../../../schemas'));
const definitions = checkSchemaFiles(files);

describe('the schema reference', () => {
  it('is the same text at every run, whatever order the schemas come in', () => {
    expect(schemaReference([...definitions].reverse(), [...files].reverse())).toBe(schemaReference(definitions, files));
  });

  it('has a row for every keyword of ours, every widget and every render', () => {
    const page = schemaReference(definitions, files);
    for (const keyword of X_KEYWORDS) expect(page).toContain(`| \`${keyword}\` |`);
    for (const widget of WIDGETS) expect(page).toContain(`| \`${widget}\` |`);
    for (const render of RENDERS) expect(page).toContain(`| \`${render}\` |`);
  });

  it("gives every keyword, widget and render an example: a schema of the project, else the page's written example", () => {
    const page = schemaReference(definitions, files);
    const section = (heading: string) => {
      const start = page.indexOf(`\n## ${heading}\n`);
      return page.slice(start, page.indexOf('\n## ', start + 1));
    };
    const tableRows = ['Resource keywords', 'Field keywords', 'Widgets', 'Renders'].flatMap((heading) =>
      section(heading)
        .split('\n')
        .filter((line) => line.startsWith('| `')),
    );
    expect(tableRows.length).toBeGreaterThan(X_KEYWORDS.length + WIDGETS.length + RENDERS.length);
    expect(tableRows.filter((line) => /\|\s*\|$/.test(line))).toEqual([]);
    // what no schema uses points at the written example, which the page prints in full
    expect(page).toContain('| `float` | a decimal-number box | 0 | [example](#example) `weight`: ');
    expect(page).toContain('## Example');
    expect(page).toContain('"$id": "demo/example"');
  });

  it('lists a field as its schema declares it: title, type, column, widget, filter and rules', () => {
    const survey = files.find((file) => file.file === 'schemas/survey/survey.json');
    const raw = structuredClone(survey?.raw) as { properties: Record<string, unknown>; required: string[] };
    raw.properties.panel_code = {
      type: 'string',
      title: { 'zh-cn': '面板代码', en: 'Panel code' },
      maxLength: 12,
      'x-unique': true,
      'x-ui': { list: true, search: 'LIKE' },
    };
    raw.required = [...raw.required, 'panel_code'];
    const changed = files.map((file) => (file === survey ? { ...file, raw } : file));
    const page = schemaReference(checkSchemaFiles(changed), changed);
    expect(page).toContain(
      '| `panel_code` | Panel code (面板代码) | string | varchar(12) | string | yes | `LIKE` | required; unique |',
    );
    expect(schemaReference(definitions, files)).not.toContain('panel_code');
  });
});
