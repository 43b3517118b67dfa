/**
 * Lists the exports of `src/` and `scripts/` that no other file imports: dead code, or an `export` that
 * only widens a module's surface. A file of `tests/` importing an export counts as a use (pure helpers
 * are tested directly). A dynamic `import()` of a module counts as a use of all its exports, and so does
 * being one of the RUN_TIME_ENTRIES.
 *
 * `npx tsx scripts/unused-exports.ts` prints them and exits 1 when there are any; `npm run lint` runs it.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the checked exports live; generated code is left to its generator. */
function isChecked(path: string): boolean {
  return (path.startsWith('src/') || path.startsWith('scripts/')) && !path.startsWith('src/generated/');
}

/**
 * Modules loaded by path at run time rather than imported: every export of theirs is used. The client's
 * first-paint renderer is built for Node beside the client and imported by the server from the build.
 */
const RUN_TIME_ENTRIES = ['src/client/first-paint.tsx'];

function loadProgram(): ts.Program {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  // Our own files only: the declarations of packages are not needed to see who imports what.
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noResolve: true, types: [], noLib: true } });
}

function isOwn(file: ts.SourceFile): boolean {
  const path = relative(root, file.fileName);
  return !path.startsWith('..') && !path.includes('node_modules');
}

function exportsOf(checker: ts.TypeChecker, file: ts.SourceFile): ts.Symbol[] {
  const symbol = checker.getSymbolAtLocation(file);
  return symbol ? checker.getExportsOfModule(symbol) : [];
}

/** The symbol an import or re-export names, followed through aliases. */
function target(checker: ts.TypeChecker, node: ts.Node): ts.Symbol | undefined {
  const symbol = checker.getSymbolAtLocation(node);
  if (!symbol) return undefined;
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Every exported symbol some other file imports, re-exports, or loads with `import()`. */
function importedSymbols(program: ts.Program, checker: ts.TypeChecker): Set<ts.Symbol> {
  const used = new Set<ts.Symbol>();
  const useModule = (specifier: ts.Expression) => {
    const module = checker.getSymbolAtLocation(specifier);
    if (module) for (const symbol of checker.getExportsOfModule(module)) used.add(symbol);
  };
  for (const file of program.getSourceFiles()) {
    if (!isOwn(file)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && node.importClause) {
        const clause = node.importClause;
        if (clause.name) {
          const symbol = target(checker, clause.name);
          if (symbol) used.add(symbol);
        }
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) useModule(node.moduleSpecifier);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            const symbol = target(checker, element.name);
            if (symbol) used.add(symbol);
          }
        }
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) useModule(node.moduleSpecifier);
        else for (const element of node.exportClause.elements) {
          const symbol = target(checker, element.name);
          if (symbol) used.add(symbol);
        }
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
        useModule(node.arguments[0]);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        // `import('./x.js').Name` in a type position
        const symbol = node.qualifier ? target(checker, node.qualifier) : undefined;
        if (symbol) used.add(symbol);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return used;
}

interface UnusedExport {
  file: string;
  line: number;
  name: string;
}

function findUnusedExports(): UnusedExport[] {
  const program = loadProgram();
  const checker = program.getTypeChecker();
  const used = importedSymbols(program, checker);
  const unused: UnusedExport[] = [];
  for (const file of program.getSourceFiles()) {
    const path = relative(root, file.fileName);
    if (!isOwn(file) || !isChecked(path)) continue;
    for (const symbol of exportsOf(checker, file)) {
      const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (used.has(resolved) || used.has(symbol) || RUN_TIME_ENTRIES.includes(path)) continue;
      const declaration = resolved.declarations?.[0] ?? symbol.declarations?.[0];
      const line = declaration ? file.getLineAndCharacterOfPosition(declaration.getStart()).line + 1 : 0;
      unused.push({ file: path, line, name: symbol.getName() });
    }
  }
  return unused.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

const unused = findUnusedExports();
for (const item of unused) console.log(`${item.file}:${item.line}  ${item.name}`);
if (unused.length > 0) {
  console.error(`\n${unused.length} export(s) nobody imports: remove them, or drop \`export\` where the file itself uses them.`);
  process.exitCode = 1;
}
