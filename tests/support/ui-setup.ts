import './jsdom-fetch-files.js';
import { configure } from '@testing-library/react';
import { afterAll, beforeEach } from 'vitest';
import { setDefinitions } from '../../src/client/schemas.js';
import { PROJECT_DEFINITIONS, PROJECT_SCHEMA_PAGES } from './definitions.js';

// findBy*/waitFor give up after 1 s by default; with the API and browser suites sharing two cores, a
// screen (the first one loads react-admin and MUI) may take several seconds to settle without anything
// being wrong. A failing wait still fails, only later.
configure({ asyncUtilTimeout: 15_000 });

// jsdom is a browser that prefers Chinese, the site's default language: a screen a test draws without
// choosing a language speaks zh-cn, as it does for a visitor whose browser prefers it.
if (typeof navigator !== 'undefined') {
  Object.defineProperty(navigator, 'languages', { value: ['zh-CN', 'zh'], configurable: true });
  Object.defineProperty(navigator, 'language', { value: 'zh-CN', configurable: true });
}

// Screens are drawn from the definitions the server sends with the menus; tests that render a screen
// without a bootstrap start with every project schema known, as after a super admin's bootstrap.
setDefinitions(PROJECT_DEFINITIONS, PROJECT_SCHEMA_PAGES);

// The back office keeps its open tabs in session storage over a reload: each test opens its shell
// afresh, as a new browser tab would (a test that reloads keeps them within itself).
beforeEach(() => {
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
});

// Intervals the screens start (keepFocusInPage watches the focus for up to 3 s after a row is deleted)
// are Node's timers here: one still running when a file ends would fire once jsdom is gone, with no
// `document`, and fail the run. Each file stops those it left running.
const running = new Set<ReturnType<typeof setInterval>>();
const startInterval = globalThis.setInterval;
const stopInterval = globalThis.clearInterval;
globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => {
  const id = startInterval(...args);
  running.add(id);
  return id;
}) as typeof setInterval;
globalThis.clearInterval = ((id?: ReturnType<typeof setInterval>) => {
  if (id !== undefined) running.delete(id);
  stopInterval(id);
}) as typeof clearInterval;
afterAll(() => {
  for (const id of running) stopInterval(id);
  running.clear();
});
