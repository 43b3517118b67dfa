import './jsdom-fetch-files.js';
import { configure } from '@testing-library/react';
import { afterAll } from 'vitest';
import { setDefinitions } from '../../src/client/schemas.js';
import { PROJECT_DEFINITIONS, PROJECT_SCHEMA_PAGES } from './definitions.js';

// findBy*/waitFor give up after 1 s by default; with the API and browser suites sharing two cores, a
// screen (the first one loads react-admin and MUI) may take several seconds to settle without anything
// being wrong. A failing wait still fails, only later.
configure({ asyncUtilTimeout: 15_000 });

// Screens are drawn from the definitions the server sends with the menus; tests that render a screen
// without a bootstrap start with every project schema known, as after a super admin's bootstrap.
setDefinitions(PROJECT_DEFINITIONS, PROJECT_SCHEMA_PAGES);

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
