import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '../../contract/headers.js';
import { STANDALONE_PAGES } from '../../contract/standalone-pages.js';

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

function linkTags(scripts: Iterable<string>, styles: Iterable<string>): string {
  const tags = [...[...scripts].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`), ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)];
  return tags.join('\n    ');
}

/** Answers the HTML for a request path (no query): the page's own when it is a standalone page. */
export function pageHtml(clientDir: string, indexHtml: Buffer): (path: string) => Buffer {
  const manifest = readManifest(clientDir);
  const entry = manifest && keyOf(manifest, 'index.html');
  if (!manifest || !entry) return () => indexHtml;
  const html = indexHtml.toString('utf8');
  if (!html.includes('</head>')) return () => indexHtml;
  // What index.html loads already is left out.
  const base = closure(manifest, entry);
  const byPath = new Map<string, Buffer>();
  for (const page of Object.values(STANDALONE_PAGES)) {
    const key = keyOf(manifest, page.module);
    if (!key) continue;
    const own = closure(manifest, key, new Set([entry]));
    const scripts = [...own.scripts].filter((file) => !base.scripts.has(file));
    const styles = [...own.styles].filter((file) => !base.styles.has(file));
    // The language is the browser's choice (kept in its storage): both languages' words are small.
    for (const language of LANGUAGES) {
      for (const name of page.messages) {
        const words = manifest[`../../locales/${language}/${name}.json`];
        if (words) scripts.push(words.file);
      }
    }
    const answer = Buffer.from(html.replace('</head>', `  ${linkTags(scripts, styles)}\n  </head>`));
    for (const path of page.paths) byPath.set(path, answer);
  }
  return (path) => byPath.get(path.length > 1 ? path.replace(/\/+$/, '') : path) ?? indexHtml;
}
