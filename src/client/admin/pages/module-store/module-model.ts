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
  title?: ModuleText;
  description?: ModuleText;
  version?: string;
  author?: ModuleText;
  state?: number | string;
  requires?: string[];
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

/** The first of these fields a conflict row has, as text. */
function firstText(row: Row, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = row[field];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/**
 * The lines of the conflict list from a refusal's data (BuildAdmin's code -1): what is in the way,
 * one readable line each. Rows come as BuildAdmin's `fileConflict` (`{newFile, oldFile}`) and
 * `dependConflict` (`{newDepend, oldDepend}`), or as plain texts that already name the clash.
 */
export function conflictLines(data: Row | undefined): string[] {
  if (!data) return [];
  const lines: string[] = [];
  for (const key of ['conflicts', 'conflict', 'fileConflict', 'dependConflict']) {
    const rows = data[key];
    if (!Array.isArray(rows)) continue;
    for (const row of rows as unknown[]) {
      if (typeof row === 'string') lines.push(row);
      else if (row && typeof row === 'object') {
        const text = firstText(row as Row, ['message', 'msg', 'name', 'oldFile', 'newFile', 'oldDepend', 'newDepend', 'depend', 'file']);
        if (text) lines.push(text);
      }
    }
  }
  return [...new Set(lines)];
}

/** The data-losing steps a refusal lists (an upgrade that would drop a column), held back until confirmed. */
export function destructiveSteps(data: Row | undefined): string[] {
  const steps = data?.destructive;
  return Array.isArray(steps) ? steps.filter((step): step is string => typeof step === 'string') : [];
}
