/**
 * `npm run build`: the client and its first-paint module (Vite, vite.config.ts), then the server bundle
 * (esbuild), then the build stamp dist/build-info.json (scripts/build-stamp.js). Plain JavaScript, so a
 * production install (`npm ci --omit=dev`) builds without tsx.
 *
 *   node scripts/build.js                                   everything, into dist/
 *   node scripts/build.js --server-only --outdir <dir>      the server bundle alone (the tests' build)
 *
 * The server bundle holds the project's own code; the packages in node_modules stay outside it and are
 * loaded from there. Its outdir must sit two levels below the project (dist/<name>/), as src/server does:
 * the server finds the project (schemas/, locales/, dist/client) from where its code lies.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILD_INFO, BUILD_LAYOUT, sourceHash } from './build-stamp.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The server's entries: the server itself (`main`), and what a test harness or another program starts a
 * server from (`boot`: createServer, `settings`: settingsFromEnv), the demo data (`demo-data`: what
 * `npm run demo-data` runs and the test servers add), and the schema check the web terminal runs. Split into shared chunks, so each module exists once whichever entries a process loads.
 */
const SERVER_ENTRIES = [
  { in: 'src/server/main.ts', out: 'main' },
  { in: 'src/server/boot.ts', out: 'boot' },
  { in: 'src/server/settings.ts', out: 'settings' },
  { in: 'src/server/demo-data.ts', out: 'demo-data' },
  { in: 'scripts/check-schemas.ts', out: 'check-schemas' },
];

/** The server bundle into `outdir` (emptied first). */
async function buildServer(outdir) {
  const { build } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: SERVER_ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Stack traces in the logs name the source files and lines (with node --enable-source-maps).
    sourcemap: true,
    sourcesContent: false,
    // Class and function names as in the sources, for error names and logs.
    keepNames: true,
    logLevel: 'warning',
  });
  // The files the server reads beside its code (src/server/app.ts).
  cpSync(join(root, 'src/server/assets'), join(outdir, 'assets'), { recursive: true });
}

async function buildClient() {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'vite.config.ts'), root: join(root, 'src/client') });
}

const { values } = parseArgs({ options: { 'server-only': { type: 'boolean' }, outdir: { type: 'string' } } });
if (values['server-only']) {
  await buildServer(resolve(root, values.outdir ?? 'dist/server'));
} else {
  const sources = sourceHash(root);
  await buildClient();
  await buildServer(join(root, 'dist/server'));
  mkdirSync(dirname(join(root, BUILD_INFO)), { recursive: true });
  writeFileSync(join(root, BUILD_INFO), `${JSON.stringify({ layout: BUILD_LAYOUT, sources, node: process.version, builtAt: new Date().toISOString() }, null, 2)}\n`);
  console.log(`Built the client and the server into dist/ (${BUILD_INFO}).`);
}
