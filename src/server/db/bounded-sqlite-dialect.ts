import { SqliteDialect, type DatabaseConnection, type Driver, type QueryCompiler, type SqliteDialectConfig, type TransactionSettings } from 'kysely';

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

/** Kysely's SQLite driver behind a gate: it never waits for its own lock, since only one holder gets past the gate. */
class BoundedWaitDriver implements Driver {
  private readonly gate: ConnectionGate;

  constructor(
    private readonly inner: Driver,
    waitMs: number,
  ) {
    this.gate = new ConnectionGate(waitMs);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.gate.enter();
    try {
      return await this.inner.acquireConnection();
    } catch (error) {
      this.gate.leave();
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.releaseConnection(connection);
    } finally {
      this.gate.leave();
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.(connection, name, compileQuery);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.(connection, name, compileQuery);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.(connection, name, compileQuery);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * SQLite has one connection, shared in turn. Kysely's dialect lets a query wait for it forever, so a
 * transaction that never ends stalls every later request of the server; here a query waits at most
 * `waitMs`, then fails with DatabaseBusyError (the request gets an error, the server keeps serving).
 */
export class BoundedSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly waitMs: number,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new BoundedWaitDriver(super.createDriver(), this.waitMs);
  }
}
