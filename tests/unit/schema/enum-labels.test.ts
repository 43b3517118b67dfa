import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chipColorOf, enumValuesOf } from '../../../src/client/admin/fields/enum-options.js';
import { rendererOf } from '../../../src/client/admin/fields/renderer-of.js';
import { LANGUAGES } from '../../../src/contract/headers.js';
import type { FieldDefinition, ResourceDefinition } from '../../../src/schema/definition.js';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';

/**
 * Every value a screen can show from a fixed set (an enum, the items of a list of choices, a yes/no
 * field) has a label in both languages, and a colour that says what it means wherever it is drawn as a
 * chip: a value without one would read as its raw key, or as a chip coloured by its place in the list.
 */

/** The values a field can hold that a screen labels: its enum, its items' enum, or yes and no. */
function shownValues(field: FieldDefinition, definition: ResourceDefinition): readonly (string | number | boolean)[] {
  if (field.wireType === 'boolean') return [true, false];
  return enumValuesOf(field, definition) ?? [];
}

const definitions = loadResourceDefinitions(resolve(import.meta.dirname, '../../../schemas'));
const walked = definitions.flatMap((definition) =>
  definition.fields.flatMap((field) => shownValues(field, definition).map((value) => ({ definition, field, value, where: `${definition.id}.${field.name} = ${JSON.stringify(value)}` }))),
);

describe("the project's schemas", () => {
  it('label every enum and yes/no value in both languages', () => {
    expect(walked.length).toBeGreaterThan(150);
    const unlabelled = walked.filter(({ definition, field, value }) => {
      const label = field.ui.options?.[String(value)];
      const borrowed = definition.textGaps.some((gap) => gap.path === `/properties/${field.name}/x-ui/options/${String(value)}`);
      return !label || borrowed || LANGUAGES.some((lang) => label[lang].trim() === '');
    });
    expect(unlabelled.map(({ where }) => where)).toEqual([]);
  });

  it('give every value drawn as a chip a colour that means something', () => {
    const chips = walked.filter(({ field }) => ['tag', 'tags'].includes(rendererOf(field)));
    expect(chips.length).toBeGreaterThan(100);
    const uncoloured = chips.filter(({ field, value }) => field.ui.colors?.[String(value)] === undefined);
    expect(uncoloured.map(({ where }) => where)).toEqual([]);
  });

  it("name a provider's outcomes exactly as the attempts they record", () => {
    const field = (id: string, name: string) => (definitions.find((candidate) => candidate.id === id) as ResourceDefinition).fields.find((candidate) => candidate.name === name) as FieldDefinition;
    const exitMap = field('survey/provider', 'exit_map');
    const status = field('survey/participation', 'status');
    const outcomes = Object.keys(exitMap.ui.options ?? {});
    expect(outcomes).toEqual(['complete', 'terminate', 'overquota', 'security']);
    for (const outcome of outcomes) {
      expect(exitMap.ui.options?.[outcome]).toEqual(status.ui.options?.[outcome]);
      expect(exitMap.ui.colors?.[outcome]).toBe(status.ui.colors?.[outcome]);
    }
  });

  it('colour money and reviews by outcome: paid and credited green, held and pending amber, refused red', () => {
    const colour = (id: string, name: string, value: string) => {
      const definition = definitions.find((candidate) => candidate.id === id) as ResourceDefinition;
      return chipColorOf(definition.fields.find((field) => field.name === name) as FieldDefinition, value);
    };
    expect(colour('survey/participation', 'credit_state', 'credited')).toBe('success');
    expect(colour('survey/participation', 'credit_state', 'held')).toBe('warning');
    expect(colour('user/payout', 'status', 'paid')).toBe('success');
    expect(colour('user/payout', 'status', 'rejected')).toBe('error');
    expect(colour('survey/quick_task_submission', 'status', 'pending')).toBe('warning');
  });
});
