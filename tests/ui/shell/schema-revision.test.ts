// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getShellState, resetBootstrap, setBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { followSchemaRevision } from '../../../src/client/admin/schema-revision.js';
import { sampleBootstrap, sampleMenus } from './support.js';

afterEach(() => {
  resetBootstrap();
  vi.useRealTimers();
});

/** A follower polling after `pollMs` of silence, with the answers' revision header heard through `answer`. */
function follow(served: () => number, visible: () => boolean = () => true) {
  const menus = sampleMenus();
  menus[0] = { ...menus[0], title: 'Module made by another admin' };
  const ask = vi.fn(async () => served());
  const load = vi.fn(async () => ({ ...sampleBootstrap(menus), schemaRevision: served() }));
  let heard: ((revision: number) => void) | undefined;
  const stop = followSchemaRevision({ ask, load, listen: (listener) => ((heard = listener), () => (heard = undefined)), active: visible, pollMs: 1000 });
  return { ask, load, stop, answer: (revision: number) => heard?.(revision) };
}

describe('the open back office after another admin generated a module', () => {
  it('asks the server only when no answer brought the revision for a while, and loads the menus again once it moved on', async () => {
    vi.useFakeTimers();
    setBootstrap({ ...sampleBootstrap(), schemaRevision: 3 });
    let served = 3;
    let visible = true;
    const { ask, load, stop } = follow(() => served, () => visible);

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
    const asked = ask.mock.calls.length;
    await vi.advanceTimersByTimeAsync(3000);
    expect(ask).toHaveBeenCalledTimes(asked);
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
    const before = ask.mock.calls.length;
    await vi.advanceTimersByTimeAsync(3000);
    expect(ask).toHaveBeenCalledTimes(before);
  });

  it('spends no request while the admin works: the revision every answer carries is enough, a newer one loads the menus', async () => {
    vi.useFakeTimers();
    setBootstrap({ ...sampleBootstrap(), schemaRevision: 3 });
    let served = 3;
    const { ask, load, stop, answer } = follow(() => served);
    // an answer every 400 ms (the admin browsing), for 5 s
    for (let elapsed = 0; elapsed < 5000; elapsed += 400) {
      answer(served);
      await vi.advanceTimersByTimeAsync(400);
    }
    expect(ask).not.toHaveBeenCalled();
    expect(load).not.toHaveBeenCalled();
    served = 4;
    answer(4);
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    expect(getShellState()?.schemaRevision).toBe(4);
    expect(ask).not.toHaveBeenCalled();
    stop();
  });
});
