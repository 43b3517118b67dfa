import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemaError } from '../schema/normalise.js';
import { createServer, type Server } from './boot.js';
import { describeDatabaseUrl, NativeModuleError } from './db/connection.js';
import { DatabaseInUseError } from './db/sqlite-file-lock.js';
import { DestructiveMigrationError } from './db/migrate.js';
import { PresetFileError } from './services/survey/presets.js';
import { unindexedNote } from './resources/order-index.js';
import { settingsFromEnv } from './settings.js';
import { noMembersNote } from './demo-data.js';
import { describeSmsDriver } from './sms/sms-driver.js';

/**
 * The server process: `npm start` runs it from the bundle `npm run build` wrote (dist/server/main.js,
 * through scripts/start.js), `npm run dev` from the sources. It never builds anything: the client is
 * served from dist/client when there is one (the API answers without it).
 */

/** Two levels up from src/server/main.ts, and from dist/server/main.js alike. */
const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** How long a stop waits for the requests in flight before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How often a stop closes the connections that finished their last answer meanwhile. */
const IDLE_SWEEP_MS = 50;

/**
 * On SIGTERM or SIGINT: stop accepting, let the requests in flight finish (at most SHUTDOWN_GRACE_MS),
 * close the timers and the database, exit 0. A second signal meanwhile (Ctrl-C sends SIGINT to `npm` and
 * to the server alike, and npm forwards its own) changes nothing; the grace period still bounds the stop.
 */
function stopOnSignals(server: Server): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping (finishing the requests in flight)…`);
    setTimeout(() => {
      console.error(`Stopped after ${SHUTDOWN_GRACE_MS / 1000} s with requests still in flight.`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    // Closing drops the keep-alive connections idle at that moment; one busy then becomes idle once its
    // answer is sent, and would hold the stop until its keep-alive timeout (72 s) without this.
    setInterval(() => server.http.server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    server.close().then(
      () => {
        console.log('Stopped.');
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The banner's lines of the accounts' logins: only one that works is printed as a login. */
function loginLines(server: Server, adminPasswordGiven: boolean): string[] {
  const lines: string[] = [];
  const { adminLogin, adminLoginUnusable } = server;
  if (adminLogin) {
    const note = adminLogin.generated ? ' (generated now and shown only once: write it down)' : ' (from ADMIN_PASSWORD)';
    lines.push(`  admin login:  ${adminLogin.username} / ${adminLogin.password}${note}`);
  } else if (adminLoginUnusable) {
    const given = adminPasswordGiven ? ', so ADMIN_PASSWORD was not applied' : '';
    lines.push(`  admin login:  none: ${adminLoginUnusable}${given}; log in as another administrator`);
  } else {
    lines.push('  admin login:  admin / the password shown on first start (set ADMIN_PASSWORD to reset it)');
  }
  return lines;
}

/** `npm start -- --verbose`, or VERBOSE=true where the command line is fixed (a systemd unit): every note in full. */
function verboseStart(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.includes('--verbose') || env.VERBOSE === 'true';
}

/**
 * What the start did to the database, and which list shapes no index reads in order. A first start creates
 * every table and some twenty-odd tables have such shapes: listed one a line they pushed the banner and the
 * login off the screen, so by default the tables created and the index notes are one line each, and the
 * changes an upgrade makes to existing tables (a column, an index) stay one a line, since an operator checks them.
 */
function startNotes(server: Server, verbose: boolean): string[] {
  const lines: string[] = [];
  const created = server.migration.changes.filter((change) => change.startsWith('created table '));
  for (const change of server.migration.changes) {
    if (verbose || !change.startsWith('created table ')) lines.push(`migrate: ${change}`);
  }
  if (!verbose && created.length > 0) {
    const names = created.map((change) => change.slice('created table '.length));
    lines.push(`migrate: created ${names.length === 1 ? '1 table' : `${names.length} tables`}${names.length <= 3 ? `: ${names.join(', ')}` : ''}`);
  }
  // Not an error: which list requests are read without an index giving their order, one line per table.
  const notes = [...server.app.resources.values()].map((definition) => unindexedNote(definition)).filter((note) => note !== undefined);
  if (verbose) lines.push(...notes);
  else if (notes.length > 0) {
    lines.push(`list indexes: ${notes.length === 1 ? '1 table has' : `${notes.length} tables have`} filter × order shapes no index reads in order (a note, not an error; \`npm start -- --verbose\` or VERBOSE=true lists them)`);
  }
  return lines;
}

async function main(): Promise<void> {
  const settings = settingsFromEnv(process.env, projectRoot);
  const server = await createServer(settings, { clientDir: join(projectRoot, 'dist/client'), logger: process.env.LOG_REQUESTS === 'true' });
  const verbose = verboseStart(process.argv, process.env);
  for (const line of startNotes(server, verbose)) console.log(line);
  const members = await noMembersNote(server.app);
  const address = await server.http.listen({ host: settings.host, port: settings.port }).catch((error: unknown) => {
    // The database holds a password made up by this start (the port was taken, say): no later start shows it.
    if (server.adminLogin?.generated) for (const line of loginLines(server, Boolean(settings.adminPassword))) console.log(line);
    throw error;
  });
  const url = address.replace(/\/$/, '');
  console.log(`\nChidao survey platform is running`);
  console.log(`  database:     ${describeDatabaseUrl(settings.databaseUrl)}`);
  console.log(`  back office:  ${url}${server.app.settings.adminEntrance}`);
  console.log(`  member centre: ${url}/user`);
  if (members) console.log(`  members:      ${members}`);
  console.log(`  SMS:          ${describeSmsDriver(settings.sms)}`);
  for (const line of loginLines(server, Boolean(settings.adminPassword))) console.log(line);
  stopOnSignals(server);
}

main().catch((error: unknown) => {
  if (error instanceof SchemaError || error instanceof DestructiveMigrationError || error instanceof NativeModuleError || error instanceof DatabaseInUseError || error instanceof PresetFileError) {
    console.error(`\nCannot start: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
