import { getShellState, reloadShell, type ShellBootstrap } from '../bootstrap-store.js';

/**
 * Development only (`npm run dev`): the server announces each schema change on an event stream; the
 * open back office then fetches the definitions and menus again (the same `Index/index` the loading
 * route reads) and redraws, and shows a schema that could not be applied until it is fixed. Never part
 * of a production build: `AdminApp` imports this behind `import.meta.env.DEV`.
 */
export const LIVE_SCHEMAS_URL = '/__dev/schemas';
export const SCHEMA_ERROR_ELEMENT_ID = 'chidao-dev-schema-error';

interface SchemaStatus {
  version: number;
  error: { file: string; path: string; message: string } | null;
}

/** What the stream needs of `EventSource` (a fake in tests). */
export interface SchemaEventSource {
  addEventListener(type: 'schemas', listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

function showError(error: SchemaStatus['error']): void {
  let box = document.getElementById(SCHEMA_ERROR_ELEMENT_ID);
  if (!error) {
    box?.remove();
    return;
  }
  if (!box) {
    box = document.createElement('div');
    box.id = SCHEMA_ERROR_ELEMENT_ID;
    box.setAttribute('role', 'alert');
    Object.assign(box.style, {
      position: 'fixed', left: '12px', right: '12px', bottom: '12px', zIndex: '100000', padding: '12px 16px',
      borderRadius: '6px', background: '#2b1111', color: '#ffd7d7', border: '1px solid #f56c6c',
      font: '13px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace', whiteSpace: 'pre-wrap', boxShadow: '0 4px 16px rgba(0,0,0,.3)',
    });
    document.body.appendChild(box);
  }
  // text only: the message quotes the file, never markup
  box.textContent = `Schema not applied, the previous one keeps running\n${error.file} at ${error.path}\n${error.message}`;
}

/** Follow the server's schema events; returns a function that stops. */
export function followSchemaChanges(
  load: () => Promise<ShellBootstrap>,
  open: (url: string) => SchemaEventSource = (url) => new EventSource(url),
): () => void {
  const source = open(LIVE_SCHEMAS_URL);
  let seen: number | undefined;
  source.addEventListener('schemas', (event) => {
    const status = JSON.parse(event.data) as SchemaStatus;
    showError(status.error);
    if (status.error) console.error(`Schema not applied: ${status.error.message}`);
    const changed = seen !== undefined && status.version !== seen;
    seen = status.version;
    // Only a loaded shell is redrawn; one still loading fetches the new definitions anyway.
    if (!changed || !getShellState()) return;
    void reloadShell(load);
  });
  return () => {
    source.close();
    showError(null);
  };
}
