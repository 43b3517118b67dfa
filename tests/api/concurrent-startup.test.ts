import { describe, expect, it } from 'vitest';
import { createServer, type Server } from '../../src/server/boot.js';
import { settingsFromEnv } from '../../src/server/settings.js';
import { createTestDatabase, PROJECT_ROOT } from '../support/test-server.js';
import { dynamicDb } from '../../src/server/db/connection.js';

/**
 * Several server processes starting at once on one empty PostgreSQL database: each has its
 * own pool, as separate processes do, so their migrations and menu syncs race exactly as theirs would.
 * All must start, and no menu rule may be made twice.
 *
 * @module-tag full (PostgreSQL by name, ten rounds of three servers): `npm test` runs it, `npm run test:quick` leaves it out.
 */

const ROUNDS = 10;
const SERVERS = 3;

describe('concurrent start-up on postgres', () => {
  it(`${SERVERS} servers starting together on a fresh database, ${ROUNDS} times: all start, every rule once`, { timeout: 300_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const database = await createTestDatabase('postgres');
      const servers: Server[] = [];
      try {
        const settings = settingsFromEnv({ ADMIN_PASSWORD: 'Admin_pass1', DATABASE_URL: database.url, CONFIG_CACHE_MS: '0' }, PROJECT_ROOT);
        const started = await Promise.allSettled(Array.from({ length: SERVERS }, () => createServer(settings)));
        for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
        expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started')), `round ${round}`).toEqual(Array(SERVERS).fill('started'));
        const db = dynamicDb(servers[0].app.db);
        for (const table of ['admin_rule', 'user_rule']) {
          const rows = (await db.selectFrom(table).select('name').execute()) as { name: string }[];
          const names = rows.map((row) => row.name);
          expect(names.length, `${table}, round ${round}`).toBe(new Set(names).size);
          expect(names).toContain(table === 'admin_rule' ? 'survey/survey' : 'account/overview');
        }
        const admins = (await db.selectFrom('admin').select('username').execute()) as { username: string }[];
        expect(admins.map((row) => row.username)).toEqual(['admin']);
      } finally {
        await Promise.all(servers.map((server) => server.close()));
        await database.drop();
      }
    }
  });
});
