import { useEffect, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../fields/value-format.js';
import { crudApi, refusalOf, type HistoryEntry } from './crud-api.js';

/**
 * A designed module's versions (who, when, what changed, as a list of changes in the admin's language),
 * the changes between any two of them, and "restore this version" on each earlier one: its design opens in
 * the generate step, which shows what it changes (and what it would lose) before making it a new version.
 */

function ChangeList({ lines, label }: { lines: string[]; label: string }) {
  const translate = useTranslate();
  if (lines.length === 0) return <Typography variant="body2" color="text.secondary">{translate('crud.history.noChanges')}</Typography>;
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, pl: 3, '& li': { py: 0.25, wordBreak: 'break-word' } }}>
      {lines.map((line, index) => (
        <Typography component="li" variant="body2" key={index}>
          {line}
        </Typography>
      ))}
    </Box>
  );
}

interface HistoryDialogProps {
  table: string;
  /** the module as the log names it */
  title: string;
  onClose(): void;
  /** restore a version: the log entry of its design, and its number */
  onRestore(logId: number, version: number): void;
}

export function HistoryDialog({ table, title, onClose, onRestore }: HistoryDialogProps) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [list, setList] = useState<HistoryEntry[]>();
  const [problem, setProblem] = useState<string>();
  const [between, setBetween] = useState<[number, number]>();
  const [changes, setChanges] = useState<string[]>();

  useEffect(() => {
    crudApi.history(table).then(
      (answer) => {
        setList(answer.list);
        const versions = answer.list.filter((entry) => entry.action !== 'delete').map((entry) => entry.version);
        if (versions.length > 1) setBetween([versions[versions.length - 1], versions[0]]);
      },
      (error: unknown) => setProblem(refusalOf(error).message),
    );
  }, [table]);
  useEffect(() => {
    if (!between) return;
    crudApi.history(table, between).then(
      (answer) => setChanges(answer.changes ?? []),
      (error: unknown) => setProblem(refusalOf(error).message),
    );
  }, [table, between]);

  const versions = (list ?? []).filter((entry) => entry.action !== 'delete');
  // the version running now is the newest, unless the module was deleted since
  const current = list?.[0]?.action === 'delete' ? undefined : list?.[0]?.id;
  const pick = (index: 0 | 1, value: number) => setBetween((now) => (now ? (index === 0 ? [value, now[1]] : [now[0], value]) : now));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="crud-history-title">
      <DialogTitle id="crud-history-title">{translate('crud.history.title', { name: title })}</DialogTitle>
      <DialogContent dividers>
        {problem && <Alert severity="error">{problem}</Alert>}
        {between && (
          <Stack spacing={1} sx={{ mb: 3 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {([0, 1] as const).map((index) => (
                <TextField key={index} select size="small" label={translate(index === 0 ? 'crud.history.from' : 'crud.history.to')} value={between[index]} onChange={(event) => pick(index, Number(event.target.value))} sx={{ minWidth: 200 }}>
                  {versions.map((entry) => (
                    <MenuItem key={entry.id} value={entry.version}>
                      {translate('crud.history.version', { version: entry.version })}
                    </MenuItem>
                  ))}
                </TextField>
              ))}
            </Stack>
            {changes && (between[0] === between[1] || changes.length === 0 ? <Typography color="text.secondary">{translate('crud.history.same')}</Typography> : <ChangeList lines={changes} label={translate('crud.history.between')} />)}
          </Stack>
        )}
        <Stack spacing={2}>
          {(list ?? []).map((entry) => {
            const name = translate('crud.history.version', { version: entry.version });
            const restorable = entry.id === current ? null : entry.logId;
            return (
              <Box key={entry.id} component="section" aria-label={name}>
                <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1 }}>
                  <Typography variant="subtitle2" component="h3" sx={{ flex: 1, minWidth: 200 }}>
                    {`${name} · ${translate(`crud.history.actions.${entry.action}`)} · ${entry.adminUsername} · ${formatDateTime(entry.createTime)}`}
                  </Typography>
                  {entry.id === current && <Typography variant="body2" color="text.secondary">{translate('crud.history.current')}</Typography>}
                  {restorable !== null && (
                    <Button size="small" onClick={() => onRestore(restorable, entry.version)} aria-label={translate('crud.history.restoreVersion', { version: entry.version })}>
                      {translate('crud.history.restore')}
                    </Button>
                  )}
                </Stack>
                <ChangeList lines={entry.changes} label={translate('crud.history.changesOf', { version: entry.version })} />
              </Box>
            );
          })}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
