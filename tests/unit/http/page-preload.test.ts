import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STANDALONE_PAGES } from '../../../src/contract/standalone-pages.js';
import { pageHtml } from '../../../src/server/http/page-preload.js';
import { PROJECT_ROOT } from '../../support/test-server.js';

/**
 * The HTML of a standalone page announces the page's code and words, so a phone fetches them beside
 * the app's entry rather than one round trip after it; every other address gets the plain HTML.
 */

const INDEX = Buffer.from('<!doctype html><html><head><script type="module" src="/assets/index-1.js"></script></head><body></body></html>');
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', src: 'index.html', imports: ['_react-1.js'], css: ['assets/index-1.css'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_mui-1.js': { file: 'assets/mui-1.js', imports: ['_react-1.js'] },
  'pages/survey/OutcomePage.tsx': { file: 'assets/OutcomePage-1.js', src: 'pages/survey/OutcomePage.tsx', imports: ['_react-1.js', '_mui-1.js', 'index.html'], css: ['assets/frame-1.css'] },
  // A page that another chunk imports too lives in a shared chunk named after it.
  '_TrackingPage-1.js': { file: 'assets/TrackingPage-1.js', src: 'pages/survey/TrackingPage.tsx', imports: ['_mui-1.js'] },
  '../../locales/en/common/survey.json': { file: 'assets/survey-en.js' },
  '../../locales/zh-cn/common/survey.json': { file: 'assets/survey-zh.js' },
};

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function clientWith(manifest: unknown): string {
  dir = mkdtempSync(join(tmpdir(), 'page-preload-'));
  if (manifest !== undefined) {
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, '.vite', 'manifest.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  }
  return dir;
}

function announced(html: Buffer): string[] {
  return [...html.toString().matchAll(/<link rel="(modulepreload|stylesheet)" crossorigin href="([^"]+)">/g)].map((match) => `${match[1]} ${match[2]}`);
}

describe('page HTML', () => {
  it('announces an outcome page’s own chunks, its CSS and both languages’ words, not what the entry loads already', () => {
    const html = pageHtml(clientWith(MANIFEST), INDEX);
    for (const path of ['/success', '/security', '/overquota/']) {
      expect(announced(html(path))).toEqual([
        'modulepreload /assets/OutcomePage-1.js',
        'modulepreload /assets/mui-1.js',
        'modulepreload /assets/survey-zh.js',
        'modulepreload /assets/survey-en.js',
        'stylesheet /assets/frame-1.css',
      ]);
    }
    expect(announced(html('/tracking'))).toEqual(['modulepreload /assets/TrackingPage-1.js', 'modulepreload /assets/mui-1.js', 'modulepreload /assets/survey-zh.js', 'modulepreload /assets/survey-en.js']);
    expect(html('/success').toString()).toContain('<script type="module" src="/assets/index-1.js"></script>');
  });

  it('answers the plain HTML elsewhere, and without a readable manifest', () => {
    const html = pageHtml(clientWith(MANIFEST), INDEX);
    for (const path of ['/', '/user', '/chidaoadminstator/dashboard', '/successes']) expect(html(path)).toBe(INDEX);
    expect(pageHtml(clientWith(undefined), INDEX)('/success')).toBe(INDEX);
    expect(pageHtml(clientWith('{not json'), INDEX)('/success')).toBe(INDEX);
  });

  it('names modules that exist, so a moved page is noticed here', () => {
    for (const page of Object.values(STANDALONE_PAGES)) expect(existsSync(join(PROJECT_ROOT, 'src/client', page.module)), page.module).toBe(true);
  });
});
