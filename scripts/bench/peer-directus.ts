/**
 * `npm run bench:api -- --peer directus`: Directus, a peer product, on its own copy of the bench rows, asked
 * the same requests as ours (scripts/bench/api.ts), so that "ahead of Directus" stays a measured claim.
 *
 * Needs npm's registry and nothing else from the internet. Everything goes in a scratch folder kept for the
 * next run (BENCH_PEER_DIR, default ${XDG_CACHE_HOME:-$HOME/.cache}/chidao-bench), outside the clone:
 *   1. Node 22 (Directus needs Node 22 or later): `npm pack node-linux-<arch>@22`, unpacked once;
 *   2. Directus (DIRECTUS_VERSION) installed there with `npm install`, its native modules built for that
 *      Node (`installDirectus`); the project's own dependencies are untouched;
 *   3. per run: its database (on PostgreSQL a database of its own; on SQLite a file, through `sqlite3`),
 *      filled with the same rows and the bare server's hand-written indexes, then `directus bootstrap`
 *      (its system tables and an admin with a static token) and `directus start`, in a child process whose
 *      CPU time is read as our server's is.
 * The requests are the admin's (`/items/bench_member` with the static token: Directus checks the token and
 * the admin's policy on every request, as ours checks the token and the rights), same rows and totals.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BenchRequest, Target } from './api.js';
import { cpuMicrosOf } from './process-cpu.js';

/** 12.4.1 needs @directus/app 18.0.1, which the registry this was written against did not hold; 12.4.0 installs. */
const DIRECTUS_VERSION = process.env.BENCH_DIRECTUS_VERSION ?? '12.4.0';
const NODE_LINE = '22';
const TOKEN = 'bench-directus-static-token-0123456789';

export interface Peer {
  target: Target;
  stop(): Promise<void>;
}

interface PeerSetup {
  dialect: 'sqlite' | 'postgres';
  rows: number;
  /** the run's scratch directory (removed after it) */
  dir: string;
  /** PostgreSQL: an empty database of the peer's own */
  postgresUrl?: string;
  /** writes the bench rows and the bare server's indexes into a database (a URL or a SQLite file) */
  fill(target: string): Promise<void>;
}

function log(text: string): void {
  console.log(`# peer: ${text}`);
}

function scratchDir(): string {
  const dir = process.env.BENCH_PEER_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'chidao-bench');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Node 22 from the npm registry, unpacked once into the scratch folder: its `bin` directory. */
