/**
 * `npm run dev`: the API server and the Vite client dev server together, live while developing.
 *
 * - the API listens on HOST:PORT (127.0.0.1:8000), the client on HOST:VITE_PORT (5173) with hot reload,
 *   proxying the API to the server;
 * - `schemas/` is watched: a changed schema is checked and migrated as at start-up (safe changes only),
 *   the row types are regenerated (`src/generated/resources.ts`), and the open back office fetches the
 *   new definitions and redraws its menus and screens, with no restart;
 * - a broken schema leaves the last good one running; the error (file and JSON path) shows in this
 *   terminal and in the browser until the file is fixed.
 */
import { join, resolve } from 'node:path';
import type { ViteDevServer } from 'vite';
import { SchemaError } from '../src/schema/normalise.js';
import { createServer, type Server } from '../src/server/boot.js';
import { describeDatabaseUrl } from '../src/server/db/connection.js';
import { noMembersNote } from '../src/server/demo-data.js';
import { DestructiveMigrationError } from '../src/server/db/migrate.js';
import { LIVE_SCHEMAS_PATH, LiveSchemas } from '../src/server/dev/live-schemas.js';
import { settingsFromEnv } from '../src/server/settings.js';
import { describeSmsDriver } from '../src/server/sms/sms-driver.js';
import { writeTypes } from './gen-types.js';

const ROOT = resolve(import.meta.dirname, '..');

interface DevOptions {
  /** the environment the settings are read from (process.env by default) */
  env?: Record<string, string | undefined>;
  schemasDir?: string;
  /** where the regenerated row types go; false: not regenerated */
  typesOutput?: string | false;
  /** start the Vite client dev server too (default true) */
  client?: boolean;
  clientPort?: number;
  /** Vite's own terminal output (default info) */
  clientLogLevel?: 'info' | 'warn' | 'error' | 'silent';
  log?(line: string): void;
  debounceMs?: number;
}

export interface DevServer {
  server: Server;
  live: LiveSchemas;
  apiUrl: string;
  clientUrl?: string;
  close(): Promise<void>;
}

export async function startDev(options: DevOptions = {}): Promise<DevServer> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  const settings = settingsFromEnv(env, ROOT);
  const schemasDir = options.schemasDir ?? join(ROOT, 'schemas');
  const { typesOutput } = options;
  const server = await createServer(settings, { schemasDir, logger: env.LOG_REQUESTS === 'true' });
  for (const change of server.migration.changes) log(`migrate: ${change}`);
  const live = new LiveSchemas(server, {
    schemasDir,
    log,
    debounceMs: options.debounceMs,
    onApplied: async (definitions) => {
      if (typesOutput === false) return;
      if (await writeTypes(definitions, typesOutput)) log('schemas: row types regenerated');
    },
  });
  live.register(server.http);
  let vite: ViteDevServer | undefined;
  try {
    const address = await server.http.listen({ host: settings.host, port: settings.port });
    const apiUrl = address.replace(/\/$/, '');
    live.watch();
    let clientUrl: string | undefined;
    if (options.client !== false) {
      const { createServer: createVite } = await import('vite');
      // vite.config.ts proxies the API (and the schema event stream) here.
      process.env.DEV_API_URL = apiUrl;
      vite = await createVite({
        configFile: join(ROOT, 'vite.config.ts'),
        root: join(ROOT, 'src/client'),
        logLevel: options.clientLogLevel,
        server: { host: settings.host, port: options.clientPort ?? Number(env.VITE_PORT ?? 5173) },
      });
      await vite.listen();
      clientUrl = (vite.resolvedUrls?.local[0] ?? `http://${settings.host}:${vite.config.server.port}/`).replace(/\/$/, '');
    }
    return {
      server, live, apiUrl, clientUrl,
      close: async () => {
        await live.close();
        await vite?.close();
        await server.close();
      },
    };
  } catch (error) {
    await live.close();
    await vite?.close();
    await server.close();
    throw error;
  }
}

async function main(): Promise<void> {
  const dev = await startDev();
  const { server } = dev;
  const base = dev.clientUrl ?? dev.apiUrl;
  console.log(`\nChidao survey platform: development mode (schemas/ watched, client hot-reloaded)`);
  console.log(`  database:      ${describeDatabaseUrl(server.app.settings.databaseUrl)}`);
  console.log(`  back office:   ${base}${server.app.settings.adminEntrance}`);
  console.log(`  member centre: ${base}/user`);
  console.log(`  SMS:           ${describeSmsDriver(server.app.settings.sms)}`);
  console.log(`  API server:    ${dev.apiUrl} (schema events at ${LIVE_SCHEMAS_PATH})`);
  if (server.adminLogin) console.log(`  admin login:   ${server.adminLogin.username} / ${server.adminLogin.password}`);
  else if (server.adminLoginUnusable) console.log(`  admin login:   none: ${server.adminLoginUnusable}`);
  const members = await noMembersNote(server.app);
  if (members) console.log(`  members:       ${members}`);
  const stop = async () => {
    await dev.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error instanceof SchemaError || error instanceof DestructiveMigrationError ? `\nCannot start: ${error.message}` : error);
    process.exit(1);
  });
}
