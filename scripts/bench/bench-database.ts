import { join } from 'node:path';
import pg from 'pg';

/** The database a benchmark runs on: `BENCH_DATABASE` (sqlite | postgres), PostgreSQL at `BENCH_POSTGRES_URL`. */
export const BENCH_DIALECT = process.env.BENCH_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh database for one benchmark run: a SQLite file in `dir`, or a PostgreSQL database named
 * `<prefix>_<pid>` (a fixed identifier, never user input), dropped by `drop`.
 */
export async function benchDatabase(dir: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (BENCH_DIALECT === 'sqlite') return { url: `sqlite:${join(dir, 'app.db')}`, drop: async () => {} };
  const name = `${prefix}_${process.pid}`;
  await maintenanceStatement(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => maintenanceStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** One statement on PostgreSQL's maintenance database (`BENCH_POSTGRES_URL`): creating and dropping the runs' databases. */
export async function maintenanceStatement(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