function node22(dir: string): string {
  const platform = `linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
  const existing = readdirSync(dir).find((name) => name.startsWith(`node-v${NODE_LINE}.`) && name.endsWith(platform) && existsSync(join(dir, name, 'bin/node')));
  if (existing) return join(dir, existing, 'bin');
  log(`fetching node-${platform}@${NODE_LINE} with npm pack`);
  const tarball = execFileSync('npm', ['pack', '--silent', `node-${platform}@${NODE_LINE}`], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop() ?? '';
  const version = tarball.replace(`node-${platform}-`, '').replace(/\.tgz$/, '');
  const unpacking = mkdtempSync(join(dir, 'unpacking-'));
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', unpacking, '--strip-components=1']);
  rmSync(join(dir, tarball));
  const target = join(dir, `node-v${version}-${platform}`);
  rmSync(target, { recursive: true, force: true });
  renameSync(unpacking, target);
  return join(target, 'bin');
}

/** The native modules Directus needs built, and the file each build leaves: `isolated-vm` always, `sqlite3` for SQLite. */
const NATIVE = { 'isolated-vm': 'out/isolated_vm.node', sqlite3: 'build/Release/node_sqlite3.node' } as const;

/**
 * Directus installed in its own folder under the scratch folder (once per version), with the native modules
 * `dialect` needs built for Node 22: that folder. Installed with `--ignore-scripts`, then each native module
 * built by `npm rebuild` against the unpacked Node's headers (npm_config_nodedir; without it node-gyp takes the
 * machine's Node's and the module builds but does not load): their install scripts would otherwise fetch
 * prebuilt binaries from GitHub, outside npm's registry.
 */
function installDirectus(dir: string, nodeBin: string, dialect: 'sqlite' | 'postgres'): string {
  const home = join(dir, `directus-${DIRECTUS_VERSION}`);
  const env = { ...process.env, PATH: `${nodeBin}:${process.env.PATH ?? ''}`, npm_config_nodedir: dirname(nodeBin) };
  if (!existsSync(join(home, 'node_modules/directus/cli.js'))) {
    mkdirSync(home, { recursive: true });
    log(`installing directus@${DIRECTUS_VERSION} from the npm registry into ${home} (about 5 minutes)`);
    execFileSync('npm', ['init', '-y'], { cwd: home, stdio: 'ignore' });
    execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', `directus@${DIRECTUS_VERSION}`], { cwd: home, stdio: ['ignore', 'ignore', 'inherit'], env });
  }
  const needed = dialect === 'sqlite' ? (['isolated-vm', 'sqlite3'] as const) : (['isolated-vm'] as const);
  for (const name of needed) {
    if (existsSync(join(home, 'node_modules', name, NATIVE[name]))) continue;
    log(`building ${name} for Node 22 with node-gyp (isolated-vm: more than 20 minutes on two busy cores)`);
    execFileSync('npm', ['rebuild', name], { cwd: home, stdio: ['ignore', 'ignore', 'inherit'], env });
  }
  return home;
}

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address !== 'string' ? done(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPeer(name: string, setup: PeerSetup): Promise<Peer> {
  if (name !== 'directus') throw new Error(`--peer ${name}: the one peer is directus`);
  const dir = scratchDir();
  const nodeBin = node22(dir);
  const home = installDirectus(dir, nodeBin, setup.dialect);
  const database = setup.dialect === 'postgres' ? (setup.postgresUrl as string) : join(setup.dir, 'peer.db');
  await setup.fill(database);
  const port = await freePort();
  const env = {
    ...process.env,
    PATH: `${nodeBin}:${process.env.PATH ?? ''}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SECRET: 'bench-directus-secret',
    ...(setup.dialect === 'postgres' ? { DB_CLIENT: 'pg', DB_CONNECTION_STRING: database } : { DB_CLIENT: 'sqlite3', DB_FILENAME: database }),
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'Bench_pass1',
    ADMIN_TOKEN: TOKEN,
    LOG_LEVEL: 'warn',
    TELEMETRY: 'false',
    SERVE_APP: 'false',
    WEBSOCKETS_ENABLED: 'false',
    // As ours in the bench: nothing cached between requests, no rate limit reached.
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
  };
  const cli = join(home, 'node_modules/directus/cli.js');
  execFileSync(join(nodeBin, 'node'), [cli, 'bootstrap'], { cwd: home, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const child = spawn(join(nodeBin, 'node'), [cli, 'start'], { cwd: home, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`directus exited (${child.exitCode}) before answering`);
    const pong = await fetch(`${base}/server/ping`).then((answer) => answer.text(), () => '');
    if (pong === 'pong') break;
    if (Date.now() - started > 120_000) throw new Error('directus did not answer /server/ping within 2 minutes');
    await new Promise((done) => setTimeout(done, 500));
  }
  const version = execFileSync(join(nodeBin, 'node'), ['--version'], { encoding: 'utf8' }).trim();
  log(`directus ${DIRECTUS_VERSION} on Node ${version}, ${setup.dialect}, ${setup.rows} rows with the bare server's indexes, the admin's static token`);
  return {
    target: {
      name: 'directus',
      cpuMicros: () => cpuMicrosOf(child.pid),
      url: (request: BenchRequest) => `${base}/items/bench_member?${request.directus}`,
      headers: { authorization: `Bearer ${TOKEN}` },
      read(status, body) {
        const parsed = JSON.parse(body) as { data?: { id: number | string }[]; meta?: { filter_count?: number | string } };
        if (status !== 200 || !parsed.data) throw new Error(`directus: HTTP ${status} ${body.slice(0, 300)}`);
        return { ids: parsed.data.map((row) => Number(row.id)), total: Number(parsed.meta?.filter_count) };
      },
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
