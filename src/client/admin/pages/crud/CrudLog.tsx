import { useEffect, useState } from 'react';
import { Alert, Box, Button, Chip, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useLocale, useTranslate } from 'react-admin';
import { formatDateTime } from '../../fields/value-format.js';
import { crudApi, moduleTitleOf, refusalOf, type LogEntry } from './crud-api.js';
import { DeleteDialog } from './DeleteDialog.js';
import { designOf, type DesignDraft } from './design-model.js';
import { GenerateDialog } from './GenerateDialog.js';
import { HistoryDialog } from './HistoryDialog.js';

/** Every generate, newest first: edit a live module from its last design, see its versions, delete it. */

const STATUS_COLORS: Readonly<Record<string, 'success' | 'default' | 'error' | 'info'>> = { success: 'success', delete: 'default', error: 'error', start: 'info' };

interface CrudLogProps {
  /** changes when a generate or delete happened elsewhere on the page, to read the log again */
  version: number;
  onEdit(id: number): void;
  /** a module was deleted or a version restored */
  onChanged(): void;
}

export function CrudLog({ version, onEdit, onChanged }: CrudLogProps) {
  const translate = useTranslate();
  const locale = useLocale();
  const [list, setList] = useState<LogEntry[]>();
  const [problem, setProblem] = useState<string>();
  const [history, setHistory] = useState<{ table: string; title: string }>();
  const [deleting, setDeleting] = useState<LogEntry>();
  const [restoring, setRestoring] = useState<{ design: DesignDraft; version: number; title: string }>();

  /** Restore a version: its design, as the log holds it, goes through the generate step like any change. */
  const restore = async (logId: number, version: number, title: string) => {
    try {
      const start = await crudApi.logStart(logId);
      setHistory(undefined);
      setRestoring({ design: designOf('log', start.table, start.fields, true), version, title });
    } catch (error) {
      setProblem(refusalOf(error).message);
    }
  };

  useEffect(() => {
    crudApi.log().then(setList, (error: unknown) => setProblem(refusalOf(error).message));
  }, [version]);

  if (problem) return <Alert severity="error">{problem}</Alert>;
  if (list && list.length === 0) return <Typography color="text.secondary">{translate('crud.log.empty')}</Typography>;
  // Only the newest entry of a table stands for its module; older ones are its earlier designs.
  const newest = new Set<number>();
  const seen = new Set<string>();
  for (const entry of list ?? []) {
    if (!seen.has(entry.table_name)) newest.add(entry.id);
    seen.add(entry.table_name);
  }
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label={translate('crud.log.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('crud.log.module')}</TableCell>
              <TableCell>{translate('crud.log.status')}</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{translate('crud.log.time')}</TableCell>
              <TableCell>{translate('crud.log.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(list ?? []).map((entry) => {
              const live = entry.status === 'success' && newest.has(entry.id);
              const title = moduleTitleOf(entry, locale);
              return (
                <TableRow key={entry.id}>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    <Box component="span" sx={{ display: 'block' }}>
                      {title}
                    </Box>
                    {title !== entry.table_name && (
                      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                        {translate('crud.log.tableName', { name: entry.table_name })}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Chip size="small" color={STATUS_COLORS[entry.status] ?? 'default'} label={translate(`crud.log.statuses.${entry.status}`, { _: entry.status })} />
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, whiteSpace: 'nowrap' }}>{formatDateTime(entry.create_time)}</TableCell>
                  <TableCell>
                    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                      <Button size="small" onClick={() => onEdit(entry.id)} aria-label={`${translate(live ? 'crud.log.edit' : 'crud.log.startFrom')}: ${title} #${entry.id}`}>
                        {translate(live ? 'crud.log.edit' : 'crud.log.startFrom')}
                      </Button>
                      {newest.has(entry.id) && (
                        <Button size="small" onClick={() => setHistory({ table: entry.table_name, title })} aria-label={`${translate('crud.log.history')}: ${title}`}>
                          {translate('crud.log.history')}
                        </Button>
                      )}
                      {live && (
                        <Button size="small" color="error" onClick={() => setDeleting(entry)} aria-label={`${translate('crud.log.delete')}: ${title}`}>
                          {translate('crud.log.delete')}
                        </Button>
                      )}
                    </Stack>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {history && <HistoryDialog table={history.table} title={history.title} onClose={() => setHistory(undefined)} onRestore={(logId, version) => void restore(logId, version, history.title)} />}
      {restoring && (
        <GenerateDialog
          design={restoring.design}
          title={translate('crud.generate.restoreTitle', { version: restoring.version, name: restoring.title })}
          onClose={() => setRestoring(undefined)}
          onGenerated={() => {
            setRestoring(undefined);
            onChanged();
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          entry={deleting}
          onClose={() => setDeleting(undefined)}
          onDeleted={() => {
            setDeleting(undefined);
            onChanged();
          }}
        />
      )}
    </>
  );
}
