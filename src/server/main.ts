import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemaError } from '../schema/normalise.js';
import { createServer } from './boot.js';
import { describeDatabaseUrl } from './db/connection.js';
import { DestructiveMigrationError } from './db/migrate.js';
import { settingsFromEnv } from './settings.js';
import { describeSmsDriver } from './sms/sms-driver.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * What the client build is made of: its sources and the message files. Not `schemas/`: the screens are
 * drawn from the definitions the server sends at run time, so a new schema needs only a restart.
 */
const CLIENT_SOURCES = ['src/client', 'src/schema', 'src/contract', 'locales', 'vite.config.ts', 'package-lock.json'];

/** The newest modification time among the files below `path`. */
function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path, { withFileTypes: true }).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry.name))), stat.mtimeMs);
}

/** Build the client when there is no build, or when a source (a new schema, say) changed since the last one. */
async function ensureClientBuild(clientDir: string): Promise<void> {
  const built = join(clientDir, 'index.html');
  if (existsSync(built)) {
    const sourcesChanged = CLIENT_SOURCES.map((path) => join(projectRoot, path)).filter(existsSync).some((path) => newestChange(path) > statSync(built).mtimeMs);
    if (!sourcesChanged) return;
    console.log('The client sources changed since the last build: building it again (vite build)…');
  } else {
    console.log('No client build found: building it once (vite build)…');
  }
  const { build } = await import('vite');
  await build({ configFile: join(projectRoot, 'vite.config.ts'), root: join(projectRoot, 'src/client'), logLevel: 'warn' });
}

async function main(): Promise<void> {
  const settings = settingsFromEnv(process.env, projectRoot);
  const clientDir = join(projectRoot, 'dist/client');
  await ensureClientBuild(clientDir);
  const server = await createServer(settings, { clientDir, logger: process.env.LOG_REQUESTS === 'true' });
  for (const change of server.migration.changes) console.log(`migrate: ${change}`);
  const address = await server.http.listen({ host: settings.host, port: settings.port });
  const url = address.replace(/\/$/, '');
  console.log(`\nChidao survey platform is running`);
  console.log(`  database:     ${describeDatabaseUrl(settings.databaseUrl)}`);
  console.log(`  back office:  ${url}${server.app.settings.adminEntrance}`);
  console.log(`  member centre: ${url}/user`);
  console.log(`  SMS:          ${describeSmsDriver(settings.sms)}`);
  if (server.adminLogin) {
    const note = server.adminLogin.generated ? ' (generated now and shown only once: write it down)' : ' (from ADMIN_PASSWORD)';
    console.log(`  admin login:  ${server.adminLogin.username} / ${server.adminLogin.password}${note}`);
  } else {
    console.log('  admin login:  admin / the password shown on first start (set ADMIN_PASSWORD to reset it)');
  }
  if (server.memberLogin) console.log(`  member login: ${server.memberLogin.username} / ${server.memberLogin.password}`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof SchemaError || error instanceof DestructiveMigrationError) {
    console.error(`\nCannot start: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
