import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseRelay } from '../support/database-relay.js';
import { createTestDatabase, DATABASES, POSTGRES_ADMIN_URL, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The probes of a load balancer: `/health/live` answers while the process does, `/health/ready` only
 * while the database answers, is at the schemas' version and the schemas are loaded; neither is
 * throttled, blocked by the IP blacklist, or written to the admin or the request log.
 */

interface Readiness {
  status: string;
  reason?: string;
  checks: Record<string, { status: string; reason?: string; behind?: string[]; resources?: number }>;
}

async function ready(server: TestServer): Promise<{ status: number; body: Readiness; ms: number }> {
  const started = Date.now();
  const response = await server.raw('/health/ready');
  return { status: response.status, body: (await response.json()) as Readiness, ms: Date.now() - started };
}

/** Ask `/health/ready` until it answers `status`; the answer, and how long it took to come. */
async function readyBecomes(server: TestServer, status: number, withinMs: number): Promise<{ body: Readiness; afterMs: number; probeMs: number }> {
  const started = Date.now();
  for (;;) {
    const answer = await ready(server);
    if (answer.status === status) return { body: answer.body, afterMs: Date.now() - started, probeMs: answer.ms };
    if (Date.now() - started > withinMs) throw new Error(`/health/ready still ${answer.status} after ${withinMs} ms: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(DATABASES)('health probes on %s', (kind) => {
  let server: TestServer;
  const requestLog: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { API_GET_RATE_LIMIT: '2' }, requestLog: { write: (line) => void requestLog.push(line) } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers live and ready with the checks it made', async () => {
    const live = await server.raw('/health/live');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect(live.headers.get('cache-control')).toBe('no-store');

    const { status, body } = await ready(server);
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.checks.database.status).toBe('ok');
    expect(body.checks.migrations.status).toBe('ok');
    expect(body.checks.schemas).toMatchObject({ status: 'ok' });
    expect(body.checks.schemas.resources).toBeGreaterThan(20);
  });

  it('is not throttled, not blocked by the IP blacklist, and leaves no admin log or request log line', async () => {
    const logged = async () => Number((await server.server.app.db.selectFrom('admin_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const logRows = await logged();
    requestLog.length = 0;
    for (let round = 0; round < 5; round += 1) {
      expect((await server.raw('/health/ready')).status).toBe(200);
      const live = await server.raw('/health/live');
      expect(live.status).toBe(200);
      expect(live.headers.get('x-rate-limit-limit')).toBeNull();
    }
    // The API's GET throttle (2 a minute here) does refuse the API meanwhile.
    const throttled = await Promise.all([1, 2, 3].map(() => server.api('index/index')));
    expect(throttled.some((answer) => answer.headers.get('retry-after') !== null)).toBe(true);

    await server.server.app.db.updateTable('config').set({ value: '127.0.0.1\n::1\n::ffff:127.0.0.1' }).where('name', '=', 'no_access_ip').execute();
    try {
      expect((await server.api('user/checkIn', { body: {} })).status).toBe(403);
      expect((await server.raw('/health/ready')).status).toBe(200);
      expect((await server.raw('/health/live')).status).toBe(200);
    } finally {
      await server.server.app.db.updateTable('config').set({ value: '' }).where('name', '=', 'no_access_ip').execute();
    }
    expect(await logged()).toBe(logRows);
    expect(requestLog.filter((line) => line.includes('/health/'))).toEqual([]);
    expect(requestLog.some((line) => line.includes('/api/index/index'))).toBe(true);
  });

  it('answers 503 naming the table while a table is behind the schemas, 200 once it is in line again', async () => {
    const db = server.server.app.db;
    const stored = await db.selectFrom('schema_state').select('definition').where('table_name', '=', 'payout').executeTakeFirstOrThrow();
    const shape = JSON.parse(stored.definition) as { columns: Record<string, unknown> };
    delete shape.columns.reason;
    await db.updateTable('schema_state').set({ definition: JSON.stringify(shape) }).where('table_name', '=', 'payout').execute();
    try {
      const { status, body } = await ready(server);
      expect(status).toBe(503);
      expect(body.status).toBe('unavailable');
      expect(body.checks.migrations).toMatchObject({ status: 'failed', behind: ['payout'] });
      expect(body.reason).toContain('payout');
      expect(body.checks.database.status).toBe('ok');
    } finally {
      await db.updateTable('schema_state').set({ definition: stored.definition }).where('table_name', '=', 'payout').execute();
    }
    expect((await ready(server)).status).toBe(200);
  });
});

describe('readiness while PostgreSQL goes away and comes back', { tags: 'full' }, () => {
  const target = new URL(POSTGRES_ADMIN_URL);
  const relay = new DatabaseRelay({ host: target.hostname, port: Number(target.port || 5432) });
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let server: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await relay.open();
    const url = new URL(database.url);
    url.host = `127.0.0.1:${relay.port}`;
    server = await startTestServer('postgres', { databaseUrl: url.toString() });
  });

  afterAll(async () => {
    await relay.restore();
    await server?.close();
    await relay.cut();
    await database?.drop();
  });

  it('turns 503 within seconds when the database is unreachable or hangs, and 200 again when it is back, on the same server', async () => {
    expect((await ready(server)).status).toBe(200);

    await relay.cut();
    const down = await readyBecomes(server, 503, 5_000);
    expect(down.body.checks.database.status).toBe('failed');
    expect(down.body.reason).toMatch(/^database: /);
    expect(down.body.checks.migrations.status).toBe('failed');
    expect((await server.raw('/health/live')).status).toBe(200);

    await relay.restore();
    const back = await readyBecomes(server, 200, 15_000);
    expect(back.body.checks.database.status).toBe('ok');

    // A database that accepts connections and never answers: the probe reports it, it does not wait for it.
    await relay.hang();
    await readyBecomes(server, 503, 8_000);
    const hung = await ready(server);
    expect(hung.status).toBe(503);
    expect(hung.ms).toBeLessThan(4_000);
    expect(hung.body.reason).toContain('longer than');

    await relay.restore();
    await readyBecomes(server, 200, 15_000);
  });
});
