import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../support/server-process.js';
import { createTestDatabase, DATABASES } from '../support/test-server.js';

/**
 * What an operator reads on starting the server (`npm start`, here its bundle in a process of its own): a
 * few lines, then what runs where and the login. A first start creates every table and the schemas leave
 * twenty-odd tables with list shapes no index reads in order; each is one summary line, and the full notes
 * are one flag away (`--verbose`, or VERBOSE=true for a unit whose command line is fixed).
 *
 * @module-tag full (the built server in processes of its own): `npm test` runs it, `npm run test:quick` leaves it out.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The lines printed before the banner "Chidao survey platform is running", blank ones left out. */
function beforeBanner(server: ServerProcess): string[] {
  const banner = server.stdout.findIndex((line) => line.includes('Chidao survey platform is running'));
  expect(banner).toBeGreaterThan(-1);
  return server.stdout.slice(0, banner).filter((line) => line.trim() !== '');
}

async function started(url: string, env: Record<string, string | undefined> = {}, args: string[] = []): Promise<ServerProcess> {
  const server = spawnServer(url, { LOG_REQUESTS: 'false', ADMIN_PASSWORD: undefined, ...env }, args);
  cleanups.push(server.stop);
  await server.listening;
  // The admin login is the banner's last line, printed just after the addresses `listening` waits for.
  await expect.poll(() => server.stdout.some((line) => line.includes('admin login:')), { interval: 10, timeout: 30_000 }).toBe(true);
  return server;
}

describe.each(DATABASES)('the start-up output on %s', (kind) => {
  it('a first start prints two summary lines, then the banner with the login; --verbose and VERBOSE=true list every note', { timeout: 180_000 }, async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(database.drop);

    const first = await started(database.url);
    const notes = beforeBanner(first);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^migrate: created \d{2} tables$/);
    expect(notes[1]).toMatch(/^list indexes: \d+ tables have filter × order shapes no index reads in order \(a note, not an error; `npm start -- --verbose` or VERBOSE=true lists them\)$/);
    const tables = Number(/(\d+) tables have/.exec(notes[1])![1]);
    // The banner follows at once and holds the login: the whole start fits on a screen.
    expect(first.stdout.length).toBeLessThan(15);
    expect(first.stdout.some((line) => /admin login:\s+admin \/ \S+ \(generated now/.test(line))).toBe(true);
    await first.stop();

    // Nothing to create any more; the notes are the same ones, in full on asking, one line per table.
    for (const [env, args] of [[{ VERBOSE: 'true' }, []], [{}, ['--verbose']]] as const) {
      const verbose = await started(database.url, env, [...args]);
      const lines = beforeBanner(verbose);
      expect(lines.filter((line) => line.startsWith('migrate: '))).toEqual([]);
      const full = lines.filter((line) => line.startsWith('list '));
      expect(full).toHaveLength(tables);
      expect(full).toContainEqual(expect.stringMatching(/^list user: no index reads these filters in these orders/));
      await verbose.stop();
    }

    // A plain later start: the summary only.
    const later = await started(database.url);
    expect(beforeBanner(later)).toEqual([notes[1]]);
  });
});
