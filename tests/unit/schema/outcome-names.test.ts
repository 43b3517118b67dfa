import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/contract/headers.js';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';

/**
 * An outcome of an attempt has one name wherever a person reads it: the participation's status, the
 * provider's exit code map, the security log's claimed status, and the member centre's labels and
 * outcome page titles. "Screened out" in one place and "Terminate" in another reads as two things.
 */
const root = resolve(import.meta.dirname, '../../..');
const definitions = loadResourceDefinitions(resolve(root, 'schemas'));

function optionsOf(id: string, field: string): Record<string, Record<string, string>> {
  const definition = definitions.find((candidate) => candidate.id === id);
  const options = definition?.fields.find((candidate) => candidate.name === field)?.ui.options;
  expect(options, `${id}.${field}`).toBeDefined();
  return options as Record<string, Record<string, string>>;
}

describe('outcome names', () => {
  const status = optionsOf('survey/participation', 'status');
  const places = { 'survey/provider.exit_map': optionsOf('survey/provider', 'exit_map'), 'survey/security_event.reported': optionsOf('survey/security_event', 'reported') };

  it.each(LANGUAGES)('are the same in every list and form (%s)', (lang) => {
    for (const [place, options] of Object.entries(places)) {
      for (const [value, label] of Object.entries(options)) {
        if (value === '') continue;
        expect(label[lang], `${place} ${value}`).toBe(status[value][lang]);
      }
    }
  });

  it.each(LANGUAGES)('are the same in the member centre (%s)', (lang) => {
    const pack = JSON.parse(readFileSync(resolve(root, `locales/${lang}/common/survey.json`), 'utf8')) as { survey: { status: Record<string, string>; outcome: Record<string, { title?: string }> } };
    for (const [value, label] of Object.entries(pack.survey.status)) expect(label, `survey.status.${value}`).toBe(status[value][lang]);
    // The outcome pages: success is the complete page.
    const pages = { success: 'complete', terminate: 'terminate', overquota: 'overquota', security: 'security' } as const;
    for (const [page, value] of Object.entries(pages)) expect(pack.survey.outcome[page].title, `survey.outcome.${page}.title`).toBe(status[value][lang]);
  });
});
