import { useTheme } from '@mui/material';
import { useEffect, useState } from 'react';
import { DailyChart } from '../../../components/charts/DailyChart.js';
import { httpClient, type HttpClient } from '../../../http/index.js';
import type { Translate } from '../../../i18n/translate.js';

/** `GET /api/account/getUserData` and `getUserCharts?period=7`: the member's own figures. */
interface MemberFigures {
  data: { today: { money: string; completes: number }; month: { money: string; completes: number }; total: { money: string; completes: number } };
  charts: { days: string[]; money: string[]; completes: number[] };
}

async function loadMemberFigures(client: HttpClient = httpClient): Promise<MemberFigures> {
  const quiet = { area: 'user' as const, showErrorMessage: false };
  const [data, charts] = await Promise.all([
    client.request<MemberFigures['data']>('/api/account/getUserData', quiet),
    client.request<MemberFigures['charts']>('/api/account/getUserCharts', { ...quiet, params: { period: 7 } }),
  ]);
  return { data: data.data, charts: charts.data };
}

/** Earnings and completes today, this month and in all, and the last 7 days as a chart (messages: `member/home`). */
export function OverviewFigures({ t, load = loadMemberFigures }: { t: Translate; load?: () => Promise<MemberFigures> }) {
  // The lines and their names in the tooltip take the theme's tones, readable on the card.
  const { palette } = useTheme();
  const [figures, setFigures] = useState<MemberFigures | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    load().then(
      (loaded) => alive && setFigures(loaded),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [load]);
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
            <span>{t('memberHome.figures.completes', { count: value.completes })}</span>
          </div>
        ))}
      </div>
      <DailyChart
        label={t('memberHome.figures.title')}
        points={points}
        height={220}
        series={[
          { key: 'money', label: t('memberHome.figures.money'), color: palette.success.main },
          { key: 'completes', label: t('memberHome.figures.completesLine'), color: palette.primary.main },
        ]}
      />
    </section>
  );
}
