/**
 * The web terminal's stream (docs/wire-contract.md#web-terminal): the marks BuildAdmin's client reads
 * between the output lines of `ajax/terminal`, shared by the server that writes them and our drawer.
 */
export const TERMINAL_FLAG = {
  linked: 'command-link-success',
  succeeded: 'command-exec-success',
  failed: 'command-exec-error',
  completed: 'command-exec-completed',
} as const;
