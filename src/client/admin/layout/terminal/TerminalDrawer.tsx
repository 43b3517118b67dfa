import { useEffect, useId, useRef, useState } from 'react';
import { Alert, Box, Button, Chip, Divider, Drawer, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { useTranslate } from 'react-admin';
import { httpClient } from '../../../http/index.js';
import { formatDateTime } from '../../../format/datetime.js';
import { authProvider, reloadShell, type ShellState } from '../../bootstrap-store.js';
import { clearFinishedRuns, startRun, useTerminalRuns, type LineTone, type RunStatus, type TerminalRun } from './terminal-runs.js';

/**
 * The web terminal (docs/client.md#web-terminal): the commands the server offers a super admin, run one
 * at a time, each run's output as it streams in, coloured by kind, with its exit code; the last few runs
 * stay for the session.
 */

/** Output colours on the dark panel, each readable against it (contrast above 7:1). */
const TONE_COLOURS: Record<LineTone, string> = { command: '#7dd3fc', error: '#fca5a5', warning: '#fcd34d', plain: '#e5e7eb' };
const STATUS_COLOURS: Record<RunStatus, 'default' | 'info' | 'success' | 'error'> = { connecting: 'default', running: 'info', success: 'success', failed: 'error' };

/** One run; `focused` moves the keyboard focus to its output (the run just started: the button that started it is disabled). */
function RunCard({ run, focused }: { run: TerminalRun; focused: boolean }) {
  const translate = useTranslate();
  const headingId = useId();
  const output = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (focused) output.current?.focus();
  }, [focused]);
  // New output scrolls into view, as in a terminal.
  const lineCount = run.lines.length;
  useEffect(() => {
    const element = output.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lineCount]);
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, px: 1.5, py: 1 }}>
        <Typography id={headingId} component="h4" variant="subtitle2" sx={{ flex: '1 1 160px', minWidth: 0, overflowWrap: 'anywhere' }}>
          {run.title}
        </Typography>
        <Chip size="small" color={STATUS_COLOURS[run.status]} label={translate(`shell.terminal.status.${run.status}`)} data-testid="terminal-run-status" />
        {run.exitCode !== undefined && (
          <Chip size="small" variant="outlined" color={run.exitCode === 0 ? 'success' : 'error'} label={translate('shell.terminal.exitCode', { code: run.exitCode })} data-testid="terminal-exit-code" />
        )}
        <Typography variant="caption" color="text.secondary" sx={{ flexBasis: '100%' }}>
          {translate('shell.terminal.startedAt', { time: formatDateTime(Math.floor(run.startedAt / 1000)) })}
        </Typography>
      </Box>
      <Box
        component="pre"
        ref={output}
        role="log"
        aria-label={translate('shell.terminal.output', { title: run.title })}
        tabIndex={0}
        sx={{ m: 0, px: 1.5, py: 1, maxHeight: 280, overflow: 'auto', bgcolor: '#1f2937', color: TONE_COLOURS.plain, fontSize: 12.5, lineHeight: 1.55, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
      >
        {run.lines.length === 0
          ? translate('shell.terminal.noOutput')
          : run.lines.map((line, index) => (
              <Box key={index} component="span" sx={{ display: 'block', color: TONE_COLOURS[line.tone] }}>
                {line.text}
              </Box>
            ))}
      </Box>
    </Box>
  );
}

export function TerminalDrawer({ open, onClose, shell }: { open: boolean; onClose(): void; shell: ShellState }) {
  const translate = useTranslate();
  const titleId = useId();
  const runs = useTerminalRuns();
  const [saving, setSaving] = useState(false);
  const [started, setStarted] = useState<string>();
  const terminal = shell.terminal;
  const commands = terminal.commands ?? [];
  const enabled = terminal.enabled !== false;
  const busy = runs.some((run) => run.status === 'connecting' || run.status === 'running');
  const managers = terminal.packageManagers ?? [];

  const choose = async (manager: string) => {
    setSaving(true);
    try {
      await httpClient.request('/admin/ajax/changeTerminalConfig', { method: 'POST', data: { manager }, showSuccessMessage: true, area: 'admin' });
      await reloadShell(() => authProvider.loadBootstrap());
    } catch {
      // the http client has shown the server's message
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { 'aria-labelledby': titleId, sx: { width: { xs: '100vw', sm: 560 }, maxWidth: '100vw' } } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.5, gap: 1 }}>
        <Typography id={titleId} component="h2" variant="h6" sx={{ flex: 1 }}>
          {translate('shell.terminal.title')}
        </Typography>
        <IconButton aria-label={translate('shell.terminal.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Stack spacing={2} sx={{ p: 2, overflowY: 'auto' }}>
        {!enabled && <Alert severity="info">{translate('shell.terminal.off')}</Alert>}
        {managers.length > 0 && (
          <TextField
            select
            size="small"
            label={translate('shell.terminal.packageManager')}
            helperText={translate('shell.terminal.packageManagerHelp')}
            value={managers.includes(terminal.npmPackageManager) ? terminal.npmPackageManager : ''}
            disabled={saving || busy}
            onChange={(event) => void choose(event.target.value)}
            sx={{ maxWidth: 280 }}
          >
            {managers.map((manager) => (
              <MenuItem key={manager} value={manager}>
                {manager}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Box component="section" aria-labelledby={`${titleId}-commands`}>
          <Typography id={`${titleId}-commands`} component="h3" variant="subtitle1" sx={{ mb: 1 }}>
            {translate('shell.terminal.commands')}
          </Typography>
          <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {commands.map((command) => (
              <Box component="li" key={command.key} sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: 40 }}>
                <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                  {command.title}
                </Typography>
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<PlayArrowIcon />}
                  disabled={!enabled || busy}
                  aria-label={translate('shell.terminal.runNamed', { title: command.title })}
                  onClick={() => setStarted(startRun(command, translate('shell.terminal.lost')))}
                  sx={{ flex: 'none' }}
                >
                  {translate('shell.terminal.run')}
                </Button>
              </Box>
            ))}
          </Stack>
        </Box>
        <Box component="section" aria-labelledby={`${titleId}-history`}>
          <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
            <Typography id={`${titleId}-history`} component="h3" variant="subtitle1" sx={{ flex: 1 }}>
              {translate('shell.terminal.history')}
            </Typography>
            {runs.some((run) => run.status === 'success' || run.status === 'failed') && (
              <Button size="small" onClick={clearFinishedRuns}>
                {translate('shell.terminal.clear')}
              </Button>
            )}
          </Box>
          {runs.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {translate('shell.terminal.empty')}
            </Typography>
          ) : (
            <Stack spacing={1.5}>
              {runs.map((run) => (
                <RunCard key={run.id} run={run} focused={run.id === started} />
              ))}
            </Stack>
          )}
        </Box>
      </Stack>
    </Drawer>
  );
}
