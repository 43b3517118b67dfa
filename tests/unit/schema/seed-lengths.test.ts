import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';

/**
 * Every seeded value fits its column. SQLite keeps any length in a varchar, PostgreSQL refuses the row, so
 * a seed written one character too long would start on the embedded database and stop a PostgreSQL start.
 */
const definitions = loadResourceDefinitions(resolve(import.meta.dirname, '../../../schemas'));

describe("the project's seeds", () => {
  it('fit their varchar columns', () => {
    const checked: string[] = [];
    const tooLong: string[] = [];
    for (const definition of definitions) {
      for (const [index, row] of definition.seed.entries()) {
        for (const field of definition.fields) {
          const length = field.storage?.type === 'varchar' ? field.storage.length : undefined;
          const value = row[field.name];
          if (length === undefined || typeof value !== 'string') continue;
          checked.push(field.name);
          // PostgreSQL counts characters, as a string's code points
          if ([...value].length > length) tooLong.push(`${definition.id} seed #${index + 1} ${field.name}: ${[...value].length} > ${length}`);
        }
      }
    }
    expect(checked.length).toBeGreaterThan(200);
    expect(tooLong).toEqual([]);
  });
});
