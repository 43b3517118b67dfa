import type { Language } from '../../../../contract/headers.js';

/**
 * What the store screen knows about a module, read from `module/index` (and `module/upload`): the
 * catalogue's modules and uploaded ones, each with its install state as BuildAdmin numbers them.
 */

/** BuildAdmin's install states; 3 (a conflict waits) and 4 (dependencies wait) are shown but not offered. */
const ModuleState = {
  uninstalled: 0,
  installed: 1,
  waiting: 2,
  conflict: 3,
  dependencies: 4,
  disabled: 6,
} as const;

/** A text a module gives in every language (`{zh-cn, en}`), or one string the server already chose. */
type ModuleText = string | Partial<Record<Language, string>> | null | undefined;

export interface ModuleInfo {
  uid: string;
  /** in the language of the request; `titles` has every language */
  title?: ModuleText;
  titles?: ModuleText;
  /** BuildAdmin's `intro`, in the language of the request; `descriptions` has every language */
  intro?: ModuleText;
  description?: ModuleText;
  descriptions?: ModuleText;
  version?: string;
  /** an uploaded higher version waiting to be installed over this one */
  newVersion?: string;
  author?: ModuleText;
  state?: number | string;
  requires?: string[];
  /** `catalogue` (shipped with the product) or `upload` */
  source?: string;
  /** tables an earlier uninstall kept, rows and all (an install takes them back) */
  keptTables?: string[];
  website?: string;
  [field: string]: unknown;
}

/** What an admin can do to a module, each behind a confirmation. */
export type ModuleAction = 'install' | 'disable' | 'enable' | 'uninstall';

/** The text in the page's language; a module that wrote only the other one shows that rather than nothing. */
export function moduleText(text: ModuleText, language: string): string {
  if (text === null || text === undefined) return '';
  if (typeof text === 'string') return text;
  const own = text[language as Language];
  if (own) return own;
  return Object.values(text).find((value) => typeof value === 'string' && value !== '') ?? '';
}

/** The module's title in the page language (its uid when it has none). */
export function titleOf(module: ModuleInfo, language: string): string {
  return moduleText(module.titles ?? module.title, language) || moduleText(module.title, language) || module.uid;
}

/** The module's description in the page language. */
export function descriptionOf(module: ModuleInfo, language: string): string {
  return moduleText(module.descriptions ?? module.description ?? module.intro, language) || moduleText(module.intro, language);
}

/** The state as a number (a module that reports none is not installed). */
export function stateOf(module: Pick<ModuleInfo, 'state'>): number {
  const state = Number(module.state ?? ModuleState.uninstalled);
  return Number.isFinite(state) ? state : ModuleState.uninstalled;
}

/** The actions a module in this state offers, in the order its buttons show. */
export function actionsOf(state: number): ModuleAction[] {
  switch (state) {
    case ModuleState.installed:
      return ['disable'];
    case ModuleState.disabled:
      return ['enable', 'uninstall'];
    case ModuleState.uninstalled:
    case ModuleState.waiting:
    case ModuleState.conflict:
      return ['install'];
    default:
      return [];
  }
}

/** The message key of a state's chip and its colour. */
export function stateChip(state: number): { key: string; color: 'default' | 'success' | 'info' | 'warning' | 'error' } {
  switch (state) {
    case ModuleState.installed:
      return { key: 'installed', color: 'success' };
    case ModuleState.waiting:
      return { key: 'waiting', color: 'info' };
    case ModuleState.conflict:
      return { key: 'conflict', color: 'error' };
    case ModuleState.dependencies:
      return { key: 'dependencies', color: 'warning' };
    case ModuleState.disabled:
      return { key: 'disabled', color: 'warning' };
    default:
      return { key: 'uninstalled', color: 'default' };
  }
}

type Row = Record<string, unknown>;

/** One conflict row as a line: what clashes and what already holds it. */
function conflictLine(row: unknown): string | undefined {
  if (typeof row === 'string') return row || undefined;
  if (!row || typeof row !== 'object') return undefined;
  const text = (field: string) => {
    const value = (row as Row)[field];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const pair = (what: string | undefined, holder: string | undefined) => (what && holder && what !== holder ? `${what} (${holder})` : what ?? holder);
  return text('message') ?? pair(text('name'), text('owner')) ?? pair(text('newFile'), text('oldFile')) ?? pair(text('newDepend'), text('oldDepend'));
}

/**
 * The lines of the conflict list from a refusal's data (BuildAdmin's code -1) or a preview: what is in
 * the way, one readable line each. Our server lists `conflicts` (the clash's kinds and names, with `name`,
 * `owner` and the whole line `message` already in the page language) and repeats them as BuildAdmin's
 * `fileConflict` (`{newFile, oldFile}`) for its own dialog; the first list present is read.
 */
export function conflictLines(data: Row | undefined): string[] {
  const list = (key: string) => {
    const rows = data?.[key];
    return Array.isArray(rows) ? (rows as unknown[]).map(conflictLine).filter((line): line is string => line !== undefined) : [];
  };
  const clashes = list('conflicts');
  return [...new Set([...(clashes.length > 0 ? clashes : list('fileConflict')), ...list('dependConflict')])];
}

/** The data-losing steps a refusal lists (an upgrade that would drop a column), held back until confirmed. */
export function destructiveSteps(data: Row | undefined): string[] {
  const steps = data?.destructive;
  return Array.isArray(steps) ? steps.filter((step): step is string => typeof step === 'string') : [];
}
