import { resolve } from 'node:path';
import { runImportCommand } from '../src/server/import/import-command.js';

/**
 * `npm run import:buildadmin -- mysql://user:pass@host/db [--prefix ba_] [--storage <dir>] [--drafts <dir>] [--dry-run]`:
 * bring a BuildAdmin 2.x site's data into the database DATABASE_URL names (docs/buildadmin-import.md).
 */
const tty = Boolean(process.stdout.isTTY);
const code = await runImportCommand(process.argv.slice(2), process.env, resolve(import.meta.dirname, '..'), {
  tty,
  line: (text) => process.stdout.write(`${text}\n`),
  error: (text) => process.stderr.write(`${text}\n`),
  redraw: (text) => process.stdout.write(`\r\x1b[2K${text}`),
});
process.exit(code);
