/**
 * `npm run demo-data`: adds the demo data (a demo member to try the member centre with) to the database
 * DATABASE_URL names, once; a second run adds nothing (src/server/demo-data.ts). Runs the server bundle's
 * code, as `npm start` does (building it first on a fresh clone), so it needs no tsx.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { requireCurrentBuild } from './lib/current-build.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

requireCurrentBuild(root, 'add the demo data');
const { runDemoDataCommand } = await import(pathToFileURL(join(root, 'dist/server/demo-data.js')).href);
const code = await runDemoDataCommand(process.env, root, {
  line: (text) => process.stdout.write(`${text}\n`),
  error: (text) => process.stderr.write(`${text}\n`),
});
process.exit(code);
