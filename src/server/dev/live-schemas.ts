import { createHash } from 'node:crypto';
import { existsSync, watch, readdirSync, readFileSync, statSync, type FSWatcher } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { LANGUAGES } from '../../contract/headers.js';
import type { ResourceDefinition } from '../../schema/definition.js';
import { readSchemaFiles, type SchemaFile } from '../../schema/load-files.js';
import { SchemaError } from '../../schema/normalise.js';
import type { Server } from '../boot.js';
import { DestructiveMigrationError } from '../db/migrate.js';
import { messageOf } from '../../contract/checks.js';

/** Where the open back office hears about schema changes while developing (server-sent events). */
export const LIVE_SCHEMAS_PATH = '/__dev/schemas';

/** What the browser and the terminal are told after each look at `schemas/`. */
export interface SchemaStatus {
  /** moves on each time a changed set of schemas is running */
  version: number;
  /** the last edit that could not be applied (the previous schemas keep serving), or null */
  error: { file: string; path: string; message: string } | null;
}

interface LiveSchemasOptions {
  schemasDir: string;
  /** after a changed set of schemas is running (e.g. regenerate the row types) */
  onApplied?(definitions: ResourceDefinition[], changes: string[]): void | Promise<void>;
  /** lines for the terminal */
  log?(line: string): void;
  /** quiet time after the last file event before reloading (editors write in several steps) */
  debounceMs?: number;
}

/** The schemas' locale files: `locales/<lang>/schemas/` beside the schema folder. */
function localeDirs(schemasDir: string): string[] {
  return LANGUAGES.map((lang) => join(schemasDir, '..', 'locales', lang, 'schemas'));
}

/** A fingerprint of every schema and schema locale file's name and text, so a save that changed nothing changes nothing. */
function fingerprint(schemasDir: string): string {
  const hash = createHash('sha1');
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (name.endsWith('.json')) hash.update(`${child}\0${readFileSync(child, 'utf8')}\0`);
    }
  };
  for (const dir of [schemasDir, ...localeDirs(schemasDir)]) if (existsSync(dir)) walk(dir);
  return hash.digest('hex');
}

/**
 * `npm run dev`'s schema loop: watches `schemas/` and their locale files, checks a changed set as start-up does, migrates
 * (safe changes only, unless ALLOW_DESTRUCTIVE_MIGRATIONS), swaps the running definitions and
 * controllers, and tells the open back offices. A schema that fails its check or a refused migration
 * leaves the last good set running and is reported (file and JSON path) in the terminal and the browser.
 */
export class LiveSchemas {
  private status: SchemaStatus = { version: 1, error: null };
  private readonly streams = new Set<ServerResponse>();
  private watchers: FSWatcher[] = [];
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();
  private applied: string;

  constructor(private readonly server: Server, private readonly options: LiveSchemasOptions) {
    this.applied = fingerprint(options.schemasDir);
  }

  current(): SchemaStatus {
    return this.status;
  }

  /** The event stream route; call before the server listens. */
  register(http: FastifyInstance): void {
    http.get(LIVE_SCHEMAS_PATH, (request, reply) => {
      reply.hijack();
      const stream = reply.raw;
      // Written past Fastify: the headers every answer carries are copied from the reply.
      stream.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      stream.write(`retry: 1000\n`);
      this.send(stream);
      this.streams.add(stream);
      request.raw.on('close', () => this.streams.delete(stream));
    });
  }

  /**
   * Start watching the schema folder and the locales folder beside it (recursively; a change outside
   * `locales/<lang>/schemas/` leaves the fingerprint as it was, so it reloads nothing).
   */
  watch(): void {
    const locales = join(this.options.schemasDir, '..', 'locales');
    for (const dir of [this.options.schemasDir, ...(existsSync(locales) ? [locales] : [])]) {
      const watcher = watch(dir, { recursive: true }, () => this.schedule());
      watcher.on('error', (error) => this.options.log?.(`schemas: watching ${dir} stopped: ${error.message}`));
      this.watchers.push(watcher);
    }
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.reload().catch((error: unknown) => this.options.log?.(`schemas: reload failed: ${String(error)}`));
    }, this.options.debounceMs ?? 150);
  }

  /** Look at the schema folder now (after any look under way); resolves once the outcome is running and announced. */
  reload(): Promise<SchemaStatus> {
    const next = this.running.then(() => this.look());
    this.running = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private async look(): Promise<SchemaStatus> {
    const log = this.options.log ?? (() => undefined);
    let print: string;
    try {
      print = fingerprint(this.options.schemasDir);
    } catch (error) {
      return this.fail({ file: this.options.schemasDir, path: '', message: messageOf(error) });
    }
    if (print === this.applied && this.status.error === null) return this.status;
    let files: SchemaFile[];
    try {
      files = readSchemaFiles(this.options.schemasDir);
    } catch (error) {
      if (error instanceof SchemaError) return this.fail({ file: error.file, path: error.path || '/', message: error.message });
      throw error;
    }
    const { app } = this.server;
    let changes: string[];
    let definitions: ResourceDefinition[];
    try {
      // Checked beside the designs of the back office and swapped by the schema registry, as at start-up.
      const reloaded = await app.schemas.reloadFiles(files, app.settings.allowDestructiveMigrations);
      definitions = reloaded.definitions;
      changes = reloaded.migration.changes;
    } catch (error) {
      if (error instanceof SchemaError) return this.fail({ file: error.file, path: error.path || '/', message: error.message });
      if (error instanceof DestructiveMigrationError) return this.fail({ file: this.options.schemasDir, path: '', message: error.message });
      return this.fail({ file: this.options.schemasDir, path: '', message: `migration failed: ${messageOf(error)}` });
    }
    this.applied = print;
    this.status = { version: this.status.version + 1, error: null };
    for (const change of changes) log(`migrate: ${change}`);
    log(`schemas: ${definitions.length} resources running (version ${this.status.version})`);
    try {
      await this.options.onApplied?.(definitions, changes);
    } catch (error) {
      log(`schemas: after reload: ${messageOf(error)}`);
    }
    this.broadcast();
    return this.status;
  }

  private fail(error: NonNullable<SchemaStatus['error']>): SchemaStatus {
    this.status = { ...this.status, error };
    this.options.log?.(`\nschemas: not applied, the previous ones keep running:\n  ${error.message}\n`);
    this.broadcast();
    return this.status;
  }

  private send(stream: ServerResponse): void {
    stream.write(`event: schemas\ndata: ${JSON.stringify(this.status)}\n\n`);
  }

  private broadcast(): void {
    for (const stream of this.streams) this.send(stream);
  }

  /** Stop watching and end the open streams (the server cannot close while they last). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    for (const watcher of this.watchers) watcher.close();
    await this.running;
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }
}
