import { StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useNavigate, type NavigateFunction } from 'react-router-dom';
import { htmlLang } from '../contract/headers.js';
import { configureHttpClient } from './http/index.js';
import { currentLanguage, shareLanguage } from './i18n/store-config.js';
import { AppRoutes, preloadRoute } from './router.js';

document.documentElement.lang = htmlLang(currentLanguage());
// The server paints the first view of some pages in the language of this cookie.
shareLanguage();

// Outside the back office (login pages), the http client's redirects use the router too, not reloads;
// until the router is drawn they load the page.
let navigateInApp: NavigateFunction | undefined;
configureHttpClient({ navigate: (to) => (navigateInApp ? void navigateInApp(to) : location.assign(to)) });

function ShareNavigate(): null {
  const navigate = useNavigate();
  useLayoutEffect(() => {
    navigateInApp = navigate;
  }, [navigate]);
  return null;
}

const root = document.getElementById('root');
if (root) {
  const mount = () =>
    createRoot(root).render(
      <StrictMode>
        {/* Navigations are not transitions: a screen whose code is still arriving shows its loading
            indicator at once rather than leaving the previous screen up, unchanged, as if the click had
            done nothing. Pages whose code is already here (fetched ahead) draw at once. */}
        <BrowserRouter useTransitions={false}>
          <ShareNavigate />
          <AppRoutes />
        </BrowserRouter>
      </StrictMode>,
    );
  // A first view painted by the server (see src/client/first-paint.tsx) stays until the page's code
  // and words are here: the first render draws the page over it, never a loading screen in between.
  if (root.querySelector(':scope > .first-paint')) void preloadRoute(window.location).then(mount);
  else mount();
}
