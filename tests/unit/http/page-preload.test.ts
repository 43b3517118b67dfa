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
  it('announces an outcome page’s own chunks, its CSS and the words of the browser’s language, not what the entry loads already', () => {
    const html = pageHtml(clientWith(MANIFEST), INDEX);
    for (const path of ['/success', '/security', '/overquota/']) {
      expect(announced(html(path, 'zh-cn'))).toEqual(['stylesheet /assets/frame-1.css', 'modulepreload /assets/OutcomePage-1.js', 'modulepreload /assets/mui-1.js', 'modulepreload /assets/survey-zh.js']);
    }
    expect(announced(html('/success', 'en'))).toEqual(['stylesheet /assets/frame-1.css', 'modulepreload /assets/OutcomePage-1.js', 'modulepreload /assets/mui-1.js', 'modulepreload /assets/survey-en.js']);
    expect(announced(html('/tracking', 'en'))).toEqual(['modulepreload /assets/TrackingPage-1.js', 'modulepreload /assets/mui-1.js', 'modulepreload /assets/survey-en.js']);
    expect(html('/success', 'zh-cn').toString()).toContain('<script type="module" src="/assets/index-1.js"></script>');
  });

  it('lists the stylesheets before the scripts, so the page paints without waiting for a free connection', () => {
    const index = Buffer.from(
      '<!doctype html><html><head>\n    <title>t</title>\n    <script type="module" crossorigin src="/assets/index-1.js"></script>\n    <link rel="modulepreload" crossorigin href="/assets/react-1.js">\n    <link rel="stylesheet" crossorigin href="/assets/index-1.css">\n  </head><body></body></html>',
    );
    const html = pageHtml(clientWith(MANIFEST), index);
    for (const answer of [html('/success', 'zh-cn'), html('/user', 'zh-cn')]) {
      const text = answer.toString();
      expect(text.indexOf('index-1.css')).toBeGreaterThan(-1);
      expect(text.indexOf('index-1.css')).toBeLessThan(text.indexOf('<script'));
      expect(text.match(/index-1\.css/g)).toHaveLength(1);
    }
    const outcome = html('/success', 'zh-cn').toString();
    expect(outcome.indexOf('frame-1.css')).toBeLessThan(outcome.indexOf('<script'));
  });

  it('answers the plain HTML elsewhere, and without a readable manifest', () => {
    const html = pageHtml(clientWith(MANIFEST), INDEX);
    for (const path of ['/', '/user', '/chidaoadminstator/dashboard', '/successes']) expect(html(path, 'en').toString()).toBe(INDEX.toString());
    expect(pageHtml(clientWith(undefined), INDEX)('/success', 'zh-cn')).toBe(INDEX);
    expect(pageHtml(clientWith('{not json'), INDEX)('/success', 'zh-cn')).toBe(INDEX);
  });

  it('names modules that exist, so a moved page is noticed here', () => {
    for (const page of Object.values(STANDALONE_PAGES)) expect(existsSync(join(PROJECT_ROOT, 'src/client', page.module)), page.module).toBe(true);
  });
});
