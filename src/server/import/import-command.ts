import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadResourceDefinitions } from '../../schema/load-files.js';
import { createServer } from '../boot.js';
import { describeDatabaseUrl, openDatabase, type DatabaseHandle } from '../db/connection.js';
import { catalogTables } from '../db/table-catalog.js';
import { IMPORT_MAP_TABLE } from '../db/system-tables.js';
import { settingsFromEnv } from '../settings.js';
import { centsToYuan } from '../../contract/money.js';
import { importBuildAdmin, type ImportReport, type ImportTarget, type ProgressEvent } from './buildadmin-import.js';
import { BuildAdminSource, ImportInputError, parseSourceUrl } from './buildadmin-source.js';
import { CONFLICT_MODES, type ConflictMode } from './account-collisions.js';
import { isOneOf, messageOf } from '../../contract/checks.js';

/**
 * `npm run import:buildadmin -- mysql://user:pass@host/db [--prefix ba_] [--storage <dir>] [--drafts <dir>] [--on-conflict keep|replace|rename] [--dry-run]`:
 * the command around `importBuildAdmin`. Input problems are told in English and Chinese and end with exit
 * code 1 before anything is written; a usage mistake ends with 2.
 */

interface CommandOutput {
  /** a finished line */
  line(text: string): void;
  /** a problem, on standard error */
  error(text: string): void;
  /** redraw the current line (progress bars); only called when `tty` */
  redraw(text: string): void;
  tty: boolean;
}

const USAGE = 'usage: npm run import:buildadmin -- mysql://user:password@host:3306/database [--prefix ba_] [--storage <BuildAdmin public/storage folder>] [--drafts <folder>] [--on-conflict=keep|replace|rename] [--dry-run]';
const USAGE_ZH = '用法：npm run import:buildadmin -- mysql://用户名:密码@主机:3306/数据库名 [--prefix ba_] [--storage <BuildAdmin 的 public/storage 目录>] [--drafts <目录>] [--on-conflict=keep|replace|rename] [--dry-run]';

interface Arguments {
  url: string;
  prefix: string;
  storage?: string;
  drafts?: string;
  onConflict?: ConflictMode;
  dryRun: boolean;
}

function parseArguments(args: string[]): Arguments {
  const positional: string[] = [];
  const parsed: Partial<Arguments> = { prefix: 'ba_', dryRun: false };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const next = inline ?? args[(index += 1)];
      if (next === undefined || next === '') throw new ImportInputError(`${flag} needs a value\n${USAGE}`, `${flag} 需要一个值\n${USAGE_ZH}`);
      return next;
    };
    if (flag === '--dry-run') parsed.dryRun = true;
    else if (flag === '--prefix') parsed.prefix = inline ?? args[(index += 1)] ?? '';
    else if (flag === '--storage') parsed.storage = value();
    else if (flag === '--drafts') parsed.drafts = value();
    else if (flag === '--on-conflict') {
      const mode = value();
      if (!isOneOf(CONFLICT_MODES, mode)) throw new ImportInputError(`--on-conflict takes keep, replace or rename, not "${mode}"\n${USAGE}`, `--on-conflict 只能是 keep、replace 或 rename，而不是“${mode}”\n${USAGE_ZH}`);
      parsed.onConflict = mode;
    }
    else if (flag.startsWith('--')) throw new ImportInputError(`unknown option ${flag}\n${USAGE}`, `未知选项 ${flag}\n${USAGE_ZH}`);
    else positional.push(arg);
  }
  if (positional.length !== 1) throw new ImportInputError(`give exactly one source database URL\n${USAGE}`, `请给出且只给出一个来源数据库地址\n${USAGE_ZH}`);
  if (!/^[A-Za-z0-9_]*$/.test(parsed.prefix ?? '')) throw new ImportInputError(`the table prefix may hold only letters, digits and _, got "${parsed.prefix}"`, `数据表前缀只能包含字母、数字和下划线，收到“${parsed.prefix}”`);
  return { ...parsed, url: positional[0] } as Arguments;
}

function bar(done: number, total: number): string {
  const width = 24;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
}

function progressPrinter(output: CommandOutput): (event: ProgressEvent) => void {
  return (event) => {
    if (event.kind === 'start') {
      if (output.tty) output.redraw(`  ${event.table.padEnd(28)} ${bar(0, event.total)}`);
      else output.line(`  ${event.table}: ${event.total} rows…`);
    } else if (event.kind === 'rows') {
      if (output.tty) output.redraw(`  ${event.table.padEnd(28)} ${bar(event.done, event.total)}`);
    } else {
      const table = event.table;
      const parts = [`${table.imported} new`, table.matched ? `${table.matched} matched` : '', table.already ? `${table.already} already here` : '', table.skipped ? `${table.skipped} skipped` : ''].filter(Boolean);
      const finished = `  ${table.source.padEnd(28)} ${bar(table.total, table.total)} ${parts.join(', ')}`;
      if (output.tty) {
        output.redraw(finished);
        output.line('');
      } else {
        output.line(finished);
      }
    }
  };
}

