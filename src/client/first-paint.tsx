import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { STANDALONE_PAGES, type FirstPaint, type FirstPaintPage, type RenderFirstPaint } from '../contract/standalone-pages.js';
import { AdminLoginPage } from './admin/login/AdminLoginPage.js';
import { takeRenderedTitle } from './components/document-title.js';
import { renderingForSite } from './components/site-identity.js';
import { loadMessages } from './i18n/load-messages.js';
import { renderingIn } from './i18n/store-config.js';
import { MemberLoginPage } from './member/login/MemberLoginPage.js';
import { OutcomePage } from './pages/survey/OutcomePage.js';
import { isOutcomePage } from '../contract/outcomes.js';

/**
 * The first view of the pages a person waits for, rendered on the server from the pages' own
 * components and message files (built by Vite as a server module, `<client>/server/first-paint.js`):
 * the server puts it into the page's HTML, so the page paints before its code has arrived; the code
 * then draws the same page over it. The login pages show their form; the outcome page shows the
 * recorded result being checked (the return is recorded by the page's own request).
 */

/** An outcome the page is still checking: the server does not report the return, the page does. */
const checking = new Promise<never>(() => undefined);

function pageElement(page: FirstPaintPage, path: string) {
  switch (page) {
    case 'adminLogin':
      return <AdminLoginPage />;
    case 'memberLogin':
      return <MemberLoginPage />;
    case 'outcome': {
      // The server draws this page at an outcome page's address only (`STANDALONE_PAGES.outcome.paths`).
      const outcome = path.slice(1);
      return isOutcomePage(outcome) ? <OutcomePage page={outcome} pending={checking} /> : null;
    }
  }
}

/** Views rendered lately: most requests ask for one already drawn (a view takes 5 to 40 ms to render). */
const drawn = new Map<string, FirstPaint>();
const DRAWN_MAX = 200;

/** The first view of a page at `path` (with `search`, e.g. the member login's `?tab=register`) in a language, under the site's name. */
export const renderFirstPaint: RenderFirstPaint = async (page, path, search, language, siteName) => {
  // The outcome's first view does not read the query (each return has its own): one view serves all.
  const key = `${language} ${siteName}\n${path}${page === 'outcome' ? '' : search}`;
  const known = drawn.get(key);
  if (known) return known;
  // The words first: the page then renders with them at once, as in the browser after its preload.
  await loadMessages(language, STANDALONE_PAGES[page].messages);
  const view = renderingIn(language, () =>
    renderingForSite(siteName, () => {
      takeRenderedTitle();
      const html = renderToString(<MemoryRouter initialEntries={[`${path}${search}`]}>{pageElement(page, path)}</MemoryRouter>);
      return { html, title: takeRenderedTitle() };
    }),
  );
  if (drawn.size >= DRAWN_MAX) drawn.clear();
  drawn.set(key, view);
  return view;
};
