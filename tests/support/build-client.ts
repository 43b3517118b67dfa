import { join, resolve } from 'node:path';
import { build } from 'vite';

// Not test-server.ts's: importing it here would load the server (under TEST_SERVER=bundle, a bundle the
// node project's setup may not have built yet) into a setup that only builds the client.
const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/** The directory browser tests serve the client from. */
export const TEST_CLIENT_DIR = join(PROJECT_ROOT, 'dist/test-client');

/**
 * Vitest global setup of the e2e project: one production build of the client for the whole run.
 * Vitest sets NODE_ENV=test, which Vite would honour (React's development build, StrictMode's double
 * effects); the browser tests must exercise what is shipped, so NODE_ENV is production while building.
 */
export default async function buildClient(): Promise<void> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(PROJECT_ROOT, 'vite.config.ts'),
      root: join(PROJECT_ROOT, 'src/client'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir: TEST_CLIENT_DIR, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