function printSummary(report: ImportReport, output: CommandOutput): void {
  const sum = (key: 'imported' | 'matched' | 'already' | 'skipped') => report.tables.reduce((total, table) => total + table[key], 0);
  output.line('');
  output.line(report.dryRun ? `Dry run, nothing was written. Would bring ${sum('imported')} new rows (${sum('already')} already brought before).` : `Done: ${sum('imported')} new rows, ${sum('matched')} matched to existing ones, ${sum('already')} already brought before, ${sum('skipped')} skipped.`);
  for (const table of report.tables) for (const note of table.notes) output.line(`  ${table.source}: ${note}`);
  printCollisions(report, output);
  if (report.unknownRules.admin.length) output.line(`Admin group rules with no counterpart here (left out of the groups): ${report.unknownRules.admin.join(', ')}`);
  if (report.unknownRules.user.length) output.line(`Member group rules with no counterpart here (left out of the groups): ${report.unknownRules.user.join(', ')}`);
  if (!report.dryRun) {
    const { checked, money, score } = report.ledger;
    if (money.length === 0 && score.length === 0) output.line(`Balances: all ${checked} imported members' balance and points equal the sum of their logs.`);
    for (const item of money) output.line(`Balance differs from the money log: ${item.username} has ${centsToYuan(item.balance)}, the log adds up to ${centsToYuan(item.ledger)}`);
    for (const item of score) output.line(`Points differ from the points log: ${item.username} has ${item.balance}, the log adds up to ${item.ledger}`);
  }
  if (report.files.copied || report.files.missing.length) output.line(`Attachment files: ${report.files.copied} copied${report.files.missing.length ? `, ${report.files.missing.length} missing in the source folder: ${report.files.missing.slice(0, 10).join(', ')}` : ''}`);
  for (const item of report.leftAlone) output.line(`Not brought: ${item.table} (${item.reason})`);
  for (const item of report.unknownTables) {
    output.line(`Unknown table ${item.table}: ${item.columns.map((column) => `${column.name} ${column.type}`).join(', ')}`);
    if (item.draft) output.line(`  schema draft: ${item.draft} (move it into schemas/imported/ and restart to keep the table; the next import run then copies its rows)`);
  }
}

const OUTCOME: Record<ConflictMode, (as: string) => string> = {
  keep: (as) => `kept: brought onto ours ${as}, which stays as it is`,
  replace: (as) => `replaced: ours ${as} now holds the site's username, password and profile`,
  rename: (as) => `renamed: brought as the new account ${as}`,
};
const PLANNED: Record<ConflictMode, (ours: string) => string> = {
  keep: (ours) => `would be brought onto ours ${ours}, which would stay as it is`,
  replace: (ours) => `ours ${ours} would take the site's username, password and profile`,
  rename: () => 'would come as a new account (a username held here gets a free ending)',
};

/** Each source account that met one of ours, and what became of it. */
function printCollisions(report: ImportReport, output: CommandOutput): void {
  if (report.collisions.length === 0) return;
  output.line(`Accounts meeting ours (${report.collisions.length}${report.fresh ? ', the seeded ones of this fresh install' : ''}):`);
  for (const collision of report.collisions) {
    const noun = collision.table === 'admin' ? 'administrator' : 'member';
    const meets = collision.meets.map((meeting) => `#${meeting.id} "${meeting.username}" on ${meeting.on.map((item) => item.field).join(', ')}`).join('; ');
    const first = `#${collision.meets[0].id} "${collision.meets[0].username}"`;
    const outcome = collision.as ? OUTCOME[collision.outcome](`#${collision.as.id} "${collision.as.username}"`) : PLANNED[collision.outcome](first);
    output.line(`  ${noun} "${collision.username}" met ${meets}: ${outcome}`);
  }
}

