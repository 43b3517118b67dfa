import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { configureHttpClient } from './http/index.js';
import { currentLanguage } from './i18n/store-config.js';
import { createAppRouter } from './router.js';

document.documentElement.lang = currentLanguage() === 'en' ? 'en' : 'zh-CN';

const router = createAppRouter();
// Outside the back office (login pages), the http client's redirects use the router too, not reloads.
configureHttpClient({ navigate: (to) => void router.navigate(to) });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}
