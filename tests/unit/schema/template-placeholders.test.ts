import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/contract/headers.js';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';

/**
 * The operator writes mail and SMS templates with `{name}` placeholders: the help under each text field
 * names every placeholder the seeded templates use, in both languages, so nobody has to guess them.
 */
const definitions = loadResourceDefinitions(resolve(import.meta.dirname, '../../../schemas'));

describe.each(['system/mail_template', 'system/sms_template'])('%s', (id) => {
  const definition = definitions.find((candidate) => candidate.id === id);

  it('names in the help of each text every placeholder its seeded templates use', () => {
    expect(definition).toBeDefined();
    const texts = ['subject', 'content'].filter((name) => definition!.fields.some((field) => field.name === name));
    expect(texts).toContain('content');
    for (const name of texts) {
      const used = new Set(definition!.seed.flatMap((row) => [String(row[name] ?? ''), String(row[`${name}_en`] ?? '')]).flatMap((text) => text.match(/\{[a-z_]+\}/g) ?? []));
      expect(used.size, name).toBeGreaterThan(0);
      const help = definition!.fields.find((field) => field.name === name)!.help;
      for (const lang of LANGUAGES) {
        for (const placeholder of used) expect(help?.[lang] ?? '', `${name} (${lang})`).toContain(placeholder);
      }
    }
  });
});
