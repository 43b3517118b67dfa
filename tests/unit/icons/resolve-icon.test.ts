import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { iconNameOf, kebabOf, parseIconName } from '../../../src/client/components/icons/icon-name.js';
import { loadIconSets, type IconSets } from '../../../src/client/components/icons/icon-sets.js';
import { iconNames, resolveIcon } from '../../../src/client/components/icons/resolve-icon.js';

let sets: IconSets;
beforeAll(async () => {
  sets = await loadIconSets();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The SVG path data an icon draws, to tell two icons apart. */
function pathsOf(name: string): string {
  const drawn = resolveIcon(name, sets);
  if (!drawn) throw new Error(`${name} did not resolve`);
  return drawn.body;
}

describe('BuildAdmin icon names', () => {
  it('reads the family and the key of each form of name', () => {
    expect(parseIconName('fa fa-cube')).toEqual({ family: 'fa', key: 'cube' });
    expect(parseIconName('  fa fa-cube fa-fw ')).toEqual({ family: 'fa', key: 'cube' });
    expect(parseIconName('fa-lg fa-pencil-square-o')).toEqual({ family: 'fa', key: 'pencil-square-o' });
    expect(parseIconName('el-icon-UserFilled')).toEqual({ family: 'ep', key: 'user-filled' });
    expect(parseIconName('el-icon-ChatDotRound')).toEqual({ family: 'ep', key: 'chat-dot-round' });
    expect(parseIconName('local-logo')).toEqual({ family: 'local', key: 'logo' });
    expect(parseIconName('')).toBeNull();
    expect(parseIconName(null)).toBeNull();
    expect(kebabOf('DataAnalysis')).toBe('data-analysis');
    expect(iconNameOf({ family: 'ep', key: 'chat-dot-round' })).toBe('el-icon-ChatDotRound');
    expect(iconNameOf({ family: 'fa', key: 'cube' })).toBe('fa fa-cube');
  });

  it('draws Font Awesome 4 names, renamed and aliased ones included, with their own glyphs', () => {
    for (const name of ['fa fa-cube', 'fa fa-list', 'fa fa-users', 'fa fa-money', 'fa fa-check-square-o', 'fa fa-th-list', 'fa fa-dashboard']) {
      expect(resolveIcon(name, sets), name).toMatchObject({ family: 'fa', body: expect.stringContaining('<path') });
    }
    // FA 4 names that Font Awesome 5+ renamed or dropped are in the 4.7 set, aliases resolved to their glyph.
    expect(resolveIcon('fa fa-pencil-square-o', sets)?.body).toBe(pathsOf('fa fa-edit'));
    expect(resolveIcon('fa fa-gear', sets)?.body).toBe(pathsOf('fa fa-cog'));
    expect(resolveIcon('fa fa-bar-chart-o', sets)?.body).toBe(pathsOf('fa fa-bar-chart'));
    for (const name of ['fa fa-file-text-o', 'fa fa-picture-o', 'fa fa-send', 'fa fa-drivers-license', 'fa fa-clock-o', 'fa fa-circle-o']) {
      expect(resolveIcon(name, sets), name).not.toBeNull();
    }
    expect(pathsOf('fa fa-cube')).not.toBe(pathsOf('fa fa-list'));
    // non-square FA glyphs keep their own width
    expect(resolveIcon('fa fa-cube', sets)?.viewBox).toBe('0 0 1664 1664');
  });

  it('draws Element Plus names as BuildAdmin stores them', () => {
    for (const name of ['el-icon-UserFilled', 'el-icon-Setting', 'el-icon-ChatDotRound', 'el-icon-Iphone', 'el-icon-DataAnalysis', 'el-icon-HomeFilled']) {
      expect(resolveIcon(name, sets), name).toMatchObject({ family: 'ep', viewBox: '0 0 1024 1024' });
    }
    expect(pathsOf('el-icon-UserFilled')).not.toBe(pathsOf('el-icon-User'));
    // case slips still find the icon
    expect(resolveIcon('el-icon-userFilled', sets)?.key).toBe('user-filled');
  });

  it('draws BuildAdmin local icons', () => {
    expect(resolveIcon('local-logo', sets)).toMatchObject({ family: 'local', key: 'logo', viewBox: '0 0 32 32' });
    expect(resolveIcon('local-dark', sets)?.body).toBe(pathsOf('el-icon-Moon'));
    for (const name of ['local-light', 'local-lang', 'local-terminal', 'local-full-screen-cancel']) {
      expect(resolveIcon(name, sets), name).toMatchObject({ family: 'local' });
    }
  });

  it('gives unknown names nothing to draw (the neutral icon) and warns once per name', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const name of ['fa fa-no-such-icon', 'el-icon-NoSuchIcon', 'local-nothing', 'fa fa-constructor', 'el-icon-__proto__', 'mdi-account']) {
      expect(resolveIcon(name, sets), name).toBeNull();
    }
    resolveIcon('fa fa-no-such-icon', sets);
    expect(warn).toHaveBeenCalledTimes(6);
    expect(warn.mock.calls[0][0]).toContain('fa fa-no-such-icon');
    warn.mockClear();
    expect(resolveIcon('', sets)).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('lists every icon of the three families for the picker, each one drawable', () => {
    const names = iconNames(sets);
    expect(names.fa.length).toBeGreaterThan(700);
    expect(names.fa).toContain('fa fa-pencil-square-o');
    expect(names.ep.length).toBeGreaterThan(250);
    expect(names.ep).toContain('el-icon-UserFilled');
    expect(names.local).toContain('local-logo');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const name of [...names.fa, ...names.ep, ...names.local]) expect(resolveIcon(name, sets), name).not.toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });
});
