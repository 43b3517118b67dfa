// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { reloadLayout } from '../../../src/client/shell/layout-store.js';
import type { IconSets } from '../../../src/client/components/icons/icon-sets.js';
import { preloadIcons, resolveIcon } from '../../../src/client/components/icons/resolve-icon.js';
import { NamedIcon } from '../../../src/client/components/icons/NamedIcon.js';
import { render } from '@testing-library/react';
import { drawFromSet, ICON_SET_FAMILIES, type IconSprite } from '../../../src/contract/icons.js';
import { ADMIN_API, http, ok, sampleBootstrap, sampleMenus, useEnglish } from './support.js';
import { renderApp, signInAdmin } from './render-app.js';

vi.mock('../../../src/client/admin/resources/index.js', () => ({
  resourceFor: (definition: { id: string }) => ({ list: () => <h2>List of {definition.id}</h2> }),
}));

/**
 * The icon sets, read straight from the packages as the server reads them. Not the client's
 * `loadIconSets`: once that has loaded, every icon on screen is drawn from the whole sets without a
 * request, and the test would no longer see which icons the menus ask the server for.
 */
async function packageIconSets(): Promise<IconSets> {
  const [fa, ep] = await Promise.all([import('@iconify-json/fa/icons.json'), import('@iconify-json/ep/icons.json')]);
  return { fa: fa.default as IconSets['fa'], ep: ep.default as IconSets['ep'] };
}

const server = setupServer();
let iconRequests: string[] = [];

function menusWithIcons() {
  const menus = sampleMenus();
  menus[0] = { ...menus[0], icon: 'fa fa-cube' };
  menus[1] = { ...menus[1], icon: 'el-icon-UserFilled' };
  return menus;
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  iconRequests = [];
  resetBootstrap();
  useEnglish();
  reloadLayout();
  signInAdmin();
  server.use(
    http.get(`${ADMIN_API}/Index/index`, () => ok(sampleBootstrap(menusWithIcons()))),
    http.get(`${ADMIN_API}/Dashboard/index`, () => ok({ remark: '' })),
    // The server's icon answer (src/server/http/icon-sprites.ts), drawn from the same sets; every request is recorded.
    http.get('/icons/:file', async ({ request, params }) => {
      const family = ICON_SET_FAMILIES.find((each) => params.file === `${each}.json`)!;
      const names = new URL(request.url).searchParams.get('names')!.split(',');
      iconRequests.push(`${family}:${names.join(',')}`);
      const set = (await packageIconSets())[family];
      const sprite: IconSprite = Object.fromEntries(names.map((name) => [name, drawFromSet(set, family, name) ?? null]));
      return Response.json(sprite);
    }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

function iconOf(button: HTMLElement): SVGElement {
  const svg = button.querySelector('svg');
  if (!svg) throw new Error('no icon in the menu item');
  return svg;
}

describe('menu icons by BuildAdmin names', () => {
  it('draws fa fa-cube and el-icon-UserFilled with their own glyphs, not the neutral circle', async () => {
    renderApp('/chidaoadminstator');
    const menu = await screen.findByTestId('side-menu');
    const dashboard = within(menu).getByRole('button', { name: 'Dashboard' });
    await waitFor(() => expect(iconOf(dashboard).getAttribute('data-icon-state')).toBe('drawn'));
    const sets = await packageIconSets();
    const cube = resolveIcon('fa fa-cube', sets)!;
    expect(iconOf(dashboard).getAttribute('viewBox')).toBe(cube.viewBox);
    expect(iconOf(dashboard).querySelector('path')?.getAttribute('d')).toBe(/ d="([^"]+)"/.exec(cube.body)?.[1]);

    const directory = within(menu).getByRole('button', { name: 'Permissions' });
    await waitFor(() => expect(iconOf(directory).getAttribute('data-icon-family')).toBe('ep'));
    // the rule tree's other rules carry fa fa-circle-o: drawn from the set too, a different glyph than the cube
    const circle = resolveIcon('fa fa-circle-o', sets)!;
    expect(circle.body).not.toBe(cube.body);
    // only the icons the menus name are asked for, one request per family, never a whole set
    expect(iconRequests.some((request) => request.startsWith('fa:') && request.includes('cube'))).toBe(true);
    // (a batch may carry other ep icons the menus name beside it, depending on when they were drawn)
    expect(iconRequests.some((request) => request.startsWith('ep:') && request.slice(3).split(',').includes('user-filled'))).toBe(true);
    expect(new Set(iconRequests).size).toBe(iconRequests.length);
  });

  it('an unknown name gets the neutral icon and a console warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const menus = menusWithIcons();
    menus[0] = { ...menus[0], icon: 'fa fa-not-an-icon' };
    server.use(http.get(`${ADMIN_API}/Index/index`, () => ok(sampleBootstrap(menus))));
    renderApp('/chidaoadminstator');
    const menu = await screen.findByTestId('side-menu');
    const dashboard = within(menu).getByRole('button', { name: 'Dashboard' });
    await waitFor(() => expect(iconOf(dashboard).getAttribute('data-icon-state')).toBe('neutral'));
    expect(warn.mock.calls.some(([message]) => String(message).includes('fa fa-not-an-icon'))).toBe(true);
  });

  it('icons preloaded (as the login does for the menus) are drawn in their first render, with no request of their own', async () => {
    await preloadIcons(['fa fa-cogs', 'el-icon-Grid', 'fa fa-not-an-icon-either']);
    expect(iconRequests.filter((request) => request.includes('cogs') || request.includes('grid'))).toHaveLength(2);
    const before = iconRequests.length;
    const { container } = render(
      <>
        <NamedIcon name="fa fa-cogs" aria-label="cogs" />
        <NamedIcon name="el-icon-Grid" aria-label="grid" />
      </>,
    );
    expect(container.querySelector('[aria-label="cogs"]')!.getAttribute('data-icon-state')).toBe('drawn');
    expect(container.querySelector('[aria-label="grid"]')!.getAttribute('data-icon-family')).toBe('ep');
    expect(iconRequests).toHaveLength(before);
  });
});
