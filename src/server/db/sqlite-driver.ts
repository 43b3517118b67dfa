import type Database from 'better-sqlite3';
import { BoundedMap } from '../bounded-map.js';
import {
  CompiledQuery,
  DefaultConnectionProvider,
  DefaultQueryExecutor,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DialectAdapter,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * Kysely on one better-sqlite3 handle. SQLite has one connection, shared in turn:
 *   - a query waits for it at most `waitMs`, then fails with DatabaseBusyError, so a transaction that
 *     never ends cannot stall every later request of the server (Kysely's own driver waits forever);
 *   - a query that finds the connection idle runs at once, without Kysely's acquire/release round of
 *     promises: the statements are synchronous anyway, and the round cost half as much as the indexed
 *     read of a list page (11 µs against 21 µs);
 *   - each SQL text is prepared once (Kysely's driver prepares at every query).
 */

/** The one SQLite connection stayed taken for longer than the wait bound. */
export class DatabaseBusyError extends Error {
  constructor(waitMs: number) {
    super(`database: the SQLite connection stayed busy for ${waitMs} ms (a transaction that does not end, or a query on the main handle inside one)`);
    this.name = 'DatabaseBusyError';
  }
}

/** One holder at a time; the others wait in order, each for at most `waitMs`. */
class ConnectionGate {
  private taken = false;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly waitMs: number) {}

  /** Nobody holds the connection and nobody waits for it. */
  get idle(): boolean {
    return !this.taken;
  }

  enter(): Promise<void> {
    if (!this.taken) {
      this.taken = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(admit), 1);
        reject(new DatabaseBusyError(this.waitMs));
      }, this.waitMs);
      this.queue.push(admit);
    });
  }

  /** Hands the connection to the next in line, or frees it. */
  leave(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.taken = false;
  }
}

/**
 * How many prepared statements a process keeps, by SQL text, the ones used longest ago forgotten first.
 * The app runs a few hundred kinds, but a list filtered by an id list has a text per length of the list:
 * the bound keeps their native memory (a few to tens of kilobytes each) to a few megabytes.
 */
const CACHED_STATEMENTS = 500;

/** The connection: statements prepared once, run synchronously. */
class SqliteConnection implements DatabaseConnection {
  private readonly statements = new BoundedMap<string, Database.Statement>(CACHED_STATEMENTS);
  /** Statements that may write, run on this connection so far (counted before they run, failed ones too). */
  private writes = 0;
  private dataVersion: Database.Statement | undefined;

  constructor(readonly sqlite: Database.Database) {}

  /**
   * A mark of everything committed to the database file as this connection sees it: it differs from an
   * earlier mark once this connection ran a statement that may write (its own changes do not move
   * `data_version`) or another connection, in this process or another, committed since.
   */
  changeMark(): string {
    this.dataVersion ??= this.sqlite.prepare('PRAGMA data_version').pluck();
    return `${this.writes}:${String(this.dataVersion.get())}`;
  }

  /** Statements follow schema changes by themselves (SQLite prepares them again). */
  private prepare(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.sqlite.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  run<R>({ sql, parameters }: CompiledQuery): QueryResult<R> {
    const statement = this.prepare(sql);
    if (!statement.readonly) this.writes += 1;
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.run<R>(compiled);
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.prepare(compiled.sql);
    if (!statement.readonly) this.writes += 1;
    for (const row of statement.iterate(compiled.parameters)) yield { rows: [row as R] };
  }
}

/** The one connection behind the gate: Kysely acquires it for transactions and for queries that must wait. */
class GatedDriver implements Driver {
  readonly gate: ConnectionGate;

  constructor(
    readonly connection: SqliteConnection,
    waitMs: number,
  ) {
    this.gate = new ConnectionGate(waitMs);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.gate.enter();
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    this.gate.leave();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.connection.sqlite.close();
  }
}

/**
 * Kysely's executor, except that a query finding the connection idle runs at once. Transactions and
 * anything else that holds the connection go through the gate as before (their executors are Kysely's
 * own), and while one holds it a query on the main handle waits its turn.
 */
class ImmediateExecutor extends DefaultQueryExecutor {
  constructor(
    compiler: QueryCompiler,
    adapter: DialectAdapter,
    private readonly driver: GatedDriver,
  ) {
    super(compiler, adapter, new DefaultConnectionProvider(driver));
  }

  override executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.driver.gate.idle) return super.executeQuery(compiled);
    try {
      return Promise.resolve(this.driver.connection.run<R>(compiled));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** The change mark of each SQLite Kysely instance's connection (`SqliteConnection.changeMark`). */
const changeMarks = new WeakMap<object, () => string>();

/**
 * For a Kysely instance made by `sqliteKysely` (not a transaction's, not PostgreSQL's): a function whose
 * answer stays the same exactly while nothing was written to the database, by this process or another.
 * What was read under one answer may be used again while the answer is the same.
 */
export function databaseChangeMark(db: object): (() => string) | undefined {
  return changeMarks.get(db);
}

/** A Kysely instance on `sqlite` whose queries wait at most `waitMs` for the connection. */
export function sqliteKysely<Tables>(sqlite: Database.Database, waitMs: number): Kysely<Tables> {
  const driver = new GatedDriver(new SqliteConnection(sqlite), waitMs);
  const dialect: Dialect = {
    createDriver: () => driver,
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
  const executor = new ImmediateExecutor(dialect.createQueryCompiler(), dialect.createAdapter(), driver);
  const db = new Kysely<Tables>({ config: { dialect }, dialect, driver, executor });
  const connection = driver.connection;
  changeMarks.set(db, () => connection.changeMark());
  return db;
}
