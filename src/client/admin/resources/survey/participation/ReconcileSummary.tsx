import { Alert, Box, List, ListItem, Table, TableBody, TableCell, TableFooter, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { signedYuan } from '../../../../../contract/money.js';
import type { ReconcileAnswer, ReconcileMember, ReconcileRow } from '../../../../../contract/reconcile.js';
import { CELL_WORDS_SX } from '../../../../components/cell-words.js';

function formatPoints(points: number): string {
  return points > 0 ? `+${points}` : String(points);
}

const PAGE = 10;

/**
 * A table a page at a time, so a provider's file of thousands of rows stays readable; it scrolls sideways on a
 * phone. `keepWords`: its cells keep words whole (`CELL_WORDS_SX`: names and labels); the dry run's rows
 * (ids, outcomes) wrap anywhere so that the table fits a phone's dialog.
 */
function PagedTable<T>({ rows, label, head, row, footer, keepWords = false }: { rows: T[]; label: string; head: ReactNode; row: (item: T, index: number) => ReactNode; footer?: ReactNode; keepWords?: boolean }) {
  const translate = useTranslate();
  const [page, setPage] = useState(0);
  const shown = rows.slice(page * PAGE, page * PAGE + PAGE);
  return (
    <Box sx={{ overflowX: 'auto', mt: 1 }}>
      <Table size="small" aria-label={label} sx={keepWords ? { '& td': CELL_WORDS_SX } : undefined}>
        <TableHead>{head}</TableHead>
        <TableBody>{shown.map((item, index) => row(item, page * PAGE + index))}</TableBody>
        {footer && <TableFooter>{footer}</TableFooter>}
      </Table>
      {rows.length > PAGE && (
        <TablePagination
          component="div"
          count={rows.length}
          page={page}
          onPageChange={(_event, next) => setPage(next)}
          rowsPerPage={PAGE}
          rowsPerPageOptions={[PAGE]}
          labelDisplayedRows={({ from, to, count }) => translate('survey.reconcile.pageOf', { from, to, count })}
        />
      )}
    </Box>
  );
}

const numeric = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/**
 * What a dry run (or the apply) says it does: how many participations become complete, are reversed,
 * stay, or are refused (by reason); each member's balance and points change, and (with a hold period) what
 * lands as pending rather than available; and the rows as listed.
 */
export function ReconcileSummary({ plan }: { plan: ReconcileAnswer }) {
  const translate = useTranslate();
  const tr = (key: string, options: Record<string, unknown> = {}) => translate(`survey.reconcile.${key}`, options);
  const { counts, totals } = plan;
  // Pending figures only where a hold period makes some: a plan without one reads as before.
  const showPending = plan.held > 0 || plan.members.some((member) => member.pending_money_cents !== 0 || member.pending_score !== 0);
  const result = (row: ReconcileRow) => {
    if (!row.ok) return row.message;
    if (row.outcome === 'unchanged') return tr('unchanged');
    return row.message || tr('willApply');
  };
  return (
    <Box sx={{ mt: 2 }}>
      <Alert severity={counts.refused > 0 ? 'warning' : 'info'}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {tr('counts', counts)}
        </Typography>
        <Typography variant="body2">
          {plan.listed.column
            ? tr('readColumn', { smart_count: plan.listed.ids, column: plan.listed.column })
            : tr('read', { smart_count: plan.listed.ids })}
        </Typography>
        {plan.held > 0 && <Typography variant="body2">{tr('held', { smart_count: plan.held })}</Typography>}
        {showPending && (
          <Typography variant="body2">
            {tr('pendingChange', { money: signedYuan(totals.pending_money_cents), points: formatPoints(totals.pending_score) })}
          </Typography>
        )}
      </Alert>
      {plan.refusals.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>{tr('refusals')}</Typography>
          <List dense disablePadding>
            {plan.refusals.map((refusal) => (
              <ListItem key={refusal.message} disableGutters>{tr('refusalCount', refusal)}</ListItem>
            ))}
          </List>
        </>
      )}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>{tr('members')}</Typography>
      {plan.members.length === 0 ? (
        <Typography variant="body2" color="text.secondary">{tr('noMembers')}</Typography>
      ) : (
        <PagedTable<ReconcileMember>
          keepWords
          rows={plan.members}
          label={tr('members')}
          head={
            <TableRow>
              <TableCell>{tr('member')}</TableCell>
              <TableCell align="right">{tr('money')}</TableCell>
              <TableCell align="right">{tr('points')}</TableCell>
              {showPending && <TableCell align="right">{tr('pendingMoney')}</TableCell>}
              {showPending && <TableCell align="right">{tr('pendingPoints')}</TableCell>}
            </TableRow>
          }
          row={(member) => (
            <TableRow key={member.user_id}>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{member.username} (#{member.user_id})</TableCell>
              <TableCell align="right" sx={numeric}>{signedYuan(member.money_cents)}</TableCell>
              <TableCell align="right" sx={numeric}>{formatPoints(member.score)}</TableCell>
              {showPending && <TableCell align="right" sx={numeric}>{signedYuan(member.pending_money_cents)}</TableCell>}
              {showPending && <TableCell align="right" sx={numeric}>{formatPoints(member.pending_score)}</TableCell>}
            </TableRow>
          )}
          footer={
            <TableRow>
              <TableCell>{tr('total', { smart_count: plan.members.length })}</TableCell>
              <TableCell align="right" sx={numeric}>{signedYuan(totals.money_cents)}</TableCell>
              <TableCell align="right" sx={numeric}>{formatPoints(totals.score)}</TableCell>
              {showPending && <TableCell align="right" sx={numeric}>{signedYuan(totals.pending_money_cents)}</TableCell>}
              {showPending && <TableCell align="right" sx={numeric}>{formatPoints(totals.pending_score)}</TableCell>}
            </TableRow>
          }
        />
      )}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>{tr('previewTable')}</Typography>
      <PagedTable<ReconcileRow>
        rows={plan.rows}
        label={tr('previewTable')}
        head={
          <TableRow>
            <TableCell>RID</TableCell>
            <TableCell>{tr('change')}</TableCell>
            <TableCell>{tr('result')}</TableCell>
          </TableRow>
        }
        row={(row, index) => (
          <TableRow key={index}>
            <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all', minWidth: 120 }}>
              {row.id || row.rid}
              {row.id === '' && <Typography component="span" variant="caption" sx={{ display: 'block', fontFamily: 'inherit' }}>{tr('unlisted')}</Typography>}
              {row.matched === 'provider_txid' && <Typography component="span" variant="caption" sx={{ display: 'block' }}>{tr('matchedTxid', { rid: row.rid })}</Typography>}
            </TableCell>
            <TableCell>{row.change || '-'}</TableCell>
            <TableCell>{result(row)}</TableCell>
          </TableRow>
        )}
      />
    </Box>
  );
}
