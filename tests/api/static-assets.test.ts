import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ICONS_PER_REQUEST, type IconSprite } from '../../src/contract/icons.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * What the browser downloads besides the API: the client's hashed files come compressed and are kept
 * by the browser for good; icons come a screen's worth at a time, never as whole sets.
 */

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(2000))};\n`;

describe('static assets and icons', () => {
  let server: TestServer;
  let clientDir: string;

  beforeAll(async () => {
    // A built client in miniature: the page, one hashed script, and the compressed copies the build writes beside it.
    clientDir = mkdtempSync(join(tmpdir(), 'chidao-static-'));
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
    writeFileSync(join(clientDir, 'assets', 'app-Ab12Cd34.js'), SCRIPT);
    writeFileSync(join(clientDir, 'assets', 'app-Ab12Cd34.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(clientDir, 'assets', 'app-Ab12Cd34.js.gz'), gzipSync(SCRIPT));
    server = await startTestServer('sqlite', { clientDir });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const asset = (encoding: string) => server.raw('/assets/app-Ab12Cd34.js', { headers: { 'accept-encoding': encoding } });

  it('serves a hashed script Brotli-compressed to a browser that accepts it, cached for a year without asking again', async () => {
    const response = await asset('gzip, deflate, br');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('cache-control')).toContain('max-age=31536000');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await response.text()).toBe(SCRIPT);
  });

  it('serves gzip to a browser without Brotli, and the plain file to one that accepts neither', async () => {
    const gzipped = await asset('gzip');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(await gzipped.text()).toBe(SCRIPT);
    const plain = await asset('identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('cache-control')).toContain('immutable');
    expect(await plain.text()).toBe(SCRIPT);
  });

  it('answers the icons a screen names, a few kilobytes, cached for good', async () => {
    const response = await server.raw('/icons/fa.json?names=cube,gear,not-an-icon&v=test', { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const sprite = (await response.json()) as IconSprite;
    expect(Object.keys(sprite).sort()).toEqual(['cube', 'gear', 'not-an-icon']);
    expect(sprite.cube?.body).toMatch(/^<path /);
    expect(sprite.cube?.viewBox).toMatch(/^0 0 \d+ \d+$/);
    // an alias of Font Awesome 4 (gear is cog) is drawn too; an unknown name is null, drawn neutral by the client
    expect(sprite.gear?.body).toMatch(/<path /);
    expect(sprite['not-an-icon']).toBeNull();
    expect(JSON.stringify(sprite).length).toBeLessThan(4096);
  });

  it('finds Element Plus icons however BuildAdmin spelled their names', async () => {
    const sprite = (await (await server.raw('/icons/ep.json?names=user-filled,iphone')).json()) as IconSprite;
    expect(sprite['user-filled']?.body).toMatch(/<path /);
    expect(sprite.iphone?.body).toMatch(/<path /);
  });

  it('refuses names that cannot be icons, or too many at once, in the reader’s language', async () => {
    for (const [query, lang] of [
      ['names=Cube;rm', 'en'],
      ['names=', 'en'],
      [`names=${Array.from({ length: MAX_ICONS_PER_REQUEST + 1 }, (_, index) => `icon${index}`).join(',')}`, 'zh-cn'],
    ] as const) {
      const response = await server.raw(`/icons/fa.json?${query}`, { headers: { 'think-lang': lang } });
      expect(response.status).toBe(400);
      expect(response.headers.get('cache-control') ?? '').not.toContain('immutable');
      const body = (await response.json()) as { code: number; msg: string };
      expect(body.code).toBe(0);
      expect(body.msg).toBe(
        lang === 'en'
          ? `Icon names are lowercase letters, digits and dashes, separated by commas, at most ${MAX_ICONS_PER_REQUEST} at once`
          : `图标名称只能包含小写字母、数字和连字符，以逗号分隔，每次最多 ${MAX_ICONS_PER_REQUEST} 个`,
      );
    }
    const unknownSet = await server.raw('/icons/mdi.json?names=home', { headers: { 'think-lang': 'en' } });
    expect(unknownSet.status).toBe(404);
    expect(((await unknownSet.json()) as { msg: string }).msg).toContain('/icons/mdi.json');
  });
});
