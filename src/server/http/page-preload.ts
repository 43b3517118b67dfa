import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, type Language } from '../../contract/headers.js';
import { STANDALONE_PAGES } from '../../contract/standalone-pages.js';
import { isOneOf } from '../../contract/checks.js';

/**
 * The SPA's HTML per address, with the standalone page's code and words announced
 * (`<link rel="modulepreload">`): the browser fetches them beside the app's entry instead of after
 * the entry has run and asked for them. The files come from Vite's build manifest; without one (or
 * for any other address) the plain index.html is answered.
 */

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  css?: string[];
}

type Manifest = Record<string, ManifestChunk>;

function readManifest(clientDir: string): Manifest | undefined {
  const file = join(clientDir, '.vite', 'manifest.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The manifest key of a source module: its own key, or a shared chunk's key naming it as `src`. */
function keyOf(manifest: Manifest, module: string): string | undefined {
  if (manifest[module]) return module;
  return Object.keys(manifest).find((key) => manifest[key].src === module);
}

/** A chunk's files with everything it imports statically: scripts and stylesheets. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): { scripts: Set<string>; styles: Set<string> } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = manifest[name];
    if (!chunk) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return { scripts, styles };
}

const STYLESHEET = /[ \t]*<link rel="stylesheet"[^>]*>\n?/g;

/**
 * The head with the stylesheets first, then the scripts: a page paints once its stylesheets are in,
 * and the browser opens only a few connections to a server at once, so a stylesheet listed after a
 * dozen scripts waits for them.
 */
function withLinks(html: string, scripts: Iterable<string>, styles: Iterable<string>): string {
  const sheets = [...(html.match(STYLESHEET) ?? []).map((tag) => tag.trim()), ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)];
  const preloads = [...scripts].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
  const head = html.replace(STYLESHEET, '');
  const at = head.search(/[ \t]*<script/);
  const withSheets =
    sheets.length === 0 ? head : at < 0 ? head.replace('</head>', () => `  ${sheets.join('\n    ')}\n  </head>`) : `${head.slice(0, at)}    ${sheets.join('\n    ')}\n${head.slice(at)}`;
  return preloads.length ? withSheets.replace('</head>', () => `  ${preloads.join('\n    ')}\n  </head>`) : withSheets;
}

/** A request path (no query) without trailing slashes, as the pages' addresses are written. */
export function pagePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The standalone page at a request path (no query), if any. */
export function standalonePageAt(path: string): keyof typeof STANDALONE_PAGES | undefined {
  const wanted = pagePath(path);
  return (Object.keys(STANDALONE_PAGES) as (keyof typeof STANDALONE_PAGES)[]).find((name) => isOneOf(STANDALONE_PAGES[name].paths, wanted));
}

/**
 * Answers the HTML for a request path (no query): the page's own when it is a standalone page, with
 * the words of the language the browser chose (its cookie, see `cookieLanguage`).
 */
export function pageHtml(clientDir: string, indexHtml: Buffer): (path: string, language: Language) => Buffer {
  const manifest = readManifest(clientDir);
  const entry = manifest && keyOf(manifest, 'index.html');
  if (!manifest || !entry) return () => indexHtml;
  const html = indexHtml.toString('utf8');
  if (!html.includes('</head>')) return () => indexHtml;
  const plain = Buffer.from(withLinks(html, [], []));
  // What index.html loads already is left out.
  const base = closure(manifest, entry);
  const byPath = new Map<string, Buffer>();
  for (const page of Object.values(STANDALONE_PAGES)) {
    const key = keyOf(manifest, page.module);
    if (!key) continue;
    const own = closure(manifest, key, new Set([entry]));
    const scripts = [...own.scripts].filter((file) => !base.scripts.has(file));
    const styles = [...own.styles].filter((file) => !base.styles.has(file));
    for (const language of LANGUAGES) {
      const words = page.messages.flatMap((name) => manifest[`../../locales/${language}/${name}.json`]?.file ?? []);
      const answer = Buffer.from(withLinks(html, [...scripts, ...words], styles));
      for (const path of page.paths) byPath.set(`${language} ${path}`, answer);
    }
  }
  return (path, language) => byPath.get(`${language} ${pagePath(path)}`) ?? plain;
}
