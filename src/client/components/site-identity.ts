import { SITE_NAME_META } from '../../contract/standalone-pages.js';

/**
 * The site's name as the operator set it (`site_name`), known from the first paint: the server writes it
 * into every page it answers (`<meta name="application-name">`), so a page shows it before any request —
 * the login pages before anyone has signed in. The server's renderer of first views names it while it
 * renders (`renderingForSite`); a signed-in shell that reads a newer name from its bootstrap keeps the
 * page's copy in step (`rememberSiteName`).
 */

let rendering: string | undefined;

/** Render with `siteName` as the served name (the server's first views, where there is no document). */
export function renderingForSite<T>(siteName: string, render: () => T): T {
  const before = rendering;
  rendering = siteName;
  try {
    return render();
  } finally {
    rendering = before;
  }
}

function metaElement(): HTMLMetaElement | null {
  return typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>(`meta[name="${SITE_NAME_META}"]`);
}

/** The site's name the page was served with, '' when the operator has set none. */
export function servedSiteName(): string {
  if (rendering !== undefined) return rendering.trim();
  return metaElement()?.content.trim() ?? '';
}

/** A newer name (a bootstrap read after the operator renamed the site): pages drawn from now on show it. */
export function rememberSiteName(siteName: string | undefined): void {
  if (typeof document === 'undefined' || siteName === undefined) return;
  let meta = metaElement();
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = SITE_NAME_META;
    document.head.append(meta);
  }
  meta.content = siteName;
}
