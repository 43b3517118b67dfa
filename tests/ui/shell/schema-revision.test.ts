// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getShellState, resetBootstrap, setBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { followSchemaRevision } from '../../../src/client/admin/schema-revision.js';
import { sampleBootstrap, sampleMenus } from './support.js';

afterEach(() => {
  resetBootstrap();
  vi.useRealTimers();
});

describe('the open back office after another admin generated a module', () => {
  it('loads the menus again when the server serves a newer schema revision, and only then', async () => {
    vi.useFakeTimers();
    setBootstrap({ ...sampleBootstrap(), schemaRevision: 3 });
    const menus = sampleMenus();
    menus[0] = { ...menus[0], title: 'Module made by another admin' };
    let served = 3;
    const ask = vi.fn(async () => served);
    const load = vi.fn(async () => ({ ...sampleBootstrap(menus), schemaRevision: served }));
    let visible = true;
    const stop = followSchemaRevision({ ask, load, active: () => visible, pollMs: 1000 });

    await vi.advanceTimersByTimeAsync(1000);
    expect(ask).toHaveBeenCalledTimes(1);
    expect(load).not.toHaveBeenCalled();
    // a lagging process answering an older revision changes nothing
    served = 2;
    await vi.advanceTimersByTimeAsync(1000);
    expect(load).not.toHaveBeenCalled();
    // a hidden page does not ask
    visible = false;
    served = 4;
    await vi.advanceTimersByTimeAsync(1000);
    expect(ask).toHaveBeenCalledTimes(2);
    visible = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(load).toHaveBeenCalledTimes(1);
    expect(getShellState()?.schemaRevision).toBe(4);
    expect(getShellState()?.menus[0].title).toBe('Module made by another admin');
    // drawn: the same revision again loads nothing
    await vi.advanceTimersByTimeAsync(1000);
    expect(load).toHaveBeenCalledTimes(1);
    stop();
    served = 9;
    await vi.advanceTimersByTimeAsync(3000);
    expect(ask).toHaveBeenCalledTimes(4);
  });
});
