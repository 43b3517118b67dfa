import { useLayoutEffect } from 'react';
import { servedSiteName } from './site-identity.js';

/** Browser title (docs/client.md#routes): the translated page title, plus ` - <site name>` when the site has one. */
export function documentTitle(pageTitle: string, siteName?: string): string {
  const page = pageTitle.trim();
  const site = (siteName ?? '').trim();
  if (!page) return site;
  return site ? `${page} - ${site}` : page;
}

/** The title the last server render asked for (effects do not run there): the server writes it into `<title>`. */
let renderedTitle = '';

export function takeRenderedTitle(): string {
  const title = renderedTitle;
  renderedTitle = '';
  return title;
}

/**
 * Set before the browser paints, so a new route never shows under the previous page's title. The site's
 * name is the one the page was served with unless the caller has a newer one (a shell's bootstrap).
 */
export function useDocumentTitle(pageTitle: string, siteName: string = servedSiteName()): void {
  if (typeof document === 'undefined') renderedTitle = documentTitle(pageTitle, siteName) || renderedTitle;
  useLayoutEffect(() => {
    const title = documentTitle(pageTitle, siteName);
    if (title) document.title = title;
  }, [pageTitle, siteName]);
}
