import { useCallback, useState } from 'react';
import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../../format/datetime.js';
import { accountApi, type AccountApi, type LedgerRow } from '../../account-api.js';
import { PageCard } from '../common/PageCard.js';
import { RecordTable, type RecordColumn } from '../common/RecordTable.js';
import { PointsExchange } from './PointsExchange.js';
import '../../member-home.css';

/**
 * `account/balance` and `account/integral`: the member's ledger, newest first, with the change, before and after;
 * the balance page starts with the balance as the server counts it at each read of the ledger, the points page
 * with the exchange of points for balance (or what points are for), which shows the points.
 */
export function LedgerPage({ kind, api = accountApi }: { kind: 'balance' | 'integral'; api?: AccountApi }) {
  const translate = useTranslate();
  // A new loader (after an exchange) makes the log start again from its first page.
  const [round, setRound] = useState(0);
  const [current, setCurrent] = useState<string | number | undefined>(undefined);
  const load = useCallback(
    async (page: number, limit: number) => {
      const answer = await api.ledger(kind, page, limit);
      setCurrent(answer.current);
      return answer;
    },
    [api, kind, round],
  );
  const money = kind === 'balance';
  const amount = (value: string | number | undefined) => (money ? `¥${String(value ?? '0.00')}` : String(value ?? 0));
  const columns: RecordColumn<LedgerRow>[] = [
    {
      key: 'change',
      label: translate('memberAccount.ledger.change'),
      render: (row) => {
        const change = money ? Number(row.money) : Number(row.score);
        return (
          <Typography component="span" variant="body2" sx={{ color: change < 0 ? 'error.main' : 'success.main', fontWeight: 600 }}>
            {change > 0 ? '+' : ''}
            {money ? row.money : row.score}
          </Typography>
        );
      },
    },
    { key: 'before', label: translate('memberAccount.ledger.before'), render: (row) => amount(row.before) },
    { key: 'after', label: translate('memberAccount.ledger.after'), render: (row) => amount(row.after) },
    { key: 'memo', label: translate('memberAccount.ledger.memo'), render: (row) => row.memo || '-' },
    { key: 'time', label: translate('memberAccount.ledger.time'), render: (row) => formatDateTime(row.create_time) },
  ];
  const title = translate(`memberAccount.ledger.${kind}`);
  return (
    <PageCard title={title}>
      {kind === 'integral' && <PointsExchange onExchanged={() => setRound((value) => value + 1)} />}
      {money && current !== undefined && (
        <div className="ba-member__stats ba-member__stats--lead">
          <div className="ba-member__stat" data-testid="ledger-current">
            <span>{translate('memberAccount.ledger.current')}</span>
            <strong>{amount(current)}</strong>
          </div>
        </div>
      )}
      <RecordTable load={load} columns={columns} label={title} empty={translate('memberAccount.ledger.empty')} />
    </PageCard>
  );
}
