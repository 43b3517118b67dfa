import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { htmlLang } from '../contract/headers.js';
import { configureHttpClient } from './http/index.js';
import { currentLanguage, shareLanguage } from './i18n/store-config.js';
import { createAppRouter } from './router.js';

document.documentElement.lang = htmlLang(currentLanguage());
// The server paints the first view of some pages in the language of this cookie.
shareLanguage();

const router = createAppRouter();
// Outside the back office (login pages), the http client's redirects use the router too, not reloads.
configureHttpClient({ navigate: (to) => void router.navigate(to) });

const root = document.getElementById('root');
if (root) {
  const mount = () =>
    createRoot(root).render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
  // A first view painted by the server (see src/client/first-paint.tsx) stays until the page's code
  // and words are here: the first render draws the page over it, never a loading screen in between.
  if (root.querySelector(':scope > .first-paint') && !router.state.initialized) {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      mount();
    });
  } else {
    mount();
  }
}
