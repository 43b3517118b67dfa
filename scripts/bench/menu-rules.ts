/**
 * `npx tsx scripts/bench/menu-rules.ts`: how long the menu rules page (权限管理 > 菜单规则, a tree of every
 * seeded rule, about 170 rows) takes from the click on its menu entry to its rows, in Chromium, split
 * into the index request (the browser's resource timing of `auth.Rule/index`: request start to its last
 * byte) and what the client spends after it (answer → first row, answer → as many rows as the answer
 * holds), with the main thread's busy time over the whole. Builds the client (unless `BENCH_CLIENT_DIR` names a built
 * one), starts the server on a temporary SQLite database; `BENCH_RUNS` (default 5) sets the runs.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { createServer } from '../../src/server/boot.js';
import { settingsFromEnv } from '../../src/server/settings.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function figures(values: number[]): string {
  return `median ${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
}

/** How many rules a tree of the index answer holds (each with its `children`). */
function rulesIn(list: unknown): number {
  if (!Array.isArray(list)) return 0;
  return list.reduce<number>((sum, rule: { children?: unknown }) => sum + 1 + rulesIn(rule?.children), 0);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'chidao-bench-rules-'));
  let clientDir = process.env.BENCH_CLIENT_DIR ?? '';
  if (!clientDir) {
    clientDir = join(work, 'client');
    console.log('building the client…');
    await build({
      configFile: join(root, 'vite.config.ts'),
      root: join(root, 'src/client'),
      logLevel: 'warn',
      build: { outDir: clientDir, emptyOutDir: true },
    });
  }
  const settings = settingsFromEnv(
    {
      DATABASE_URL: `sqlite:${join(work, 'app.db')}`,
      ADMIN_PASSWORD: 'Bench_pass1',
      STORAGE_DIR: join(work, 'storage'),
      ADMIN_LOGIN_CAPTCHA: 'false',
      API_GET_RATE_LIMIT: '0',
      AUTH_RATE_LIMIT: '0',
    },
    root,
  );
  const server = await createServer(settings, { clientDir });
  const origin = (await server.http.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const request: number[] = [];
  const toFirst: number[] = [];
  const toAll: number[] = [];
  const total: number[] = [];
  const busy: number[] = [];
  let rows = 0;
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
      const page = await context.newPage();
      await page.goto(`${origin}/chidaoadminstator/login`);
      await page.locator('input[name="username"]').fill('admin');
      await page.locator('input[type="password"]').fill('Bench_pass1');
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.waitForURL(/dashboard/);
      await page.waitForLoadState('networkidle');
      const devtools = await context.newCDPSession(page);
      await devtools.send('Performance.enable');
      const before =
        (await devtools.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')
          ?.value ?? 0;
      // Through the menu, as a person goes there: 权限管理 opens, 菜单规则管理 is the entry.
      const folder = page
        .getByRole('navigation', { name: '主菜单' })
        .getByRole('button', { name: '权限管理', exact: true })
        .first();
      if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
      const entry = folder
        .locator('xpath=following-sibling::div[1]')
        .getByRole('button', { name: '菜单规则管理', exact: true });
      await entry.waitFor();
      const answer = page.waitForResponse((response) => response.url().includes('auth.Rule/index'));
      // The moments the first row and then a given number of rows are in the page, taken in the page as
      // they happen (a call from here would wait for the page to be free, after the drawing of any rest).
      await page.evaluate(`(() => {
        window.__rows = [];
        new MutationObserver(() => {
          const count = document.querySelectorAll('main [data-tree-table] tbody tr').length;
          if (count !== (window.__rows.at(-1)?.count ?? 0)) window.__rows.push({ count, at: performance.now() });
        }).observe(document.body, { childList: true, subtree: true });
      })()`);
      const reached = (wanted: number) => `window.__rows.find((seen) => seen.count >= ${wanted})?.at ?? 0`;
      const clicked = await page.evaluate(() => performance.now());
      await entry.click();
      await page.locator('main [data-tree-table] tbody tr').first().waitFor({ timeout: 120_000 });
      const first = (await page.evaluate(reached(1))) as number;
      // A string, not a function: the bench's compiler would wrap a function's inner names in a helper the page lacks.
      const timing = (await page.evaluate(`(async () => {
        const find = () => performance.getEntriesByType('resource').find((each) => each.name.includes('auth.Rule/index'));
        while (!find()) await new Promise((done) => setTimeout(done, 20));
        return find().toJSON();
      })()`)) as { startTime: number; responseEnd: number };
      // Every row drawn: as many as the answer holds (the tree draws a screenful first, then the rest).
      const expected = rulesIn(((await (await answer).json()) as { data?: { list?: unknown } }).data?.list);
      await page.waitForFunction(`(${reached(expected)}) > 0`, undefined, { timeout: 120_000 });
      const all = (await page.evaluate(reached(expected))) as number;
      const count = await page.locator('main [data-tree-table] tbody tr').count();
      const after =
        (await devtools.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')
          ?.value ?? 0;
      rows = count;
      request.push(timing.responseEnd - timing.startTime);
      toFirst.push(first - timing.responseEnd);
      toAll.push(all - timing.responseEnd);
      total.push(first - clicked);
      busy.push((after - before) * 1000);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(
    `menu rules page, ${rows} rows, ${RUNS} runs, load ${loadavg()[0].toFixed(1)}, headless Chromium at 1440 px`,
  );
  console.log(`click → first row:                ${figures(total)}`);
  console.log(`index request (start → last byte): ${figures(request)}`);
  console.log(`answer → first row (client):       ${figures(toFirst)}`);
  console.log(`answer → every row (client):       ${figures(toAll)}`);
  console.log(`main thread busy, click → rows:    ${figures(busy)}`);
}

await main();
