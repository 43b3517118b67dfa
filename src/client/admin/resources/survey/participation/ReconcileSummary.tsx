import { Alert, Box, List, ListItem, Table, TableBody, TableCell, TableFooter, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import type { ReconcileAnswer, ReconcileMember, ReconcileRow } from '../../../../../contract/reconcile.js';

/** Cents as the back office reads money: `+¥1.40`, `-¥1.50`, `¥0.00`. */
function formatCents(cents: number): string {
  const sign = cents > 0 ? '+' : cents < 0 ? '-' : '';
  return `${sign}¥${(Math.abs(cents) / 100).toFixed(2)}`;
}

function formatPoints(points: number): string {
  return points > 0 ? `+${points}` : String(points);
}

const PAGE = 10;

/** A table a page at a time, so a provider's file of thousands of rows stays readable; it scrolls sideways on a phone. */
function PagedTable<T>({ rows, label, head, row, footer }: { rows: T[]; label: string; head: ReactNode; row: (item: T, index: number) => ReactNode; footer?: ReactNode }) {
  const translate = useTranslate();
  const [page, setPage] = useState(0);
  const shown = rows.slice(page * PAGE, page * PAGE + PAGE);
  return (
    <Box sx={{ overflowX: 'auto', mt: 1 }}>
      <Table size="small" aria-label={label}>
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
          labelDisplayedRows={({ from, to, count }) => translate('survey.reconcile.pageOf', { _: '%{from}–%{to} of %{count}', from, to, count })}
        />
      )}
    </Box>
  );
}

const numeric = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/**
 * What a dry run (or the apply) says it does: how many participations become complete, are reversed,
 * stay, or are refused (by reason); each member's balance and points change; and the rows as listed.
 */
export function ReconcileSummary({ plan }: { plan: ReconcileAnswer }) {
  const translate = useTranslate();
  const tr = (key: string, fallback: string, options: Record<string, unknown> = {}) => translate(`survey.reconcile.${key}`, { _: fallback, ...options });
  const { counts } = plan;
  const result = (row: ReconcileRow) => {
    if (!row.ok) return row.message;
    if (row.outcome === 'unchanged') return tr('unchanged', 'Stays as it is');
    return row.message || tr('willApply', 'Will change');
  };
  return (
    <Box sx={{ mt: 2 }}>
      <Alert severity={counts.refused > 0 ? 'warning' : 'info'}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {tr('counts', '%{complete} become complete, %{reversed} reversed, %{unchanged} unchanged, %{refused} refused', counts)}
        </Typography>
        <Typography variant="body2">
          {plan.listed.column
            ? tr('readColumn', '%{ids} ids read from the column “%{column}”', { ids: plan.listed.ids, column: plan.listed.column })
            : tr('read', '%{ids} ids read', { ids: plan.listed.ids })}
        </Typography>
      </Alert>
      {plan.refusals.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>{tr('refusals', 'Refused')}</Typography>
          <List dense disablePadding>
            {plan.refusals.map((refusal) => (
              <ListItem key={refusal.message} disableGutters>{tr('refusalCount', '%{count} × %{message}', refusal)}</ListItem>
            ))}
          </List>
        </>
      )}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>{tr('members', 'Members’ balances and points')}</Typography>
      {plan.members.length === 0 ? (
        <Typography variant="body2" color="text.secondary">{tr('noMembers', 'No balance or points change')}</Typography>
      ) : (
        <PagedTable<ReconcileMember>
          rows={plan.members}
          label={tr('members', 'Members’ balances and points')}
          head={
            <TableRow>
              <TableCell>{tr('member', 'Member')}</TableCell>
              <TableCell align="right">{tr('money', 'Balance')}</TableCell>
              <TableCell align="right">{tr('points', 'Points')}</TableCell>
            </TableRow>
          }
          row={(member) => (
            <TableRow key={member.user_id}>
              <TableCell sx={{ wordBreak: 'break-all' }}>{member.username} (#{member.user_id})</TableCell>
              <TableCell align="right" sx={numeric}>{formatCents(member.money_cents)}</TableCell>
              <TableCell align="right" sx={numeric}>{formatPoints(member.score)}</TableCell>
            </TableRow>
          )}
          footer={
            <TableRow>
              <TableCell>{tr('total', 'Total (%{count} members)', { count: plan.members.length })}</TableCell>
              <TableCell align="right" sx={numeric}>{formatCents(plan.totals.money_cents)}</TableCell>
              <TableCell align="right" sx={numeric}>{formatPoints(plan.totals.score)}</TableCell>
            </TableRow>
          }
        />
      )}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>{tr('previewTable', 'Records')}</Typography>
      <PagedTable<ReconcileRow>
        rows={plan.rows}
        label={tr('previewTable', 'Records')}
        head={
          <TableRow>
            <TableCell>RID</TableCell>
            <TableCell>{tr('change', 'Change')}</TableCell>
            <TableCell>{tr('result', 'Result')}</TableCell>
          </TableRow>
        }
        row={(row, index) => (
          <TableRow key={index}>
            <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all', minWidth: 120 }}>
              {row.id || row.rid}
              {row.id === '' && <Typography component="span" variant="caption" sx={{ display: 'block', fontFamily: 'inherit' }}>{tr('unlisted', 'not listed')}</Typography>}
              {row.matched === 'provider_txid' && <Typography component="span" variant="caption" sx={{ display: 'block' }}>{tr('matchedTxid', 'provider transaction id of %{rid}', { rid: row.rid })}</Typography>}
            </TableCell>
            <TableCell>{row.change || '-'}</TableCell>
            <TableCell>{result(row)}</TableCell>
          </TableRow>
        )}
      />
    </Box>
  );
}
