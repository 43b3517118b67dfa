import { useEffect } from 'react';

/** Browser title (spec §2): the translated page title, plus ` - <site name>` when the site has one. */
export function documentTitle(pageTitle: string, siteName?: string): string {
  const page = pageTitle.trim();
  const site = (siteName ?? '').trim();
  if (!page) return site;
  return site ? `${page} - ${site}` : page;
}

export function useDocumentTitle(pageTitle: string, siteName?: string): void {
  useEffect(() => {
    const title = documentTitle(pageTitle, siteName);
    if (title) document.title = title;
  }, [pageTitle, siteName]);
}