async function dryRunTarget(databaseUrl: string, projectRoot: string, storageDir: string): Promise<{ target: ImportTarget; handle?: DatabaseHandle }> {
  const resources = new Map(loadResourceDefinitions(join(projectRoot, 'schemas')).map((definition) => [definition.id, definition]));
  const sqlitePath = databaseUrl.startsWith('sqlite:') ? resolve(projectRoot, databaseUrl.slice('sqlite:'.length) || 'data/app.db') : undefined;
  if (sqlitePath && !existsSync(sqlitePath)) return { target: { db: undefined, mapExists: false, resources, storageDir } };
  const handle = openDatabase(sqlitePath ? `sqlite:${sqlitePath}` : databaseUrl);
  const tables = new Set(await catalogTables(handle));
  const prepared = tables.has('admin_rule') && tables.has('user_rule');
  return { target: { db: prepared ? handle.db : undefined, mapExists: prepared && tables.has(IMPORT_MAP_TABLE), resources, storageDir }, handle };
}

/** Run the command; returns the process exit code. */
export async function runImportCommand(args: string[], env: NodeJS.ProcessEnv, projectRoot: string, output: CommandOutput): Promise<number> {
  let source: BuildAdminSource | undefined;
  let close: (() => Promise<void>) | undefined;
  let adminLogin: { username: string; password: string } | undefined;
  try {
    const parsed = parseArguments(args);
    const location = parseSourceUrl(parsed.url);
    const sourceStorage = parsed.storage ? resolve(parsed.storage) : undefined;
    if (sourceStorage && !(existsSync(sourceStorage) && statSync(sourceStorage).isDirectory())) {
      throw new ImportInputError(`--storage: "${parsed.storage}" is not a folder (give BuildAdmin's public/storage folder)`, `--storage：“${parsed.storage}”不是目录（请给出 BuildAdmin 的 public/storage 目录）`);
    }
    const settings = settingsFromEnv(env, projectRoot);
    source = await BuildAdminSource.open(location, parsed.prefix);
    output.line(`${parsed.dryRun ? 'Dry run: reading' : 'Importing'} BuildAdmin ${location.label} (tables ${parsed.prefix}*) into ${describeDatabaseUrl(settings.databaseUrl)}`);

    let target: ImportTarget;
    if (parsed.dryRun) {
      const opened = await dryRunTarget(settings.databaseUrl, projectRoot, settings.storageDir).catch((error: unknown) => {
        throw new ImportInputError(
          `cannot read the target database ${describeDatabaseUrl(settings.databaseUrl)} (DATABASE_URL): ${messageOf(error)}`,
          `无法读取目标数据库 ${describeDatabaseUrl(settings.databaseUrl)}（DATABASE_URL）：${messageOf(error)}`,
        );
      });
      target = opened.target;
      close = opened.handle ? () => opened.handle!.close() : undefined;
    } else {
      const server = await createServer(settings).catch((error: unknown) => {
        throw new ImportInputError(
          `cannot open the target database ${describeDatabaseUrl(settings.databaseUrl)} (DATABASE_URL): ${messageOf(error)}`,
          `无法打开目标数据库 ${describeDatabaseUrl(settings.databaseUrl)}（DATABASE_URL）：${messageOf(error)}`,
        );
      });
      close = () => server.close();
      adminLogin = server.adminLogin;
      target = { db: server.app.db, mapExists: (await catalogTables(server.app.handle)).includes(IMPORT_MAP_TABLE), resources: server.app.resources, storageDir: settings.storageDir };
    }
    const report = await importBuildAdmin(source, target, {
      dryRun: parsed.dryRun,
      sourceStorage,
      draftsDir: resolve(projectRoot, parsed.drafts ?? 'data/imported-schemas'),
      onConflict: parsed.onConflict,
      progress: progressPrinter(output),
    });
    printSummary(report, output);
    const firstReplaced = report.collisions.some((collision) => collision.table === 'admin' && collision.outcome === 'replace' && collision.as?.id === 1);
    if (adminLogin && !firstReplaced) output.line(`The database was new: admin login ${adminLogin.username} / ${adminLogin.password} (shown once; administrators brought from BuildAdmin keep their own passwords)`);
    if (firstReplaced && settings.adminPassword) output.line('ADMIN_PASSWORD is set: the next start gives administrator #1, now the site\'s, that password instead of their BuildAdmin one; unset it to keep theirs.');
    return 0;
  } catch (error) {
    if (error instanceof ImportInputError) {
      output.error(`error: ${error.english}`);
      output.error(`错误：${error.chinese}`);
      return error.english.includes('usage:') ? 2 : 1;
    }
    output.error(`error: the import stopped: ${messageOf(error)}`);
    output.error(`错误：导入中止：${messageOf(error)}`);
    output.error('The table being imported was rolled back; tables finished before it are kept, and running the import again continues from there.');
    output.error('正在导入的数据表已回滚；之前完成的数据表保留，再次运行导入会从那里继续。');
    return 1;
  } finally {
    await source?.close().catch(() => undefined);
    await close?.().catch(() => undefined);
  }
}
