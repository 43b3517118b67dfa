import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // API and browser suites start real servers on real databases; two workers on a 2-core machine.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // `npm run test:quick` runs the node project with `--tags-filter='!full'`; `npm test` runs everything.
    tags: [
      {
        name: 'full',
        description:
          'full lane only (npm test): tests that start other processes, need PostgreSQL or MariaDB by name, run the TypeScript compiler or wait on a clock; npm run test:quick leaves them out',
      },
    ],
    projects: [
      // The server bundle is built once per run (tests/support/build-server.ts): the shutdown test runs it as
      // a process, and with TEST_SERVER=bundle (`npm test`) every API test's server comes from it, so the
      // API suite runs once, against what `npm start` runs.
      { extends: true, test: { name: 'node', include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'], globalSetup: ['tests/support/build-server.ts'] } },
      {
        extends: true,
        // A form with every widget takes 5–9 s to render and fill in jsdom on two busy cores: room to spare.
        test: { name: 'ui', include: ['tests/ui/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: ['tests/support/ui-setup.ts'], testTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // The client is built once per run into dist/test-client, then served by each test server.
          globalSetup: ['tests/support/build-client.ts'],
          // The browser tests' servers come from the sources whatever TEST_SERVER says: the server bundle
          // is the node project's (built by its global setup).
          env: { TEST_SERVER: 'sources' },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
