import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../../app-context.js';
import { isOneOf } from '../../../contract/checks.js';

/**
 * The commands the web terminal may run (docs/wire-contract.md#web-terminal): this table is the whole
 * whitelist. A key the table does not hold never starts a process. Each command is a program and its
 * arguments, started without a shell in the project directory, so nothing the client sends (its
 * `extend`, its `uuid`) can reach a command line.
 */

/** Package managers the terminal knows; `npm` comes with Node and is always offered. */
const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'cnpm'] as const;
type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** What a command line may be built from: server facts only, never request input. */
interface CommandFacts {
  /** the chosen package manager (`ajax/changeTerminalConfig`) */
  packageManager: string;
  /** the schema folder this server loaded */
  schemasDir: string;
  /** the project directory, where commands run */
  projectDir: string;
}

interface TerminalCommand {
  /** as BuildAdmin's client names it: `group.name` */
  key: string;
  /** English; translated with the server messages */
  title: string;
  /** the program and its arguments */
  argv(facts: CommandFacts): string[];
  /** stopped (and the run failed) after this long */
  timeoutMs: number;
}

const MINUTE = 60_000;

/** `node` is the Node running this server, whatever the PATH says. */
const NODE = process.execPath;

function versionOf(manager: PackageManager): TerminalCommand {
  return { key: `version.${manager}`, title: `Show the ${manager} version`, argv: () => [manager, '-v'], timeoutMs: MINUTE };
}

/** BuildAdmin's client asks for the client build as `web-build.<package manager>`. */
function buildWith(manager: PackageManager): TerminalCommand {
  return { key: `web-build.${manager}`, title: `Build the web client with ${manager}`, argv: () => [manager, 'run', 'build'], timeoutMs: 10 * MINUTE };
}

/**
 * The schema check (scripts/check-schemas.ts). The server bundle (`npm run build`) carries it built, beside
 * the server's own code in dist/server; a server run from the sources (`npm run dev`) runs the script
 * through tsx, which only a development install has.
 */
const BUNDLED_SCHEMA_CHECK = fileURLToPath(new URL('./check-schemas.js', import.meta.url));
function schemaCheck({ schemasDir, projectDir }: CommandFacts): string[] {
  if (existsSync(BUNDLED_SCHEMA_CHECK)) return [NODE, relative(projectDir, BUNDLED_SCHEMA_CHECK), schemasDir];
  return [NODE, '--import', 'tsx', 'scripts/check-schemas.ts', schemasDir];
}

const COMMANDS: readonly TerminalCommand[] = [
  { key: 'version.node', title: 'Show the Node.js version', argv: () => [NODE, '-v'], timeoutMs: MINUTE },
  ...PACKAGE_MANAGERS.map(versionOf),
  { key: 'web.build', title: 'Build the web client', argv: ({ packageManager }) => [packageManager, 'run', 'build'], timeoutMs: 10 * MINUTE },
  ...PACKAGE_MANAGERS.map(buildWith),
  { key: 'types.gen', title: 'Generate the types of the schemas', argv: ({ packageManager }) => [packageManager, 'run', 'gen'], timeoutMs: 5 * MINUTE },
  {
    key: 'schema.check',
    title: 'Check the schema files',
    argv: schemaCheck,
    timeoutMs: 2 * MINUTE,
  },
];

/** The command of a key, or undefined: only exact keys of the table are known. */
export function terminalCommand(key: unknown): TerminalCommand | undefined {
  return typeof key === 'string' ? COMMANDS.find((command) => command.key === key) : undefined;
}

function onPath(program: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/**
 * How long a look along the PATH stands: every back-office bootstrap reports the package managers,
 * and a manager installed meanwhile shows within these seconds.
 */
const INSTALLED_FRESH_MS = 10_000;
let installed: { managers: string[]; at: number; path: string | undefined } | undefined;

/** The package managers installed on this machine (found on the PATH); `npm` always. */
export function installedPackageManagers(): string[] {
  const now = Date.now();
  if (!installed || now - installed.at > INSTALLED_FRESH_MS || installed.path !== process.env.PATH) {
    installed = { managers: PACKAGE_MANAGERS.filter((manager) => manager === 'npm' || onPath(manager)), at: now, path: process.env.PATH };
  }
  return [...installed.managers];
}

/** The commands an administrator is offered: the version and build keys of managers not installed are left out. */
export function offeredCommands(): TerminalCommand[] {
  const installed = installedPackageManagers();
  return COMMANDS.filter((command) => {
    const manager = command.key.split('.')[1];
    return !command.key.startsWith('web-build.') && (!command.key.startsWith('version.') || manager === 'node' || installed.includes(manager));
  });
}

const PACKAGE_MANAGER_CONFIG = 'npm_package_manager';

/** The package manager chosen for the terminal (config `npm_package_manager`), `npm` until one is chosen. */
export async function packageManager(app: AppContext): Promise<string> {
  const chosen = await app.config.get(PACKAGE_MANAGER_CONFIG);
  return isOneOf(PACKAGE_MANAGERS, chosen) ? chosen : 'npm';
}

/**
 * Store the choice. The row is not part of the settings screen (no group): it is created the first time
 * a choice is stored.
 */
export async function choosePackageManager(app: AppContext, manager: string): Promise<void> {
  const updated = await app.db.updateTable('config').set({ value: manager }).where('name', '=', PACKAGE_MANAGER_CONFIG).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await app.db.insertInto('config').values({ name: PACKAGE_MANAGER_CONFIG, group: '', title: 'npm package manager', type: 'string', value: manager }).execute();
  }
  app.config.invalidate();
}
