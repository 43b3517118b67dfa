/**
 * Counts the type assertions of `src/` (`value as Type` and `<Type>value`; `as const` is no assertion: it
 * claims nothing the compiler does not check) and prints the number per folder, then the total.
 *
 * `npx tsx scripts/type-assertions.ts` prints the figures; with `--check` (`npm run lint` runs it so) it exits 1
 * when the total exceeds the ceiling committed in `scripts/type-assertions-ceiling.json`, so the count may only
 * fall: a change that removes assertions lowers the ceiling to the new total (the check says so when it is lower).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CEILING_FILE = join(root, 'scripts', 'type-assertions-ceiling.json');

function sourceFiles(): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return parsed.fileNames.map((file) => relative(root, file)).filter((file) => file.startsWith('src/') && !file.endsWith('.d.ts'));
}

function isAsConst(node: ts.AsExpression): boolean {
  return ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'const';
}

function assertionsIn(file: string): number {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true, kind);
  let count = 0;
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) && !isAsConst(node)) || ts.isTypeAssertionExpression(node)) count += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

const byFolder = new Map<string, number>();
for (const file of sourceFiles()) {
  const count = assertionsIn(file);
  if (count > 0) byFolder.set(dirname(file), (byFolder.get(dirname(file)) ?? 0) + count);
}
const total = [...byFolder.values()].reduce((sum, count) => sum + count, 0);
const width = Math.max(...[...byFolder.keys()].map((folder) => folder.length), 5);
for (const [folder, count] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) console.log(`${folder.padEnd(width)} ${String(count).padStart(4)}`);
console.log(`${'total'.padEnd(width)} ${String(total).padStart(4)}`);

if (process.argv.includes('--check')) {
  const { ceiling } = JSON.parse(readFileSync(CEILING_FILE, 'utf8')) as { ceiling: number };
  if (total > ceiling) {
    console.error(`type assertions: ${total} in src/, above the ceiling of ${ceiling} (${relative(root, CEILING_FILE)}): type the values instead of asserting them`);
    process.exit(1);
  }
  if (total < ceiling) console.log(`type assertions: ${total}, below the ceiling of ${ceiling}: lower it to ${total} in ${relative(root, CEILING_FILE)}`);
}
