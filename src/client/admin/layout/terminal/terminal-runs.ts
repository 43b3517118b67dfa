import { useSyncExternalStore } from 'react';
import { stringifyQuery } from '../../../../contract/query-string.js';
import { httpClient } from '../../../http/index.js';
import { readSession } from '../../../http/session.js';
import { currentLanguage } from '../../../i18n/store-config.js';
import { ADMIN_BASE } from '../../admin-base.js';
import { TERMINAL_FLAG as Flag } from '../../../../contract/terminal.js';

/**
 * The terminal drawer's runs: each one an `EventSource` on `ajax/terminal` (docs/wire-contract.md#web-terminal),
 * read as BuildAdmin's client reads it. The last few runs are kept for the browser tab's session
 * (`sessionStorage`), newest first.
 */

export type RunStatus = 'connecting' | 'running' | 'success' | 'failed';
/** How a line is coloured: the command line, an error, a warning, plain output. */
export type LineTone = 'command' | 'error' | 'warning' | 'plain';

interface TerminalLine {
  text: string;
  tone: LineTone;
}

export interface TerminalRun {
  id: string;
  key: string;
  title: string;
  status: RunStatus;
  lines: TerminalLine[];
  exitCode?: number;
  /** ms since the epoch */
  startedAt: number;
}

/** Runs kept, and lines kept per run. */
const MAX_RUNS = 5;
const MAX_LINES = 2000;
const STORAGE_KEY = 'terminalRuns';

function toneOf(text: string): LineTone {
  if (text.startsWith('> ')) return 'command';
  if (text.startsWith('Error:') || /\b(error|ERR!|failed|fatal)\b/i.test(text)) return 'error';
  if (/\bwarn(ing)?\b/i.test(text)) return 'warning';
  return 'plain';
}

function stored(): TerminalRun[] {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    const runs = raw ? (JSON.parse(raw) as TerminalRun[]) : [];
    // A run the page left while it was going has no outcome any more.
    return Array.isArray(runs) ? runs.map((run) => (run.status === 'connecting' || run.status === 'running' ? { ...run, status: 'failed' } : run)) : [];
  } catch {
    return [];
  }
}

let runs: TerminalRun[] = stored();
const listeners = new Set<() => void>();

function publish(next: TerminalRun[]): void {
  runs = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(runs));
  } catch {
    // storage full or unavailable: the runs stay in memory
  }
  for (const listener of listeners) listener();
}

function update(id: string, change: (run: TerminalRun) => TerminalRun): void {
  publish(runs.map((run) => (run.id === id ? change(run) : run)));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTerminalRuns(): TerminalRun[] {
  return useSyncExternalStore(subscribe, () => runs, () => runs);
}

export function clearFinishedRuns(): void {
  publish(runs.filter((run) => run.status === 'connecting' || run.status === 'running'));
}

function newId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Start a command and return its run's id; `lostLine` is the (translated) line added when the connection
 * drops before the end.
 */
export function startRun(command: { key: string; title: string }, lostLine: string): string {
  const id = newId();
  publish([{ id, key: command.key, title: command.title, status: 'connecting' as RunStatus, lines: [], startedAt: Date.now() }, ...runs].slice(0, MAX_RUNS));
  void connect(id, command.key, lostLine);
  return id;
}

async function connect(id: string, key: string, lostLine: string): Promise<void> {
  // An EventSource cannot refresh a stale token: any call through the http client does (a 409 refreshes it).
  await httpClient.request('/admin/Index/schemaRevision', { showErrorMessage: false, area: 'admin' }).catch(() => undefined);
  const query = stringifyQuery({ command: key, uuid: id, extend: '', batoken: readSession('admin').token, server: 1, lang: currentLanguage() });
  const source = new EventSource(`${ADMIN_BASE}/ajax/terminal?${query}`);
  let ended = false;
  const end = (status?: RunStatus) => {
    ended = true;
    source.close();
    update(id, (run) => ({ ...run, status: status ?? (run.status === 'success' ? 'success' : 'failed') }));
  };
  source.onmessage = (event: MessageEvent<string>) => {
    let message: { data?: unknown; uuid?: unknown };
    try {
      message = JSON.parse(event.data) as { data?: unknown; uuid?: unknown };
    } catch {
      return;
    }
    if (message.uuid !== id || typeof message.data !== 'string' || message.data === '') return;
    const data = message.data;
    if (data === Flag.linked) update(id, (run) => ({ ...run, status: 'running' }));
    else if (data === Flag.succeeded) update(id, (run) => ({ ...run, status: 'success' }));
    else if (data === Flag.failed) end('failed');
    else if (data === Flag.completed) end();
    else {
      const exit = /^exitCode: (-?\d+)$/.exec(data);
      if (exit) update(id, (run) => ({ ...run, exitCode: Number(exit[1]) }));
      else update(id, (run) => ({ ...run, lines: [...run.lines, { text: data, tone: toneOf(data) }].slice(-MAX_LINES) }));
    }
  };
  source.onerror = () => {
    if (ended) return;
    update(id, (run) => ({ ...run, lines: [...run.lines, { text: lostLine, tone: 'error' as LineTone }] }));
    end('failed');
  };
}
