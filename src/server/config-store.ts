import type { Db } from './db/connection.js';

/** What every view of one store shares: the rows last read and when. */
interface ConfigCache {
  rows?: Map<string, string>;
  loadedAt: number;
}

/**
 * Site configuration rows (`config` table), read through a short-lived cache: several processes may
 * share one database, so nothing here may stay stale for long.
 */
export class ConfigStore {
  constructor(
    private readonly db: Db,
    private readonly ttlMs = 5_000,
    private readonly cache: ConfigCache = { loadedAt: 0 },
    /** false for a view inside a transaction: what it reads may still be rolled back */
    private readonly fillsCache = true,
  ) {}

  /**
   * The same store reading through `db`, typically a transaction: on SQLite the only connection
   * belongs to an open transaction, and a read on the main handle would wait for it forever. It uses
   * the shared cache while fresh but never fills it.
   */
  through(db: Db): ConfigStore {
    return new ConfigStore(db, this.ttlMs, this.cache, false);
  }

  private async load(): Promise<Map<string, string>> {
    if (this.cache.rows && Date.now() - this.cache.loadedAt < this.ttlMs) return this.cache.rows;
    const rows = await this.db.selectFrom('config').select(['name', 'value']).execute();
    const loaded = new Map(rows.map((row) => [row.name, row.value ?? '']));
    if (this.fillsCache) {
      this.cache.rows = loaded;
      this.cache.loadedAt = Date.now();
    }
    return loaded;
  }

  invalidate(): void {
    this.cache.rows = undefined;
  }

  async get(name: string, fallback = ''): Promise<string> {
    return (await this.load()).get(name) ?? fallback;
  }

  async flag(name: string, fallback: boolean): Promise<boolean> {
    const value = (await this.load()).get(name);
    if (value === undefined || value === '') return fallback;
    return value === '1' || value === 'true';
  }

  /** The site's time zone (config `time_zone`): dates in searches, lists and upload folders. */
  async timeZone(): Promise<string> {
    return (await this.get('time_zone')) || 'Asia/Shanghai';
  }

  async set(name: string, value: string): Promise<void> {
    await this.db.updateTable('config').set({ value }).where('name', '=', name).execute();
    this.invalidate();
  }
}
