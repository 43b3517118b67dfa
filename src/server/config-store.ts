import type { Db } from './db/connection.js';

/**
 * Site configuration rows (`config` table), read through a short-lived cache: several processes may
 * share one database, so nothing here may stay stale for long.
 */
export class ConfigStore {
  private cache: Map<string, string> | undefined;
  private loadedAt = 0;

  constructor(private readonly db: Db, private readonly ttlMs = 5_000) {}

  private async load(): Promise<Map<string, string>> {
    if (this.cache && Date.now() - this.loadedAt < this.ttlMs) return this.cache;
    const rows = (await this.db.selectFrom('config').select(['name', 'value']).execute()) as { name: string; value: string | null }[];
    this.cache = new Map(rows.map((row) => [row.name, row.value ?? '']));
    this.loadedAt = Date.now();
    return this.cache;
  }

  invalidate(): void {
    this.cache = undefined;
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
