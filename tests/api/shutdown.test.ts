import { createServer as createNetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../support/server-process.js';
import { ADMIN_PASSWORD, createTestDatabase, DATABASES } from '../support/test-server.js';

/**
 * Stopping the server: a deploy or a restart sends SIGTERM (or Ctrl-C SIGINT) to the built server while
 * people are using it. The server stops accepting, answers every request it already took, closes the
 * database and exits 0, leaving the port free. The server runs as `npm start` runs it: the bundle
 * (tests/support/build-server.ts) on plain node, in a process of its own.
 *
 * @module-tag full (the built server in processes of its own): `npm test` runs it, `npm run test:quick` leaves it out.
 */

interface Running extends ServerProcess {
  url: string;
  port: number;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startBundle(databaseUrl: string): Promise<Running> {
  const running = spawnServer(databaseUrl);
  cleanups.push(running.stop);
  const url = await running.listening;
  return { ...running, url, port: Number(new URL(url).port) };
}

/** Whether a new listener can take `port` on 127.0.0.1. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const received = (running: Running) => running.stdout.filter((line) => line.includes('"incoming request"')).length;

describe.each(DATABASES)('stopping the built server on %s', (kind) => {
  it('answers every request in flight when SIGTERM comes mid-burst, then exits 0 and frees the port', async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(database.drop);
    const running = await startBundle(database.url);
    const entrance = '/chidaoadminstator.php';
    const login = (await (
      await fetch(`${running.url}${entrance}/Index/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', server: 'true' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      })
    ).json()) as { data: { userInfo: { token: string } } };
    const headers = { batoken: login.data.userInfo.token, server: 'true' };

    // Lists of the rule tree (some hundred rows each) and the site index, all at once.
    const BURST = 40;
    const before = received(running);
    let answered = 0;
    const burst = Array.from({ length: BURST }, (_, index) =>
      fetch(index % 4 === 0 ? `${running.url}/api/index/index` : `${running.url}${entrance}/auth.Rule/index?limit=999`, { headers }).then(async (response) => {
        const body = (await response.json()) as { code: number };
        answered += 1;
        return { status: response.status, code: body.code };
      }),
    );
    // SIGTERM once the server has taken every request of the burst and before it has answered them all.
    await expect.poll(() => received(running) - before, { interval: 2, timeout: 10_000 }).toBe(BURST);
    const answeredAtSignal = answered;
    running.child.kill('SIGTERM');
    // A second signal while stopping (Ctrl-C reaches npm and the server, and npm forwards its own) changes nothing.
    setTimeout(() => running.child.kill('SIGINT'), 5);

    const outcomes = await Promise.all(burst);
    expect(answeredAtSignal).toBeLessThan(BURST);
    expect(outcomes.filter((outcome) => outcome.status !== 200 || outcome.code !== 1)).toEqual([]);
    const exit = await running.exited;
    expect({ ...exit, stderr: running.stderr.filter(Boolean) }).toEqual({ code: 0, signal: null, stderr: [] });
    expect(running.stderr.filter((line) => line.trim().startsWith('at '))).toEqual([]);
    expect(await portIsFree(running.port)).toBe(true);
    // Nothing new is taken once stopping began: the port refused connections from then on.
    await expect(fetch(`${running.url}/api/index/index`)).rejects.toThrow();
  });
});

/**
 * One SQLite file is served by one server process (background jobs and throttles live in the process,
 * and two processes writing one file answer each other "database is locked"): a second process on the
 * same file is refused at start with one line, and the lock ends with its process, however it ends.
 */
describe('one server process per SQLite file', () => {
  it('refuses a second process on the file with one line naming the file, the holder and PostgreSQL', async () => {
    const database = await createTestDatabase('sqlite');
    cleanups.push(database.drop);
    const first = await startBundle(database.url);
    const refused = await startBundle(database.url).then(
      () => undefined,
      (error: Error) => error.message,
    );
    const file = database.url.slice('sqlite:'.length);
    expect(refused).toContain(`Cannot start: the SQLite database ${file} is already served by another server process (pid ${first.child.pid})`);
    expect(refused).toContain('use PostgreSQL');
    expect(refused).not.toMatch(/^\s+at /m);
    // The first one serves on, undisturbed.
    expect((await fetch(`${first.url}/api/index/index`)).status).toBe(200);
  });

  it('is free again once the process holding it is killed (-9) or stops, without a stale lock', async () => {
    const database = await createTestDatabase('sqlite');
    cleanups.push(database.drop);
    const killed = await startBundle(database.url);
    killed.child.kill('SIGKILL');
    await killed.exited;
    const next = await startBundle(database.url);
    expect((await fetch(`${next.url}/api/index/index`)).status).toBe(200);
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
    const after = await startBundle(database.url);
    expect((await fetch(`${after.url}/api/index/index`)).status).toBe(200);
  });
});
