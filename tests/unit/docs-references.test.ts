import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorOf, brokenDocReferences } from '../../scripts/doc-references.js';

/**
 * The check `npm run lint` runs over the repository (`scripts/doc-references.ts`), on a small tree of its
 * own: each kind of pointer is found when it leads somewhere and reported when it does not.
 */

let root: string;

function write(file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

// Written in pieces, so that this file's own text holds none of the pointers the check would follow.
const D = 'docs/';
const R = ['READ', 'ME'].join('');

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'doc-references-'));
  write(`${R}.md`, ['# Product', '', '## Configuration', '', '### Health, metrics and logs', '', `See [the guide](${D}guide.md#tokens), [the other](${D}guide.md#gone) and [code](src/app.ts), [nothing](src/none.ts), [a site](https://example.com/x#y).`, ''].join('\n'));
  write(`${D}guide.md`, ['# Guide', '', '## Tokens', '', '<a id="short"></a>**A long paragraph**', '', '```', '## Not a heading', '```', '', `[same page](#tokens), [missing](#not-a-heading), [short](#short), [up](../${R}.md#configuration), [wrong page](${D}guide.md)`, '', `The ${R} ("Configuration") and the ${R}, "Develop".`, ''].join('\n'));
  write('src/app.ts', [`/** ${D}guide.md#tokens, #short; ${D}guide.md#nope; ${D}missing.md */`, `/** ${R} "Health, metrics and logs"; ${R} "Health and metrics" */`, 'export const sign = "\u00a7 4.2";', ''].join('\n'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('pointers into the documentation', () => {
  it('names each broken one, and none that leads somewhere', () => {
    expect(brokenDocReferences(root).sort()).toEqual(
      [
        `${R}.md: ](${D}guide.md#gone) (no such heading in ${D}guide.md)`,
        `${R}.md: ](src/none.ts) (no file src/none.ts)`,
        `${D}guide.md: ](#not-a-heading) (no such heading in ${D}guide.md)`,
        `${D}guide.md: ](${D}guide.md) (no file ${D}${D}guide.md)`,
        `${D}guide.md: ${R}, "Develop" (the ${R} has no heading "Develop")`,
        `src/app.ts: ${D}guide.md#nope (no such heading)`,
        `src/app.ts: ${D}missing.md (no such page)`,
        `src/app.ts: ${R} "Health and metrics" (the ${R} has no heading "Health and metrics")`,
        'src/app.ts: cites a numbered section (\u00a7) of a document outside the repository',
      ].sort(),
    );
  });

  it('anchors a heading as the page shows it', () => {
    expect(anchorOf('Health, metrics and logs')).toBe('health-metrics-and-logs');
    expect(anchorOf('SQLite: one server process per file')).toBe('sqlite-one-server-process-per-file');
  });

  it('finds none in the repository', () => {
    expect(brokenDocReferences(join(import.meta.dirname, '../..'))).toEqual([]);
  });
});
