import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One SPA for both areas; the API server serves dist/client and proxies nothing in production.
export default defineConfig({
  plugins: [react()],
  root: 'src/client',
  publicDir: false,
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // The back office (react-admin, MUI and the generated screens) is one lazy chunk of about 1.1 MB
    // (340 KB gzip) fetched only after an admin logs in; the login pages stay small (npm run bench:ui).
    chunkSizeWarningLimit: 1400,
    // Read by the server (not served): it announces a standalone page's chunks in that page's HTML.
    manifest: true,
  },
  server: {
    proxy: {
      // `npm run dev` sets DEV_API_URL to the API server it started; `npm run dev:client` alone expects one on 8000.
      // `/__dev/` is the schema event stream of `npm run dev` (the back office redraws on a schema change).
      '^/(api|chidaoadminstator\\.php|static|storage|__dev)/': process.env.DEV_API_URL ?? 'http://127.0.0.1:8000',
    },
  },
});
