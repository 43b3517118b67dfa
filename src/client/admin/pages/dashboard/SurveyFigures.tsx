import { Box, Card, CardContent, CardHeader, Table, TableBody, TableCell, TableHead, TableRow, Typography, useTheme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DailyChart } from '../../../components/charts/DailyChart.js';
import { CELL_WORDS_SX } from '../../../components/cell-words.js';

/**
 * What `Dashboard/index` answers beside the remark: the platform's figures, each only to an admin who
 * may read the list it sums (members, surveys, participations, payouts, wall transactions).
 */
export interface DashboardFigures {
  members?: number;
  activeSurveys?: number;
  days?: { date: string; starts: number; completes: number; credited: string }[];
  period?: { starts: number; completes: number; conversion: number; credited: string };
  payoutsPending?: { count: number; amount: string };
  topSurveys?: { id: number; title: string; starts: number; completes: number; credited_money: string }[];
  /** each survey wall's transactions of the period, by their state now; `money`/`score`: what stays credited */
  walls?: { id: number; name: string; credited: number; reversed: number; refused: number; money: string; score: number }[];
}

/** A wall's standing credits: yuan, points, or both when its unit changed during the period. */
function wallAmount(wall: NonNullable<DashboardFigures['walls']>[number]): string {
  const parts = [wall.money !== '0.00' || wall.score === 0 ? `¥${wall.money}` : '', wall.score !== 0 ? String(wall.score) : ''];
  return parts.filter(Boolean).join(' / ');
}

/** Each survey wall's credits, reversals and refusals over the period; nothing while the site has no walls. */
function WallFiguresCard({ walls }: { walls: NonNullable<DashboardFigures['walls']> }) {
  const translate = useTranslate();
  if (walls.length === 0) return null;
  return (
    <Card>
      <CardHeader title={translate('dashboard.figures.walls')} slotProps={{ title: { variant: 'subtitle1', sx: { fontWeight: 600 } } }} sx={{ borderBottom: 1, borderColor: 'divider', py: 1.5 }} />
      <CardContent sx={{ overflowX: 'auto' }}>
        <Table size="small" sx={{ '& td': CELL_WORDS_SX }} aria-label={translate('dashboard.figures.walls')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('dashboard.figures.wall')}</TableCell>
              <TableCell align="right">{translate('dashboard.figures.wallCredited')}</TableCell>
              <TableCell align="right">{translate('dashboard.figures.wallReversed')}</TableCell>
              <TableCell align="right">{translate('dashboard.figures.wallRefused')}</TableCell>
              <TableCell align="right">{translate('dashboard.figures.wallAmount')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {walls.map((wall) => (
              <TableRow key={wall.id}>
                <TableCell>{wall.name}</TableCell>
                <TableCell align="right">{wall.credited}</TableCell>
                <TableCell align="right">{wall.reversed}</TableCell>
                <TableCell align="right">{wall.refused}</TableCell>
                <TableCell align="right">{wallAmount(wall)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** Members, surveys open, 30 days of starts and completes, conversion, money credited, top surveys, survey walls. */
export function SurveyFigures({ figures }: { figures: DashboardFigures }) {
  // The lines and their names in the tooltip take the theme's tones, readable on the card.
  const { palette } = useTheme();
  const translate = useTranslate();
  const { period, payoutsPending, days, topSurveys } = figures;
  const tiles = [
    figures.members === undefined ? undefined : { key: 'members', value: String(figures.members) },
    figures.activeSurveys === undefined ? undefined : { key: 'activeSurveys', value: String(figures.activeSurveys) },
    ...(period
      ? [
          { key: 'periodStarts', value: String(period.starts) },
          { key: 'periodCompletes', value: String(period.completes) },
          { key: 'periodConversion', value: `${period.conversion}%` },
          { key: 'periodCredited', value: `¥${period.credited}` },
        ]
      : []),
    payoutsPending ? { key: 'payoutsPending', value: `${payoutsPending.count} / ¥${payoutsPending.amount}` } : undefined,
  ].filter((tile): tile is { key: string; value: string } => tile !== undefined);
  return (
    <>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)', xl: 'repeat(7, 1fr)' } }}>
        {tiles.map((tile) => (
          <Card key={tile.key}>
            <CardContent sx={{ '&:last-child': { pb: 2 } }}>
              <Typography variant="body2" color="text.secondary">
                {translate(`dashboard.figures.${tile.key}`)}
              </Typography>
              <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid={`figure-${tile.key}`}>
                {tile.value}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: days && topSurveys ? '2fr 1fr' : '1fr' } }}>
        {days && (
        <Card>
          <CardHeader title={translate('dashboard.figures.daily')} slotProps={{ title: { variant: 'subtitle1', sx: { fontWeight: 600 } } }} sx={{ borderBottom: 1, borderColor: 'divider', py: 1.5 }} />
          <CardContent>
            <DailyChart
              label={translate('dashboard.figures.daily')}
              points={days}
              series={[
                { key: 'starts', label: translate('dashboard.figures.starts'), color: palette.primary.main },
                { key: 'completes', label: translate('dashboard.figures.completes'), color: palette.success.main },
              ]}
            />
          </CardContent>
        </Card>
        )}
        {topSurveys && (
        <Card>
          <CardHeader title={translate('dashboard.figures.topSurveys')} slotProps={{ title: { variant: 'subtitle1', sx: { fontWeight: 600 } } }} sx={{ borderBottom: 1, borderColor: 'divider', py: 1.5 }} />
          <CardContent>
            {topSurveys.length === 0 ? (
              <Typography color="text.secondary">{translate('dashboard.figures.noSurveys')}</Typography>
            ) : (
              <Table size="small" sx={{ '& td': CELL_WORDS_SX }} aria-label={translate('dashboard.figures.topSurveys')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('dashboard.figures.survey')}</TableCell>
                    <TableCell align="right">{translate('dashboard.figures.completes')}</TableCell>
                    <TableCell align="right">{translate('dashboard.figures.credited')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {topSurveys.map((survey) => (
                    <TableRow key={survey.id}>
                      <TableCell>{survey.title}</TableCell>
                      <TableCell align="right">{survey.completes}</TableCell>
                      <TableCell align="right">¥{survey.credited_money}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        )}
      </Box>
      <WallFiguresCard walls={figures.walls ?? []} />
    </>
  );
}
