import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyRequest } from 'fastify';
import { acceptedLanguageTags, htmlLang, isLanguage, LANGUAGE_COOKIE, preferredLanguage, type Language } from '../../contract/headers.js';
import { FIRST_PAINT_MODULE, FIRST_PAINT_PAGES, SITE_NAME_META, type FirstPaint, type RenderFirstPaint, type STANDALONE_PAGES } from '../../contract/standalone-pages.js';

/**
 * The first view of the pages a person waits for (the login pages, the outcome page after a survey),
 * painted into their HTML: the browser shows the page before its code has arrived, and the code then
 * draws the same page over it. The view comes from the pages' own components and message files,
 * rendered by a module built with the client (see src/client/first-paint.tsx); without that module
 * (no build, or an older one) the pages are answered as before. The view is `inert` (nothing can be
 * typed into a form that cannot send yet) until the code replaces it.
 */

interface Renderer {
  renderFirstPaint: RenderFirstPaint;
}

type FirstPainter = (page: keyof typeof STANDALONE_PAGES, path: string, search: string, language: Language, siteName: string) => Promise<FirstPaint | undefined>;

/** The renderer built beside the client in `clientDir`, if there is one. */
export async function loadFirstPainter(clientDir: string, log: (error: unknown) => void): Promise<FirstPainter | undefined> {
  const file = join(clientDir, FIRST_PAINT_MODULE);
  if (!existsSync(file)) return undefined;
  let renderer: Renderer;
  try {
    renderer = (await import(pathToFileURL(file).href)) as Renderer;
  } catch (error) {
    log(error);
    return undefined;
  }
  return async (page, path, search, language, siteName) => {
    const painted = FIRST_PAINT_PAGES.find((name) => name === page);
    if (!painted) return undefined;
    // A page that cannot be drawn here is still drawn by its code in the browser.
    return renderer.renderFirstPaint(painted, path, search, language, siteName).catch((error: unknown) => {
      log(error);
      return undefined;
    });
  };
}

/**
 * The language the browser chose, from its cookie (set by the client); else the one it prefers
 * (`Accept-Language`), as the client chooses with no stored choice.
 */
export function cookieLanguage(request: FastifyRequest): Language {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE && isLanguage(value)) return value;
  }
  return preferredLanguage(acceptedLanguageTags(request.headers['accept-language']));
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

/**
 * The page's HTML carrying the site's name from its first byte: in `<meta name="application-name">`, where
 * the client reads it before any request (the login pages show it before anyone signs in), and as the
 * title until the page sets its own. No name: the page as built.
 */
export function withSiteName(html: string, siteName: string): string {
  const name = siteName.trim();
  if (!name) return html;
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(name)}</title>`)
    .replace('</head>', () => `<meta name="${SITE_NAME_META}" content="${escapeAttribute(name)}" />\n</head>`);
}

/** The page's HTML with its first view inside the app's root, in the view's language and under its title. */
export function withFirstPaint(html: string, view: FirstPaint, language: Language): string {
  // Replacer functions: a `$` in the view is text, not a replacement pattern.
  return html
    .replace(/<html lang="[^"]*"/, () => `<html lang="${htmlLang(language)}"`)
    .replace(/<title>[^<]*<\/title>/, (title) => (view.title ? `<title>${escapeText(view.title)}</title>` : title))
    .replace('<div id="root"></div>', () => `<div id="root"><div class="first-paint" inert>${view.html}</div></div>`);
}
