import { useTheme } from '@mui/material/styles';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** What a series counts: whole numbers (starts, completes) or yuan. */
type ChartUnit = 'count' | 'money';

interface ChartSeries {
  /** key of the value in each point */
  key: string;
  label: string;
  color: string;
  /** default `count` */
  unit?: ChartUnit;
}

const TICK_FORMAT: Record<ChartUnit, (value: number) => string> = {
  count: (value) => String(value),
  money: (value) => `¥${value}`,
};

/**
 * Values per day as lines (both areas' overview pages): `points` oldest first, each `{date, <key>: n}`.
 * The x axis shows `MM-DD`; the tooltip the whole date. One unit per y axis: series of a second unit
 * (yuan beside counts) are read against their own axis on the right, its ticks in that unit.
 */
export function DailyChart({ points, series, height = 260, label }: { points: Record<string, number | string>[]; series: ChartSeries[]; height?: number; label: string }) {
  const theme = useTheme();
  const muted = theme.palette.text.secondary;
  const units = [...new Set(series.map((item) => item.unit ?? 'count'))];
  return (
    <div role="img" aria-label={label} style={{ width: '100%', height }}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: units.length > 1 ? 0 : 16, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
          <XAxis dataKey="date" tickFormatter={(date: string) => date.slice(5)} tick={{ fill: muted, fontSize: 12 }} />
          {units.map((unit, index) => (
            <YAxis
              key={unit}
              yAxisId={unit}
              orientation={index === 0 ? 'left' : 'right'}
              allowDecimals={unit === 'money'}
              tickFormatter={TICK_FORMAT[unit]}
              tick={{ fill: muted, fontSize: 12 }}
            />
          ))}
          <Tooltip contentStyle={{ background: theme.palette.background.paper, borderColor: theme.palette.divider }} />
          <Legend />
          {series.map((item) => (
            <Line key={item.key} yAxisId={item.unit ?? 'count'} type="monotone" dataKey={item.key} name={item.label} stroke={item.color} strokeWidth={2} dot={false} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
