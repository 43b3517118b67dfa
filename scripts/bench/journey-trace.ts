/**
 * `npx tsx scripts/bench/journey-trace.ts`: where the admin journey's wait after the login click goes.
 * Runs the journey of `npm run bench:ui` (login with `/auth/admin` as the target, type, wait for the
 * network to be idle, click, wait for the list's first row) in a cold context and prints, relative to
 * the click: every request with when it started, when its answer began (the server's time is roughly
 * the gap between sending and the first byte) and ended; the main thread's long tasks; and the
 * functions that took the most main-thread time after the click (a CPU profile).
 * `TRACE_RUNS` (default 3) sets the runs (the last one is printed in full, the others as totals),
 * `TRACE_THROTTLE` slows the CPU down (e.g. 4), `TRACE_CLIENT_DIR` reuses a client already built there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { createServer } from '../../src/server/boot.js';
import { settingsFromEnv } from '../../src/server/settings.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const RUNS = Number(process.env.TRACE_RUNS ?? 3);
const THROTTLE = Number(process.env.TRACE_THROTTLE ?? 1);
const LIST = '/auth/admin';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'chidao-trace-'));
  // Several builds (comma-separated) are measured in turns, one run each, for an A/B comparison under the same load.
  const clientDirs = process.env.TRACE_CLIENT_DIR ? process.env.TRACE_CLIENT_DIR.split(',') : [join(work, 'client')];
  if (!process.env.TRACE_CLIENT_DIR) {
    console.log('building the client…');
    await build({ configFile: join(root, 'vite.config.ts'), root: join(root, 'src/client'), logLevel: 'error', build: { outDir: clientDirs[0], emptyOutDir: true } });
  }
  const settings = settingsFromEnv(
    { DATABASE_URL: `sqlite:${join(work, 'app.db')}`, ADMIN_PASSWORD: 'Bench_pass1', STORAGE_DIR: join(work, 'storage'), ADMIN_LOGIN_CAPTCHA: 'false', USER_LOGIN_CAPTCHA: 'false', API_GET_RATE_LIMIT: '0', AUTH_RATE_LIMIT: '0' },
    root,
  );
  const servers = await Promise.all(clientDirs.map((clientDir, index) => createServer({ ...settings, databaseUrl: settings.databaseUrl.replace('app.db', `app-${index}.db`) }, { clientDir })));
  const origins = await Promise.all(servers.map(async (server) => (await server.http.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '')));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const totals: number[][] = clientDirs.map(() => []);
  const passwords: number[][] = clientDirs.map(() => []);
  try {
    for (let turn = 0; turn < RUNS * clientDirs.length; turn++) {
      const run = Math.floor(turn / clientDirs.length);
      const which = turn % clientDirs.length;
      const origin = origins[which];
      const last = run === RUNS - 1 && which === clientDirs.length - 1;
      const context = await browser.newContext();
      const page = await context.newPage();
      const devtools = await context.newCDPSession(page);
      await devtools.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
      const opened = Date.now();
      await page.goto(`${origin}/chidaoadminstator/login?to=${encodeURIComponent(LIST)}`);
      await page.locator('input[type="password"]').waitFor({ state: 'visible' });
      // Usable as the bench counts it: the page's code runs the field (the server's first view is inert until then).
      await page.waitForFunction(() => document.querySelector('[inert]') === null);
      passwords[clientDirs.indexOf(clientDirs[which])].push(Date.now() - opened);
      await page.locator('input[name="username"]').click();
      await page.keyboard.type('admin');
      await page.locator('input[type="password"]').click();
      await page.keyboard.type('Bench_pass1');
      await page.waitForLoadState('networkidle');
      // A string, not a function: the compiler's helpers (`__name`) do not exist in the page.
      await page.evaluate(`(() => {
        const tasks = (window.traceTasks = []);
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) tasks.push([entry.startTime, entry.duration]);
        }).observe({ type: 'longtask' });
        // What the page shows, as it changes: the address, and the first time each landmark appears.
        const marks = (window.traceMarks = []);
        const mark = (what) => marks.push([performance.now(), what]);
        window.addEventListener('click', () => mark('click event'), true);
        for (const method of ['pushState', 'replaceState']) {
          const original = history[method].bind(history);
          history[method] = (...args) => {
            original(...args);
            mark(method + ' ' + location.pathname);
          };
        }
        const landmarks = {
          'layout': '.RaLayout-appFrame, .RaLayout-root',
          'app bar': '.MuiAppBar-root',
          'side menu': '.RaSidebar-fixed, .RaSidebar-root',
          'list page': '.RaList-main, .RaList-root',
          'list toolbar': '.RaList-actions',
          'loading indicator': '.RaLoading-root, .MuiLinearProgress-root, .MuiSkeleton-root',
          'table': 'main table',
          'first row': 'main table tbody tr',
        };
        const seen = new Set();
        let busy = false;
        new MutationObserver(() => {
          for (const [name, selector] of Object.entries(landmarks)) {
            if (!seen.has(name) && document.querySelector(selector)) {
              seen.add(name);
              mark(name + ' shown');
              // What the list page says, read once it is drawn: innerText now would lay the page out early.
              if (name === 'list page') setTimeout(() => mark('list page says: ' + (document.querySelector('main')?.innerText ?? '').replace(/\\s+/g, ' ').slice(0, 120)), 500);
            }
          }
          const nowBusy = document.querySelector('[aria-busy="true"]') !== null;
          if (nowBusy !== busy) mark(nowBusy ? 'busy on' : 'busy off');
          busy = nowBusy;
        }).observe(document, { subtree: true, childList: true, attributes: true });
      })()`);
      const requests: { url: string; method: string; start: number; firstByte: number; end: number; sent: number }[] = [];
      // Request timings are wall-clock milliseconds: counted from the click on the page's own clock.
      const timeOrigin = await page.evaluate(() => performance.timeOrigin);
      let clickedWall = 0;
      page.on('requestfinished', (request) => {
        const timing = request.timing();
        const path = new URL(request.url()).pathname + new URL(request.url()).search;
        requests.push({
          url: path.length > 90 ? `${path.slice(0, 87)}…` : path,
          method: request.method(),
          start: timing.startTime - clickedWall,
          sent: timing.startTime + Math.max(timing.requestStart, 0) - clickedWall,
          firstByte: timing.startTime + timing.responseStart - clickedWall,
          end: timing.startTime + timing.responseEnd - clickedWall,
        });
      });
      const tracing = process.env.TRACE_FILE && last;
      if (tracing) await browser.startTracing(page, { path: process.env.TRACE_FILE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading'] });
      await devtools.send('Profiler.enable');
      await devtools.send('Profiler.setSamplingInterval', { interval: 200 });
      await devtools.send('Profiler.start');
      const profileStart = await page.evaluate(() => performance.now());
      const clicked = await page.evaluate(() => (performance.mark('trace-click'), performance.now()));
      clickedWall = timeOrigin + clicked;
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.locator('main table tbody tr').first().waitFor({ state: 'visible', timeout: 60_000 });
      const shown = (await page.evaluate(() => performance.now())) - clicked;
      if (tracing) {
        await browser.stopTracing();
        console.log(`trace written to ${process.env.TRACE_FILE} (click at page time ${clicked.toFixed(1)} ms)`);
      }
      const { profile } = (await devtools.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
      const tasks = await page.evaluate(() => (window as unknown as { traceTasks: [number, number][] }).traceTasks);
      const marks = await page.evaluate(() => (window as unknown as { traceMarks: [number, string][] }).traceMarks);
      const routes = await page.evaluate(() => location.pathname);
      totals[which].push(shown);
      console.log(`\n${clientDirs[which]} run ${run + 1}: login click → first row ${shown.toFixed(0)} ms (ended on ${routes})`);
      if (!last) {
        await context.close();
        continue;
      }
      console.log('requests after the click (ms from the click: start, sent, first byte, end; server ≈ first byte − sent):');
      for (const request of requests.sort((a, b) => a.start - b.start)) {
        console.log(`  ${request.start.toFixed(0).padStart(5)} ${request.sent.toFixed(0).padStart(5)} ${request.firstByte.toFixed(0).padStart(5)} ${request.end.toFixed(0).padStart(5)}  (server ≈${(request.firstByte - request.sent).toFixed(0).padStart(4)})  ${request.method} ${request.url}`);
      }
      console.log('what the page showed (ms from the click):');
      for (const [time, what] of marks) console.log(`  ${(time - clicked).toFixed(0).padStart(5)}  ${what}`);
      const after = tasks.filter(([start]) => start >= clicked);
      console.log(`long tasks after the click (ms from the click, duration): ${after.map(([start, duration]) => `${(start - clicked).toFixed(0)}+${duration.toFixed(0)}`).join('  ')}`);
      console.log(`  total ${after.reduce((sum, [, duration]) => sum + duration, 0).toFixed(0)} ms`);
      // Self time per function and per file, from the CPU profile.
      const self = new Map<number, number>();
      profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
      const byFunction = new Map<string, number>();
      const byFile = new Map<string, number>();
      for (const node of profile.nodes) {
        const time = self.get(node.id) ?? 0;
        const file = node.callFrame.url ? new URL(node.callFrame.url, origin).pathname : `(${node.callFrame.functionName || 'native'})`;
        const name = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber}`;
        byFunction.set(name, (byFunction.get(name) ?? 0) + time);
        byFile.set(file, (byFile.get(file) ?? 0) + time);
      }
      const top = (map: Map<string, number>, count: number) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
      // The same, in slices of the time after the click: which code ran when.
      const SLICE = Number(process.env.TRACE_SLICE ?? 100);
      const slices = new Map<number, Map<string, number>>();
      const parents = new Map<number, number>();
      for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
      const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
      let at = profileStart;
      profile.samples.forEach((id, index) => {
        at += (profile.timeDeltas[index] ?? 0) / 1000;
        const slice = Math.floor((at - clicked) / SLICE);
        // The innermost frame of a named function of our own code (or a component), else the leaf.
        let frame = nodes.get(id);
        let label = frame ? `${frame.callFrame.functionName || '(anonymous)'}` : '?';
        // The innermost frame of the project's own code (src/…, readable in a build that is not minified), else the leaf.
        for (let walk = frame; walk; walk = nodes.get(parents.get(walk.id) ?? -1)) {
          if (/^[A-Z][A-Za-z]{3,}$/.test(walk.callFrame.functionName)) {
            label = walk.callFrame.functionName;
            break;
          }
        }
        if (label === '(idle)') return;
        const counts = slices.get(slice) ?? new Map<string, number>();
        counts.set(label, (counts.get(label) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
        slices.set(slice, counts);
        frame = undefined;
      });
      console.log(`busy time per ${SLICE} ms after the click, by innermost component-like function (capitalised name):`);
      for (const [slice, counts] of [...slices.entries()].sort((a, b) => a[0] - b[0])) {
        const busy = [...counts.values()].reduce((sum, time) => sum + time, 0);
        console.log(`  ${String(slice * SLICE).padStart(5)} busy ${busy.toFixed(0).padStart(3)}: ${top(counts, 6).map(([name, time]) => `${name} ${time.toFixed(0)}`).join(', ')}`);
      }
      // Inclusive time of component-like functions (a capitalised name; readable with a build that is not minified).
      const inclusive = new Map<string, number>();
      const stackOf = (id: number) => {
        const names = new Set<string>();
        for (let walk = nodes.get(id); walk; walk = nodes.get(parents.get(walk.id) ?? -1)) {
          if (/^[A-Z][A-Za-z]{3,}$/.test(walk.callFrame.functionName)) names.add(walk.callFrame.functionName);
        }
        return names;
      };
      profile.samples.forEach((id, index) => {
        for (const name of stackOf(id)) inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
      });
      console.log('inclusive main-thread time of component-like functions (ms):');
      for (const [name, time] of top(inclusive, 40)) console.log(`  ${time.toFixed(0).padStart(5)}  ${name}`);
      console.log('main-thread self time by file (ms):');
      for (const [file, time] of top(byFile, 12)) console.log(`  ${time.toFixed(0).padStart(5)}  ${file}`);
      console.log('main-thread self time by function (ms):');
      for (const [name, time] of top(byFunction, 25)) console.log(`  ${time.toFixed(1).padStart(6)}  ${name}`);
      await context.close();
    }
    for (const [index, values] of totals.entries()) {
      const sorted = [...values].sort((a, b) => a - b);
      const typed = [...passwords[index]].sort((a, b) => a - b);
      console.log(`\n${clientDirs[index]}: password field usable: median ${typed[Math.floor(typed.length / 2)]} ms (${typed.join(', ')})`);
      console.log(`${clientDirs[index]}: click → first row: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms of ${RUNS} (${sorted.map((value) => value.toFixed(0)).join(', ')}), CPU ×${THROTTLE}, load average ${loadavg()[0].toFixed(1)}`);
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
