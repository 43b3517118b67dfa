/**
 * `npm run bench:ui`: weight and speed of the two login pages in Chromium. Builds the client, starts
 * the server on a temporary SQLite database, opens `/chidaoadminstator/login` and `/user/login` with an
 * empty cache and prints, for each, the JS and CSS it loaded (raw and gzip bytes), first contentful
 * paint, the time until the password field is visible, and whether any back-office, react-admin or
 * MUI code came with it (the login pages are plain React). Budget: 300 KB gzip of JS+CSS per page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { createServer } from '../../src/server/boot.js';
import { settingsFromEnv } from '../../src/server/settings.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const BUDGET_BYTES = 300 * 1024;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PAGES = [
  { name: 'admin login page', path: '/chidaoadminstator/login' },
  { name: 'member login page', path: '/user/login' },
];
/** Strings only the heavy parts' code contains: the back office's shell, react-admin's layout, MUI. */
const HEAVY_MARKERS = { 'back office': 'chidao-admin', 'react-admin': 'RaLayout', MUI: 'MuiButtonBase' };

type Asset = { type: string; raw: number; gzip: number; text: string };

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'chidao-bench-ui-'));
  const clientDir = join(work, 'client');
  console.log('building the client…');
  await build({ configFile: join(root, 'vite.config.ts'), root: join(root, 'src/client'), logLevel: 'warn', build: { outDir: clientDir, emptyOutDir: true } });
  const settings = settingsFromEnv({ DATABASE_URL: `sqlite:${join(work, 'app.db')}`, ADMIN_PASSWORD: 'Bench_pass1', STORAGE_DIR: join(work, 'storage') }, root);
  const server = await createServer(settings, { clientDir });
  const url = (await server.http.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    for (const target of PAGES) {
      const paints: number[] = [];
      const ready: number[] = [];
      let assets = new Map<string, Asset>();
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const loaded = new Map<string, Asset>();
        page.on('response', async (response) => {
          const type = response.request().resourceType();
          if (type !== 'script' && type !== 'stylesheet') return;
          const body = await response.body().catch(() => Buffer.alloc(0));
          loaded.set(new URL(response.url()).pathname, { type, raw: body.length, gzip: gzipSync(body, { level: 9 }).length, text: body.toString('utf8') });
        });
        const started = Date.now();
        await page.goto(`${url}${target.path}`);
        await page.locator('input[type="password"]').first().waitFor({ state: 'visible' });
        ready.push(Date.now() - started);
        await page.waitForLoadState('networkidle');
        const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
        paints.push(fcp);
        assets = loaded;
        await context.close();
      }
      const files = [...assets.entries()].sort((a, b) => b[1].gzip - a[1].gzip);
      const total = files.reduce((sum, [, file]) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip }), { raw: 0, gzip: 0 });
      const heavy = Object.entries(HEAVY_MARKERS).filter(([, marker]) => files.some(([, file]) => file.type === 'script' && file.text.includes(marker))).map(([name]) => name);
      console.log(`\n${target.name} (${url}${target.path}), ${RUNS} cold loads, 2-core machine, headless Chromium`);
      for (const [path, file] of files) console.log(`  ${file.type.padEnd(10)} ${kib(file.gzip).padStart(10)} gzip ${kib(file.raw).padStart(10)} raw  ${path}`);
      console.log(`JS+CSS: ${files.length} files, ${kib(total.raw)} raw, ${kib(total.gzip)} gzip`);
      console.log(`back office, react-admin or MUI code loaded: ${heavy.length === 0 ? 'none' : heavy.join(', ')}`);
      console.log(`first contentful paint (median): ${median(paints).toFixed(0)} ms`);
      console.log(`password field visible (median): ${median(ready)} ms`);
      console.log(`budget: ${kib(BUDGET_BYTES)} gzip → ratio ${(total.gzip / BUDGET_BYTES).toFixed(2)} of budget (${total.gzip <= BUDGET_BYTES ? 'within' : 'OVER'})`);
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
