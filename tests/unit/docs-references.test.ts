import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Comments point at something a reader of the repository can open: a section of `docs/` (written
 * `docs/wire-contract.md#token-refresh`, further sections of the same page as `, #cors`), never a numbered
 * section of a document that is not here. Every such reference, and every link between the pages of
 * `docs/`, must name a page that exists and a heading it has.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECTION_SIGN = '\u00a7';

function filesUnder(dir: string, extensions: readonly string[]): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => extensions.some((extension) => file.endsWith(extension)))
    .map((file) => join(ROOT, dir, file))
    .sort();
}

const SOURCES = [...['src', 'tests', 'scripts'].flatMap((dir) => filesUnder(dir, ['.ts', '.tsx'])), join(ROOT, 'README.md')];

/** The anchor a heading gets when the page is shown (lower case, punctuation dropped, spaces as `-`). */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

const anchorsCache = new Map<string, Set<string>>();
function anchorsOf(page: string): Set<string> | undefined {
  const path = join(ROOT, 'docs', page);
  if (!existsSync(path)) return undefined;
  let anchors = anchorsCache.get(page);
  if (!anchors) {
    const text = readFileSync(path, 'utf8');
    const headings = text.split('\n').filter((line) => /^#{1,6} /.test(line));
    // a heading's own anchor, and those a page sets itself (`<a id="…"></a>`, short names for long headings)
    const named = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]);
    anchors = new Set([...headings.map((line) => anchorOf(line.replace(/^#+ /, ''))), ...named]);
    anchorsCache.set(page, anchors);
  }
  return anchors;
}

/** `docs/<page>.md`, optionally `#a`, optionally followed by `, #b, #c` on the same page. */
const REFERENCE = /docs\/([a-z0-9-]+\.md)((?:#[a-z0-9_-]+)?(?:, #[a-z0-9_-]+)*)/g;

function brokenReferences(text: string, resolvePage: (page: string) => string): string[] {
  const broken: string[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const page = resolvePage(match[1]);
    const anchors = anchorsOf(page);
    if (!anchors) {
      broken.push(match[0]);
      continue;
    }
    for (const anchor of match[2].match(/#[a-z0-9_-]+/g) ?? []) {
      if (!anchors.has(anchor.slice(1))) broken.push(`docs/${page}${anchor}`);
    }
  }
  return broken;
}

describe('references into docs/', () => {
  it('every docs/… reference in the sources and the README names an existing page and heading', () => {
    const broken = SOURCES.flatMap((file) => brokenReferences(readFileSync(file, 'utf8'), (page) => page).map((ref) => `${relative(ROOT, file)}: ${ref}`));
    expect(broken).toEqual([]);
  });

  it('links between the pages of docs/ name existing pages and headings', () => {
    const broken: string[] = [];
    for (const file of filesUnder('docs', ['.md'])) {
      const page = relative(join(ROOT, 'docs'), file);
      for (const match of readFileSync(file, 'utf8').matchAll(/\]\(([a-z0-9-]+\.md)?(#[a-z0-9_-]+)?\)/g)) {
        const target = match[1] ?? page;
        const anchors = anchorsOf(target);
        if (!anchors || (match[2] && !anchors.has(match[2].slice(1)))) broken.push(`${page}: ${match[0]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no comment cites a numbered section of a document outside the repository', () => {
    const citing = SOURCES.filter((file) => readFileSync(file, 'utf8').includes(SECTION_SIGN)).map((file) => relative(ROOT, file));
    expect(citing).toEqual([]);
  });
});
