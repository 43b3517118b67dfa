import type { Action, RequestContext } from '../../app-context.js';
import { errors, Success } from '../../errors.js';
import { writeAdminLog } from '../../http/admin-log.js';
import { choosePackageManager, installedPackageManagers, packageManager, terminalCommand } from '../../services/terminal/commands.js';
import { runCommand } from '../../services/terminal/run.js';
import { TERMINAL_FLAG as Flag } from '../../../contract/terminal.js';

/**
 * The web terminal (docs/wire-contract.md#web-terminal): `ajax/terminal` runs one whitelisted command
 * and streams its output as Server-Sent Events in BuildAdmin's format; `ajax/changeTerminalConfig`
 * stores the package manager the commands use.
 */

/** Lines the stream may carry besides the output, keyed by their English text (translated per request). */
const Line = {
  switchedOff: 'The web terminal is switched off on this server',
  notAllowed: 'The command was not allowed to be executed',
  notSuper: 'You are not super administrator or not logged in',
  tokenExpired: 'Token expiration',
  busy: 'Another command is still running, please wait for it to end',
  notStarted: 'Failed to execute',
  timedOut: 'The command ran past its time limit of %d seconds and was stopped',
  capped: 'Output past %d KB is not shown',
} as const;

/** Echoed back on every event (the client matches events to its task); never used otherwise. */
function echoed(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 200) : '';
}

/** Databases (by handle) running a command now: one command at a time per server process. */
const busy = new WeakSet<object>();

/** Open the event stream on the hijacked socket; returns the writer of one event. */
function openStream(ctx: RequestContext): (data: string) => void {
  const { reply } = ctx;
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  const base = { uuid: echoed(ctx.query.uuid), extend: echoed(ctx.query.extend), key: echoed(ctx.query.command) };
  return (data) => {
    if (!raw.writableEnded && !raw.destroyed) raw.write(`data: ${JSON.stringify({ data, ...base })}\n\n`);
  };
}

/** Which refusal, if any, answers this request before anything runs. */
function refusal(ctx: RequestContext): string | undefined {
  if (!ctx.app.settings.terminal) return Line.switchedOff;
  if (ctx.tokenExpired) return Line.tokenExpired;
  if (ctx.identity?.area !== 'admin' || !ctx.identity.isSuper) return Line.notSuper;
  if (!terminalCommand(ctx.query.command)) return Line.notAllowed;
  if (busy.has(ctx.app.handle)) return Line.busy;
  return undefined;
}

const terminal: Action = async (ctx) => {
  const send = openStream(ctx);
  const fail = (message: string, params: (string | number)[] = []) => {
    send(`Error:${ctx.t(message, params)}`);
    send(Flag.failed);
  };
  try {
    const refused = refusal(ctx);
    const command = terminalCommand(ctx.query.command);
    if (refused || !command) {
      fail(refused ?? Line.notAllowed);
      return null;
    }
    busy.add(ctx.app.handle);
    try {
      const argv = command.argv({ packageManager: await packageManager(ctx.app), schemasDir: ctx.app.schemas.schemasDir, projectDir: ctx.app.settings.projectRoot });
      send(Flag.linked);
      send(`> ${[argv[0].split(/[\\/]/).pop(), ...argv.slice(1)].join(' ')}`);
      const outcome = await runCommand(argv, {
        cwd: ctx.app.settings.projectRoot,
        timeoutMs: command.timeoutMs,
        onLine: send,
        onCapped: (bytes) => send(ctx.t(Line.capped, [bytes / 1024])),
      });
      const exitCode = outcome.kind === 'notStarted' ? null : outcome.exitCode;
      await writeAdminLog({ ...ctx, logTitle: 'Run terminal command', params: { command: command.key, exitCode } }).catch((error: unknown) =>
        ctx.request.log.error({ err: error }, 'admin log failed'),
      );
      if (outcome.kind === 'notStarted') {
        fail(Line.notStarted);
        return null;
      }
      if (outcome.kind === 'timedOut') send(`Error:${ctx.t(Line.timedOut, [command.timeoutMs / 1000])}`);
      send(`exitCode: ${outcome.exitCode}`);
      send(outcome.kind === 'exited' && outcome.exitCode === 0 ? Flag.succeeded : Flag.failed);
      send(Flag.completed);
    } finally {
      busy.delete(ctx.app.handle);
    }
    return null;
  } finally {
    ctx.reply.raw.end();
  }
};

/** `{manager}`: one of the package managers installed here (`npm` always); super admins only, as the terminal. */
const changeTerminalConfig: Action = async (ctx) => {
  if (!ctx.identity?.isSuper) throw errors.terminalSuperOnly();
  const installed = installedPackageManagers();
  const manager = ctx.body.manager;
  if (typeof manager !== 'string' || !installed.includes(manager)) throw errors.invalidChoice('manager', installed.join(', '));
  ctx.logTitle = 'Change terminal config';
  await choosePackageManager(ctx.app, manager);
  return new Success(null);
};

export const terminalActions = { terminal, changeTerminalConfig };
