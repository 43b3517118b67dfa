import { Kysely, MysqlDialect, sql } from 'kysely';
import { createPool } from 'mysql2';
import type { Row } from '../../schema/definition.js';
import { codeOf, messageOf } from '../../contract/checks.js';

/**
 * The BuildAdmin database an import reads: a MySQL or MariaDB server reached through `mysql2`, queried
 * with Kysely (identifiers quoted by it, values bound). It is only ever read.
 */

/** A problem with the import's input, told to the operator in English and Chinese; the import writes nothing. */
export class ImportInputError extends Error {
  constructor(
    readonly english: string,
    readonly chinese: string,
  ) {
    super(english);
  }
}

interface SourceLocation {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** `host:port/database`, without the credentials: names the source in the id mapping and in messages */
  label: string;
}

/** `mysql://user:pass@host[:port]/database` (or `mariadb://`) → where to connect. */
export function parseSourceUrl(text: string): SourceLocation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ImportInputError(
      `"${text}" is not a database URL; write it as mysql://user:password@host:3306/database`,
      `“${text}”不是数据库地址，请写成 mysql://用户名:密码@主机:3306/数据库名`,
    );
  }
  if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:') {
    throw new ImportInputError(
      `the source must be a MySQL or MariaDB URL starting with mysql://, not ${url.protocol}//`,
      `来源必须是以 mysql:// 开头的 MySQL 或 MariaDB 地址，而不是 ${url.protocol}//`,
    );
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) {
    throw new ImportInputError(
      'the URL names no database: add it after the host, e.g. mysql://root@127.0.0.1:3306/buildadmin',
      '地址中没有数据库名：请写在主机之后，例如 mysql://root@127.0.0.1:3306/buildadmin',
    );
  }
  const port = url.port ? Number(url.port) : 3306;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return {
    host,
    port,
    user: decodeURIComponent(url.username) || 'root',
    password: decodeURIComponent(url.password),
    database,
    label: `${host}:${port}/${database}`,
  };
}

export interface SourceColumn {
  name: string;
  /** the column type as the server declares it, e.g. `int(10) unsigned`, `varchar(50)`, `enum('0','1')` */
  type: string;
  nullable: boolean;
  comment: string;
}

