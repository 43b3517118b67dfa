import type { IconRef } from './icon-name.js';

/**
 * BuildAdmin's local SVGs (`local-<file>` for `web/src/assets/icons/<file>.svg`). No package ships them,
 * so each is either drawn by an icon of the maintained sets that shows the same thing, or (the logo,
 * which is ours) drawn here.
 */
type LocalIcon = { drawnBy: IconRef } | { viewBox: string; body: string };

export const LOCAL_ICONS: Readonly<Record<string, LocalIcon>> = {
  // Our mark (the one beside the site name): a ring crossed by a line under a tick.
  logo: {
    viewBox: '0 0 32 32',
    body:
      '<g fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round">' +
      '<circle cx="16" cy="16" r="13"/><path d="M3 16h26"/><path d="M10 10.5l4 4 8-8"/></g>',
  },
  dark: { drawnBy: { family: 'ep', key: 'moon' } },
  light: { drawnBy: { family: 'ep', key: 'sunny' } },
  lang: { drawnBy: { family: 'fa', key: 'language' } },
  terminal: { drawnBy: { family: 'fa', key: 'terminal' } },
  'full-screen': { drawnBy: { family: 'ep', key: 'full-screen' } },
  'full-screen-cancel': { drawnBy: { family: 'fa', key: 'compress' } },
};
