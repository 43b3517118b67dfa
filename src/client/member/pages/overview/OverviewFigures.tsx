import { ToggleButton, ToggleButtonGroup, useTheme } from '@mui/material';
import { useEffect, useState } from 'react';
import { DailyChart } from '../../../components/charts/DailyChart.js';
import { httpClient, type HttpClient } from '../../../http/index.js';
import type { Translate } from '../../../i18n/translate.js';

/** The chart's periods, in days (`getUserCharts?period=`). */
const CHART_PERIODS = [7, 30] as const;
type ChartPeriod = (typeof CHART_PERIODS)[number];

/** `GET /api/account/getUserData` and `getUserCharts?period=7|30`: the member's own figures. */
interface MemberFigures {
  data: { today: { money: string; completes: number }; month: { money: string; completes: number }; total: { money: string; completes: number } };
  charts: { days: string[]; money: string[]; completes: number[] };
}

async function loadMemberFigures(period: ChartPeriod, client: HttpClient = httpClient): Promise<MemberFigures> {
  const quiet = { area: 'user' as const, showErrorMessage: false };
  const [data, charts] = await Promise.all([
    client.request<MemberFigures['data']>('/api/account/getUserData', quiet),
    client.request<MemberFigures['charts']>('/api/account/getUserCharts', { ...quiet, params: { period } }),
  ]);
  return { data: data.data, charts: charts.data };
}

/** Earnings and completes today, this month and in all, and the last 7 or 30 days as a chart (messages: `member/home`). */
export function OverviewFigures({ t, load = loadMemberFigures }: { t: Translate; load?: (period: ChartPeriod) => Promise<MemberFigures> }) {
  // The lines and their names in the tooltip take the theme's tones, readable on the card.
  const { palette } = useTheme();
  const [period, setPeriod] = useState<ChartPeriod>(7);
  const [figures, setFigures] = useState<MemberFigures | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    load(period).then(
      (loaded) => alive && setFigures(loaded),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [load, period]);
  if (!figures) return null;
  const periods = [['today', figures.data.today], ['month', figures.data.month], ['total', figures.data.total]] as const;
  const points = figures.charts.days.map((date, index) => ({ date, money: Number(figures.charts.money[index]), completes: figures.charts.completes[index] }));
  return (
    <section className="ba-member__figures" aria-label={t('memberHome.figures.title')}>
      <div className="ba-member__stats">
        {periods.map(([key, value]) => (
          <div key={key} className="ba-member__stat" data-testid={`earned-${key}`}>
            <span>{t(`memberHome.figures.${key}`)}</span>
            <strong>¥{value.money}</strong>
            <span>{t('memberHome.figures.completes', { smart_count: value.completes })}</span>
          </div>
        ))}
      </div>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={period}
        aria-label={t('memberHome.figures.period')}
        onChange={(_event, next: ChartPeriod | null) => next && setPeriod(next)}
        sx={{ mt: 2, mb: 1 }}
      >
        {CHART_PERIODS.map((days) => (
          <ToggleButton key={days} value={days} sx={{ textTransform: 'none', px: 1.5 }}>
            {t('memberHome.figures.lastDays', { days })}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <DailyChart
        label={t('memberHome.figures.chartOf', { days: period })}
        points={points}
        height={220}
        series={[
          { key: 'money', label: t('memberHome.figures.money'), color: palette.success.main, unit: 'money' },
          { key: 'completes', label: t('memberHome.figures.completesLine'), color: palette.primary.main },
        ]}
      />
    </section>
  );
}
