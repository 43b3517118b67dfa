import { useEffect, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../fields/value-format.js';
import { crudApi, refusalOf, type HistoryEntry } from './crud-api.js';

/** A designed module's versions (who, when, what changed) and the difference between any two of them. */

function DiffLines({ lines, label }: { lines: string[]; label: string }) {
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, p: 1, listStyle: 'none', fontFamily: 'monospace', fontSize: 12, bgcolor: 'action.hover', borderRadius: 1, overflowX: 'auto' }}>
      {lines.map((line, index) => (
        <Box component="li" key={index} sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', color: line.startsWith('+') ? 'success.main' : line.startsWith('-') ? 'error.main' : 'text.primary' }}>
          {line}
        </Box>
      ))}
    </Box>
  );
}

export function HistoryDialog({ table, onClose }: { table: string; onClose(): void }) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [list, setList] = useState<HistoryEntry[]>();
  const [problem, setProblem] = useState<string>();
  const [between, setBetween] = useState<[number, number]>();
  const [diff, setDiff] = useState<string[]>();

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
      (answer) => setDiff(answer.diff ?? []),
      (error: unknown) => setProblem(refusalOf(error).message),
    );
  }, [table, between]);

  const versions = (list ?? []).filter((entry) => entry.action !== 'delete');
  const pick = (index: 0 | 1, value: number) => setBetween((current) => (current ? (index === 0 ? [value, current[1]] : [current[0], value]) : current));
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="crud-history-title">
      <DialogTitle id="crud-history-title">{translate('crud.history.title', { name: table })}</DialogTitle>
      <DialogContent dividers>
        {problem && <Alert severity="error">{problem}</Alert>}
        {between && (
          <Stack spacing={1} sx={{ mb: 3 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {([0, 1] as const).map((index) => (
                <TextField key={index} select size="small" label={translate(index === 0 ? 'crud.history.from' : 'crud.history.to')} value={between[index]} onChange={(event) => pick(index, Number(event.target.value))} sx={{ minWidth: 200 }}>
                  {versions.map((entry) => (
                    <MenuItem key={entry.version} value={entry.version}>
                      {translate('crud.history.version', { version: entry.version })}
                    </MenuItem>
                  ))}
                </TextField>
              ))}
            </Stack>
            {diff && (diff.length ? <DiffLines lines={diff} label={translate('crud.history.between')} /> : <Typography color="text.secondary">{translate('crud.history.same')}</Typography>)}
          </Stack>
        )}
        <Stack spacing={2}>
          {(list ?? []).map((entry) => (
            <Box key={entry.id} component="section" aria-label={translate('crud.history.version', { version: entry.version })}>
              <Typography variant="subtitle2" component="h3">
                {`${translate('crud.history.version', { version: entry.version })} · ${translate(`crud.history.actions.${entry.action}`)} · ${entry.adminUsername} · ${formatDateTime(entry.createTime)}`}
              </Typography>
              <DiffLines lines={entry.diff} label={translate('crud.history.changes')} />
            </Box>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