/** Tables every BuildAdmin 2.x database has (without the prefix); `admin_rule` was `menu_rule` before 2.0. */
const SIGNATURE_TABLES = ['admin', 'admin_group', 'admin_group_access', 'config', 'user', 'user_group', 'user_money_log'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the source's tables are known only once it is read
type SourceDb = Kysely<any>;

export class BuildAdminSource {
  private constructor(
    private readonly db: SourceDb,
    readonly location: SourceLocation,
    readonly prefix: string,
    /** the prefixed tables of the source, by their name without the prefix */
    readonly tables: ReadonlyMap<string, SourceColumn[]>,
  ) {}

  /**
   * Connect and check that the database is a BuildAdmin one under `prefix`. Every failure (unreachable
   * server, refused login, missing database, wrong prefix, another application's database) is an
   * ImportInputError; the connection is closed again on failure.
   */
  static async open(location: SourceLocation, prefix: string): Promise<BuildAdminSource> {
    const pool = createPool({
      host: location.host,
      port: location.port,
      user: location.user,
      password: location.password,
      database: location.database,
      connectTimeout: 5_000,
      connectionLimit: 2,
      dateStrings: true,
      charset: 'utf8mb4',
    });
    const db: SourceDb = new Kysely({ dialect: new MysqlDialect({ pool }) });
    try {
      const columns = await readColumns(db, location);
      const byTable = new Map<string, SourceColumn[]>();
      for (const column of columns) {
        if (!column.table.startsWith(prefix)) continue;
        const name = column.table.slice(prefix.length);
        const list = byTable.get(name) ?? [];
        list.push({ name: column.name, type: column.type, nullable: column.nullable, comment: column.comment });
        byTable.set(name, list);
      }
      const missing = SIGNATURE_TABLES.filter((table) => !byTable.has(table));
      if (missing.length > 0) throw notBuildAdmin(location, prefix, missing, [...new Set(columns.map((column) => column.table))]);
      return new BuildAdminSource(db, location, prefix, byTable);
    } catch (error) {
      await db.destroy().catch(() => undefined);
      throw error;
    }
  }

  has(table: string): boolean {
    return this.tables.has(table);
  }

  columnsOf(table: string): SourceColumn[] {
    return this.tables.get(table) ?? [];
  }

  async count(table: string): Promise<number> {
    const row = await this.db.selectFrom(this.prefix + table).select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** Every row of `table` in pages of `pageSize`, in key order (`id`, or the given columns for a table without one). */
  async *rows(table: string, pageSize = 1000): AsyncGenerator<Row[]> {
    const hasId = this.columnsOf(table).some((column) => column.name === 'id');
    const order = hasId ? ['id'] : this.columnsOf(table).map((column) => column.name);
    for (let offset = 0; ; offset += pageSize) {
      let query = this.db.selectFrom(this.prefix + table).selectAll();
      for (const column of order) query = query.orderBy(column);
      const page = (await query.limit(pageSize).offset(offset).execute()) as Row[];
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
    }
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

interface CatalogRow {
  table: string;
  name: string;
  type: string;
  nullable: boolean;
  comment: string;
}

async function readColumns(db: SourceDb, location: SourceLocation): Promise<CatalogRow[]> {
  try {
    const result = await sql<{ TABLE_NAME: string; COLUMN_NAME: string; COLUMN_TYPE: string; IS_NULLABLE: string; COLUMN_COMMENT: string }>`
      SELECT c.TABLE_NAME, c.COLUMN_NAME, c.COLUMN_TYPE, c.IS_NULLABLE, c.COLUMN_COMMENT
      FROM information_schema.COLUMNS c
      JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
      WHERE c.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE'
      ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`.execute(db);
    return result.rows.map((row) => ({ table: row.TABLE_NAME, name: row.COLUMN_NAME, type: String(row.COLUMN_TYPE), nullable: row.IS_NULLABLE === 'YES', comment: row.COLUMN_COMMENT ?? '' }));
  } catch (error) {
    throw connectionProblem(error, location);
  }
}

function connectionProblem(error: unknown, location: SourceLocation): ImportInputError {
  const errno = typeof error === 'object' && error !== null && 'errno' in error ? error.errno : undefined;
  // 1044, 1045, 1698: the server refused the user or the database (MariaDB names some of these differently from MySQL)
  const code = errno === 1044 || errno === 1045 || errno === 1698 ? 'ER_ACCESS_DENIED_ERROR' : String(codeOf(error) ?? '');
  const where = `${location.host}:${location.port}`;
  switch (code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'PROTOCOL_CONNECTION_LOST':
      return new ImportInputError(
        `cannot reach a MySQL/MariaDB server at ${where} (${code}); check the host, the port and that the server runs`,
        `无法连接 ${where} 上的 MySQL/MariaDB 服务器（${code}），请检查主机、端口以及服务器是否在运行`,
      );
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return new ImportInputError(
        `the server at ${where} refused user "${location.user}" (wrong user name or password, or no right to read "${location.database}")`,
        `${where} 上的服务器拒绝了用户“${location.user}”（用户名或密码错误，或无权读取“${location.database}”）`,
      );
    case 'ER_BAD_DB_ERROR':
      return new ImportInputError(`the server at ${where} has no database "${location.database}"`, `${where} 上的服务器没有名为“${location.database}”的数据库`);
    default:
      return new ImportInputError(
        `reading the source database failed: ${messageOf(error)}`,
        `读取来源数据库失败：${messageOf(error)}`,
      );
  }
}

/** Why the tables under `prefix` are not a BuildAdmin database, with the prefix that would fit when there is one. */
function notBuildAdmin(location: SourceLocation, prefix: string, missing: string[], allTables: string[]): ImportInputError {
  const candidates = new Set<string>();
  for (const table of allTables) {
    if (table.endsWith('admin_group_access')) candidates.add(table.slice(0, table.length - 'admin_group_access'.length));
  }
  const fitting = [...candidates].filter((candidate) => SIGNATURE_TABLES.every((table) => allTables.includes(candidate + table)));
  if (fitting.length > 0) {
    const list = fitting.map((candidate) => `"${candidate}"`).join(', ');
    return new ImportInputError(
      `no BuildAdmin tables with the prefix "${prefix}" in ${location.label}; its tables use the prefix ${list}: run again with --prefix ${fitting[0]}`,
      `${location.label} 中没有前缀为“${prefix}”的 BuildAdmin 数据表；它的数据表前缀是 ${list}，请加上 --prefix ${fitting[0]} 重新运行`,
    );
  }
  const names = missing.map((table) => prefix + table).join(', ');
  return new ImportInputError(
    `${location.label} is not a BuildAdmin 2.x database: it has no ${names}`,
    `${location.label} 不是 BuildAdmin 2.x 数据库：缺少数据表 ${names}`,
  );
}
