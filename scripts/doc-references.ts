/**
 * Fails on a pointer into the documentation that leads nowhere. Comments and pages point at something a
 * reader of the repository can open, and this checks each such pointer against what is there:
 *
 * - `docs/<page>.md#anchor` in the code, the tests, the scripts and the README (further sections of the
 *   same page written `, #b`): the page exists and has a heading (or an `<a id="…">`) of that anchor;
 * - a Markdown link of the README or of a page of `docs/` to a file of the repository: the file exists,
 *   and when it is a page with `#anchor`, the page has that anchor (`](#x)` names one of its own page);
 * - a README section named in words, `README "Configuration"` or `README ("Test")`, anywhere of the above:
 *   the README has a heading of exactly that text;
 * - no comment cites a numbered section (the section sign) of a document that is not in the repository.
 *
 * `npx tsx scripts/doc-references.ts` prints every broken pointer and exits 1 when there is one;
 * `npm run lint` runs it.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SECTION_SIGN = '\u00a7';

/** The anchor a heading gets when the page is shown (lower case, punctuation dropped, spaces as `-`). */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

/** The text of each heading of a Markdown page, in order. */
function headingsOf(text: string): string[] {
  let fenced = false;
  const headings: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) headings.push(line.replace(/^#+ /, '').trim());
  }
  return headings;
}

/** Every anchor of a page: its headings' and those it sets itself (`<a id="…"></a>`, short names for long headings). */
function anchorsOfText(text: string): Set<string> {
  const named = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]);
  return new Set([...headingsOf(text).map(anchorOf), ...named]);
}

/** `docs/<page>.md`, optionally `#a`, optionally followed by `, #b, #c` on the same page. */
const DOCS_REFERENCE = /docs\/([a-z0-9-]+\.md)((?:#[a-z0-9_-]+)?(?:, #[a-z0-9_-]+)*)/g;
/** A Markdown link's target: a path (no scheme), optionally with `#anchor`, or `#anchor` alone. */
const MARKDOWN_LINK = /\]\(([^()\s#]*)(#[^()\s]*)?\)/g;
/** A README section named by its heading: `README "Test"`, `README, "Test"`, `README ("Test")`, `README.md "Test"`. */
const README_SECTION = /README(?:\.md)?,?\s+\(?"([^"]+)"/g;

function filesUnder(root: string, dir: string, extensions: readonly string[]): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => extensions.some((extension) => file.endsWith(extension)))
    .map((file) => join(dir, file).split('\\').join('/'))
    .sort();
}

/** Every broken pointer under `root`, as `<file>: <pointer>`. */
export function brokenDocReferences(root: string): string[] {
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const anchors = new Map<string, Set<string> | undefined>();
  const anchorsOf = (file: string) => {
    if (!anchors.has(file)) anchors.set(file, existsSync(join(root, file)) ? anchorsOfText(read(file)) : undefined);
    return anchors.get(file);
  };
  const code = ['src', 'tests', 'scripts'].flatMap((dir) => filesUnder(root, dir, ['.ts', '.tsx', '.js', '.mjs']));
  const pages = ['README.md', ...filesUnder(root, 'docs', ['.md'])].filter((file) => existsSync(join(root, file)));
  const readmeHeadings = new Set(existsSync(join(root, 'README.md')) ? headingsOf(read('README.md')) : []);
  const broken: string[] = [];

  for (const file of [...code, 'README.md'].filter((name) => existsSync(join(root, name)))) {
    const text = read(file);
    for (const match of text.matchAll(DOCS_REFERENCE)) {
      if (text.slice(0, match.index).endsWith('](')) continue; // a link of the README: checked with the links below
      const page = `docs/${match[1]}`;
      const found = anchorsOf(page);
      if (!found) broken.push(`${file}: ${match[0]} (no such page)`);
      else for (const anchor of match[2].match(/#[a-z0-9_-]+/g) ?? []) if (!found.has(anchor.slice(1))) broken.push(`${file}: ${page}${anchor} (no such heading)`);
    }
    if (text.includes(SECTION_SIGN)) broken.push(`${file}: cites a numbered section (${SECTION_SIGN}) of a document outside the repository`);
  }

  for (const file of pages) {
    for (const match of read(file).matchAll(MARKDOWN_LINK)) {
      const [, path, anchor] = match;
      if (/^[a-z][a-z0-9+.-]*:/i.test(path)) continue; // another site (https:, mailto:)
      const target = path === '' ? file : relative(root, resolve(root, dirname(file), path)).split('\\').join('/');
      if (path !== '' && !existsSync(join(root, target))) {
        broken.push(`${file}: ${match[0]} (no file ${target})`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(target)?.has(anchor.slice(1))) broken.push(`${file}: ${match[0]} (no such heading in ${target})`);
    }
  }

  for (const file of [...code, ...pages, 'eslint.config.js', 'vite.config.ts'].filter((name) => existsSync(join(root, name)))) {
    for (const match of read(file).matchAll(README_SECTION)) {
      if (!readmeHeadings.has(match[1])) broken.push(`${file}: ${match[0]} (the README has no heading "${match[1]}")`);
    }
  }
  return broken;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const broken = brokenDocReferences(root);
  for (const line of broken) console.error(line);
  if (broken.length > 0) {
    console.error(`${broken.length} pointer(s) into the documentation lead nowhere`);
    process.exit(1);
  }
}
