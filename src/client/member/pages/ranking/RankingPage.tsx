import { useEffect, useState } from 'react';
import { Alert, Avatar, Chip, List, ListItem, ListItemAvatar, ListItemText, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../../format/datetime.js';
import { httpClient, type HttpClient } from '../../../http/index.js';
import { messageOf } from '../../../http/error-body.js';
import { PageCard } from '../common/PageCard.js';

const RANKING_PERIODS = ['day', 'week', 'month', 'all'] as const;
const RANKING_METRICS = ['money', 'completes'] as const;
type Period = (typeof RANKING_PERIODS)[number];
/** Minutes are enough to say when a snapshot is from and when the next one comes. */
const TIME_FORMAT = 'yyyy-mm-dd hh:MM';
type Metric = (typeof RANKING_METRICS)[number];

interface Ranking {
  /** Unix seconds: when the snapshot was computed, and from when the next view computes it again */
  computed_at: number;
  refresh_at: number;
  list: { rank: number; nickname: string; avatar: string; value: string | number; is_me: boolean }[];
  mine: { rank: number | null; value: string | number };
}

function loadRanking(period: Period, metric: Metric, client: HttpClient = httpClient): Promise<Ranking> {
  return client.request<Ranking>('/api/account/getUserRanking', { area: 'user', showErrorMessage: false, params: { period, metric } }).then((answer) => answer.data);
}

/** One exclusive choice of the board (its period or its measure): a toggle button per option. */
function ChoiceToggle<T extends string>({ name, options, value, onChange }: { name: 'period' | 'metric'; options: readonly T[]; value: T; onChange(next: NoInfer<T>): void }) {
  const translate = useTranslate();
  return (
    <ToggleButtonGroup size="small" exclusive value={value} onChange={(_, next: T | null) => next && onChange(next)} aria-label={translate(`memberRanking.${name}`)}>
      {options.map((item) => (
        <ToggleButton key={item} value={item}>
          {translate(`memberRanking.${name}s.${item}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

/** `survey/ranking`: the top members of a period by earnings or completes, and the member's own rank. */
export function RankingPage({ load = loadRanking }: { load?: (period: Period, metric: Metric) => Promise<Ranking> }) {
  const translate = useTranslate();
  const [period, setPeriod] = useState<Period>('month');
  const [metric, setMetric] = useState<Metric>('money');
  const [ranking, setRanking] = useState<Ranking | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    setFailure(undefined);
    load(period, metric).then(
      (loaded) => alive && setRanking(loaded),
      (error: unknown) => alive && setFailure(messageOf(error)),
    );
    return () => {
      alive = false;
    };
  }, [load, period, metric]);
  const shown = (value: string | number) => (metric === 'money' ? `¥${value}` : translate('memberRanking.completes', { smart_count: Number(value) }));
  return (
    <PageCard title={translate('memberRanking.title')} maxWidth={720}>
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', mb: 2 }}>
        <ChoiceToggle name="period" options={RANKING_PERIODS} value={period} onChange={setPeriod} />
        <ChoiceToggle name="metric" options={RANKING_METRICS} value={metric} onChange={setMetric} />
      </Stack>
      {failure && <Alert severity="error">{failure}</Alert>}
      {ranking && (
        <>
          <Typography data-testid="my-rank" sx={{ mb: 1 }}>
            {ranking.mine.rank ? translate('memberRanking.mine', { rank: ranking.mine.rank, value: shown(ranking.mine.value) }) : translate('memberRanking.unranked')}
          </Typography>
          {/* Rankings are snapshots: a member who just earned learns when the ranking will count it. */}
          <Typography variant="body2" color="text.secondary" data-testid="ranking-times" sx={{ mb: 1 }}>
            {translate('memberRanking.updated', { time: formatDateTime(ranking.computed_at, TIME_FORMAT), next: formatDateTime(ranking.refresh_at, TIME_FORMAT) })}
          </Typography>
          {ranking.list.length === 0 ? (
            <Typography color="text.secondary">{translate('memberRanking.empty')}</Typography>
          ) : (
            <List dense aria-label={translate('memberRanking.title')}>
              {ranking.list.map((row) => (
                <ListItem key={row.rank} secondaryAction={<strong>{shown(row.value)}</strong>} sx={{ bgcolor: row.is_me ? 'action.selected' : undefined, borderRadius: 1 }}>
                  <Typography sx={{ width: 32, fontWeight: 600 }}>{row.rank}</Typography>
                  <ListItemAvatar>
                    <Avatar src={row.avatar || '/static/images/avatar.png'} alt="" />
                  </ListItemAvatar>
                  <ListItemText primary={row.nickname} />
                  {row.is_me && <Chip size="small" color="primary" label={translate('memberRanking.me')} sx={{ mr: 10 }} />}
                </ListItem>
              ))}
            </List>
          )}
        </>
      )}
    </PageCard>
  );
}
