/**
 * Prints the import circles of `src/server`: runtime ones (an `import` or `export … from` that loads the
 * other module) and those that also count type-only imports, each with the size of its largest strongly
 * connected component, and the files of `src/server/db/` that import something above `db/`: below it stand
 * only `db/` itself, the pure modules beside the server (`src/contract`, `src/schema`, `src/generated`) and
 * the server's leaf utilities (a file importing no other server file, such as `clock.ts`).
 *
 * `npx tsx scripts/import-circles.ts` prints the figures; with `--check` (`npm run lint` runs it so) it exits 1
 * when either graph has a circle (a type-only import counts: a module whose types name, through others, the
 * module naming them) or `db/` imports something above it. The context every module may name
 * (`app-context.ts`) imports only types of modules that name no server module above them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = 'src/server/';
const DB = 'src/server/db/';

interface Edge {
  to: string;
  typeOnly: boolean;
}

function serverFiles(): string[] {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return parsed.fileNames.map((file) => relative(root, file)).filter((file) => file.startsWith(SERVER));
}

/** Whether an import declaration loads nothing at run time: `import type`, or only `type` specifiers. */
function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
}

/** The project file a relative specifier names, resolved as the tsconfig's bundler resolution does. */
function resolveSpecifier(from: string, specifier: string, known: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|cjs|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}/index.tsx`]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

function edgesOf(file: string, known: Set<string>): { server: Edge[]; outside: string[] } {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const server: Edge[] = [];
  const outside: string[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteral(specifier)) return;
    const target = resolveSpecifier(file, specifier.text, known);
    if (target) server.push({ to: target, typeOnly });
    else if (specifier.text.startsWith('.')) outside.push(relative(root, join(dirname(file), specifier.text)));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importIsTypeOnly(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, exportIsTypeOnly(node));
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { server, outside };
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strongConnect = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        strongConnect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) strongConnect(node);
  return found.sort((a, b) => b.length - a.length);
}

/** One shortest circle through the component's first file, to show a reader where to cut. */
function oneCircle(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

function report(label: string, graph: Map<string, string[]>): string[][] {
  const found = circles(graph);
  const largest = found[0]?.length ?? 0;
  console.log(`${label}: ${found.length} strongly connected component(s) with a circle; largest has ${largest} file(s)`);
  for (const component of found) {
    const short = (file: string) => file.slice(SERVER.length);
    console.log(`  ${component.length} files, e.g. ${oneCircle(graph, component).map(short).join(' → ')}`);
    if (component.length <= 12) console.log(`    ${component.map(short).join(', ')}`);
  }
  return found;
}

const files = serverFiles();
const known = new Set(files);
const runtime = new Map<string, string[]>();
const all = new Map<string, string[]>();
const outsideOf = new Map<string, string[]>();
for (const file of files) {
  const { server, outside } = edgesOf(file, known);
  runtime.set(file, [...new Set(server.filter((edge) => !edge.typeOnly).map((edge) => edge.to))]);
  all.set(file, [...new Set(server.map((edge) => edge.to))]);
  outsideOf.set(file, outside);
}
const isLeaf = (file: string) => (all.get(file) ?? []).length === 0;
const dbOutside: string[] = [];
for (const file of files.filter((name) => name.startsWith(DB))) {
  const above = [
    ...(all.get(file) ?? []).filter((to) => !to.startsWith(DB) && !isLeaf(to)),
    ...(outsideOf.get(file) ?? []).filter((to) => !/^src\/(contract|schema|generated)\//.test(to)),
  ];
  for (const to of new Set(above)) dbOutside.push(`  ${file} → ${to}`);
}

const runtimeCircles = report('runtime imports', runtime);
const typeCircles = report('all imports (type-only included)', all);
console.log(`db/ files importing above db/: ${dbOutside.length}`);
for (const line of dbOutside) console.log(line);

const failures = [
  ...(runtimeCircles.length > 0 ? ['a runtime import circle: a module loads, through others, a module that loads it'] : []),
  ...(runtimeCircles.length === 0 && typeCircles.length > 0 ? ['a type-only import circle: a module names the types of one that, through others, imports it'] : []),
  ...(dbOutside.length > 0 ? ['db/ imports something above db/'] : []),
];
if (process.argv.includes('--check') && failures.length > 0) {
  for (const failure of failures) console.error(`import circles: ${failure}`);
  process.exit(1);
}
