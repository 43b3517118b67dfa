import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { build, defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { FIRST_PAINT_MODULE } from './src/contract/standalone-pages.js';

/**
 * After the client, the renderer of the standalone pages' first views (src/client/first-paint.tsx) is
 * built for Node beside it: one self-contained module the server imports (see
 * src/server/http/first-paint.ts). Every way of building the client (npm run build, which a first npm start runs, the
 * browser tests, bench:ui) thus builds both.
 */
function firstPaintRenderer(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'chidao-first-paint-renderer',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      await build({
        configFile: config.configFile,
        root: config.root,
        mode: config.mode,
        logLevel: config.logLevel,
        // Its own React, router and MUI inside: the module runs wherever the build is copied to.
        ssr: { noExternal: true },
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          ssr: 'first-paint.tsx',
          outDir: resolve(config.root, config.build.outDir, dirname(FIRST_PAINT_MODULE)),
          emptyOutDir: true,
          manifest: false,
          rollupOptions: {
            output: { entryFileNames: basename(FIRST_PAINT_MODULE) },
            // The back office, which the admin login only fetches once a person starts typing, never
            // runs on the server: left out, the module is a fifth of the size and builds in seconds.
            external: [/\/AdminApp\.(js|tsx)$/],
            // The message loader names every message file lazily, and the http client's are also imported
            // directly: those simply stay with their importer, as intended.
            onLog(level, log, handler) {
              if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
            },
          },
        },
      });
    },
  };
}

/** Text assets worth compressing ahead: below a kilobyte the headers outweigh the saving. */
const COMPRESSIBLE = /\.(?:js|css|json|svg)$/;
const MIN_COMPRESSED_BYTES = 1024;

/**
 * Every hashed text asset of the client is written beside itself compressed, as `<file>.br` (Brotli at
 * its best level) and `<file>.gz`, once at build time: the server answers the variant the browser
 * accepts (src/server/app.ts) without spending a cycle per request on compression.
 */
function precompressedAssets(): Plugin {
  let config: ResolvedConfig;
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'chidao-precompressed-assets',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      const dir = resolve(config.root, config.build.outDir, config.build.assetsDir);
      const files = (await readdir(dir)).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const body = await readFile(join(dir, name));
          if (body.length < MIN_COMPRESSED_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gzipped(body, { level: 9 }),
          ]);
          await Promise.all([writeFile(join(dir, `${name}.br`), br), writeFile(join(dir, `${name}.gz`), gz)]);
        }),
      );
    },
  };
}

/** The icon packages' versions: the icons' addresses carry them, so their answers are cached for good (src/contract/icons.ts). */
function iconSetsVersion(): string {
  const require = createRequire(import.meta.url);
  const versionOf = (name: string) => (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
  return `fa${versionOf('@iconify-json/fa')}-ep${versionOf('@iconify-json/ep')}`;
}

// One SPA for both areas; the API server serves dist/client and proxies nothing in production.
export default defineConfig({
  plugins: [react(), precompressedAssets(), firstPaintRenderer()],
  define: { __ICON_SETS_VERSION__: JSON.stringify(iconSetsVersion()) },
  root: 'src/client',
  publicDir: false,
  resolve: {
    // A polyfill of a built-in every supported browser has (asked for by the message library
    // react-admin translates with), replaced by the built-in: its helper packages stay out of the bundle.
    alias: [
      { find: /^object\.entries$/, replacement: fileURLToPath(new URL('./src/client/shims/object-entries.cjs', import.meta.url)) },
      // react-admin's router adapter, replaced by the app's (src/client/shims/ra-router-adapter.ts): for an
      // app without a router of its own, ra-core's builds a hash router, which brings react-router's data
      // router (some 55 kB) into the bundle. The app always draws react-admin inside its own router.
      // Only ra-core imports a module by this relative name.
      { find: /^\.\/adapters\/reactRouterProvider\.js$/, replacement: fileURLToPath(new URL('./src/client/shims/ra-router-adapter.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // Every chunk stays under Vite's default warning size (500 kB): the largest are the icon sets only
    // the icon picker loads and the dashboard's charts, each about 400 kB.
    // Read by the server (not served): it announces a standalone page's chunks in that page's HTML.
    manifest: true,
  },
  server: {
    proxy: {
      // `npm run dev` sets DEV_API_URL to the API server it started; `npm run dev:client` alone expects one on 8000.
      // `/__dev/` is the schema event stream of `npm run dev` (the back office redraws on a schema change);
      // `/icons/` the icons a screen draws (src/server/http/icon-sprites.ts).
      '^/(api|chidaoadminstator\\.php|static|storage|icons|__dev)/': process.env.DEV_API_URL ?? 'http://127.0.0.1:8000',
    },
  },
});
