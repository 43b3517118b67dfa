import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/contract/headers.js';
import { FINAL_STATUSES, OUTCOME_COUNTER, OUTCOME_PAGE_OF, PAID_STATUSES, REPORTED_STATUSES } from '../../../src/contract/outcomes.js';
import { loadResourceDefinitions } from '../../../src/schema/load-files.js';

/**
 * An outcome of an attempt has one name wherever a person reads it: the participation's status, the
 * provider's exit code map, the security log's claimed status, and the member centre's labels and
 * outcome page titles. "Screened out" in one place and "Terminate" in another reads as two things.
 */
const root = resolve(import.meta.dirname, '../../..');
const definitions = loadResourceDefinitions(resolve(root, 'schemas'));

function fieldOf(id: string, field: string) {
  return definitions.find((candidate) => candidate.id === id)?.fields.find((candidate) => candidate.name === field);
}

function optionsOf(id: string, field: string): Record<string, Record<string, string>> {
  const options = fieldOf(id, field)?.ui.options;
  expect(options, `${id}.${field}`).toBeDefined();
  return options as Record<string, Record<string, string>>;
}

type MemberPack = { survey: { status: Record<string, string>; outcome: Record<string, { title?: string }> & { headline: Record<string, string> } } };

function memberPack(lang: string): MemberPack {
  return JSON.parse(readFileSync(resolve(root, `locales/${lang}/common/survey.json`), 'utf8')) as MemberPack;
}

/**
 * The outcomes have one home, src/contract/outcomes.ts; the schemas are JSON and cannot import it, so
 * their enums are held to it here: an outcome added there and not to a schema (or the other way) fails.
 */
describe('the outcomes of contract/outcomes.ts', () => {
  it("are the participation's final statuses, the exit map's and the security log's outcomes, and the survey's counters", () => {
    expect(fieldOf('survey/participation', 'status')?.enum).toEqual(['entered', ...FINAL_STATUSES, 'reversed']);
    expect(fieldOf('survey/participation', 'status')?.transitions?.entered).toEqual(FINAL_STATUSES);
    expect(Object.keys(optionsOf('survey/provider', 'exit_map'))).toEqual(REPORTED_STATUSES);
    expect(fieldOf('survey/security_event', 'reported')?.enum).toEqual(['', ...REPORTED_STATUSES]);
    for (const status of FINAL_STATUSES) expect(fieldOf('survey/survey', OUTCOME_COUNTER[status])?.wireType, `survey.${OUTCOME_COUNTER[status]}`).toBe('integer');
    // A complete and a screen-out pay (the reward, the consolation); a security terminate and a timeout pay nothing.
    expect(PAID_STATUSES).toEqual(['complete', 'terminate', 'overquota']);
  });

  it.each(LANGUAGES)('each have their labels in the member centre, by their names (%s)', (lang) => {
    const pack = memberPack(lang);
    for (const status of FINAL_STATUSES) {
      expect(pack.survey.status[status], `survey.status.${status}`).toMatch(/\S/);
      expect(pack.survey.outcome.headline[status], `survey.outcome.headline.${status}`).toMatch(/\S/);
    }
    for (const status of REPORTED_STATUSES) expect(pack.survey.outcome[OUTCOME_PAGE_OF[status]]?.title, `survey.outcome.${OUTCOME_PAGE_OF[status]}.title`).toMatch(/\S/);
  });
});

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
    const pack = memberPack(lang);
    for (const [value, label] of Object.entries(pack.survey.status)) expect(label, `survey.status.${value}`).toBe(status[value][lang]);
    // The outcome pages: success is the complete page.
    for (const value of REPORTED_STATUSES) expect(pack.survey.outcome[OUTCOME_PAGE_OF[value]].title, `survey.outcome.${OUTCOME_PAGE_OF[value]}.title`).toBe(status[value][lang]);
  });
});
