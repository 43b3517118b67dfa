// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getShellState, resetBootstrap, setBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { followSchemaChanges, LIVE_SCHEMAS_URL, type SchemaEventSource } from '../../../src/client/admin/dev/live-schemas.js';
import { sampleBootstrap, sampleMenus } from './support.js';

/** An event stream the test speaks into, as the dev server's `/__dev/schemas`. */
function fakeStream() {
  let listener: ((event: MessageEvent<string>) => void) | undefined;
  const source: SchemaEventSource & { url?: string; closed: boolean } = {
    closed: false,
    addEventListener: (_type, next) => {
      listener = next;
    },
    close() {
      this.closed = true;
    },
  };
  return {
    source,
    open: (url: string) => {
      source.url = url;
      return source;
    },
    say: (status: unknown) => listener?.(new MessageEvent('schemas', { data: JSON.stringify(status) })),
  };
}

afterEach(() => {
  resetBootstrap();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('the back office while developing (npm run dev)', () => {
  it('fetches the definitions and menus again when the schemas change, and redraws from them', async () => {
    setBootstrap(sampleBootstrap());
    const menus = sampleMenus();
    menus[0] = { ...menus[0], title: 'Renamed by a schema change' };
    const load = vi.fn(async () => sampleBootstrap(menus));
    const stream = fakeStream();
    const stop = followSchemaChanges(load, stream.open);
    expect(stream.source.url).toBe(LIVE_SCHEMAS_URL);

    stream.say({ version: 4, error: null });
    expect(load).not.toHaveBeenCalled();
    stream.say({ version: 5, error: null });
    expect(load).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(getShellState()?.menus[0].title).toBe('Renamed by a schema change'));
    stop();
    expect(stream.source.closed).toBe(true);
  });

  it('shows a schema that could not be applied until it is fixed', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi.fn(async () => sampleBootstrap());
    const stream = fakeStream();
    followSchemaChanges(load, stream.open);
    stream.say({ version: 2, error: { file: 'schemas/team/team.json', path: '/properties/slogan/type', message: 'schemas/team/team.json: /properties/slogan/type: must be one of <b>…</b>' } });
    const alert = document.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('schemas/team/team.json at /properties/slogan/type');
    expect(alert?.textContent).toContain('<b>…</b>');
    expect(alert?.querySelector('b')).toBeNull();
    stream.say({ version: 3, error: null });
    expect(document.querySelector('[role="alert"]')).toBeNull();
    // no shell loaded yet: nothing to redraw
    expect(load).not.toHaveBeenCalled();
  });
});
