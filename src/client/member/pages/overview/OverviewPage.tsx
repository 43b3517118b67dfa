import { Avatar, Box, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { previousLoginText } from '../../../format/previous-login.js';
import { useMemberBootstrap } from '../../shell/member-bootstrap.js';
import { PageCard } from '../common/PageCard.js';
import { OverviewFigures } from './OverviewFigures.js';
import { hasPending, PendingCreditList, pendingTotalText, usePendingCredits } from './PendingCredits.js';
import '../../member-home.css';

/**
 * `account/overview`: who is signed in, balance and points (what is available), what is still pending
 * with the day each credit becomes available, and their earnings with the 7-day chart.
 */
export function OverviewPage() {
  const translate = useTranslate();
  const bootstrap = useMemberBootstrap();
  const info = bootstrap?.userInfo ?? {};
  const pending = usePendingCredits();
  const stats: (readonly [string, string, string])[] = [
    // With credits pending, the balance is named for what it is: what is available now (and to pay out).
    ['balance', translate(hasPending(pending) ? 'memberHome.pending.available' : 'memberHome.balance'), `¥${String(info.money ?? '0.00')}`],
    ...(hasPending(pending) ? [['pending', translate('memberHome.pending.title'), pendingTotalText(translate, pending)] as const] : []),
    ['points', translate('memberHome.points'), String(info.score ?? 0)],
    ['lastLogin', translate('memberHome.lastLogin'), previousLoginText(translate, 'memberHome', bootstrap?.previousLogin)],
  ];
  return (
    <PageCard title={translate('memberShell.menus.account/overview')}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Avatar src={info.avatar || '/static/images/avatar.png'} alt="" sx={{ width: 64, height: 64 }} />
        <Box>
          <Typography variant="h6" component="p">
            {translate('memberHome.welcome', { name: info.nickname || info.username || '' })}
          </Typography>
          {info.motto && <Typography color="text.secondary">{info.motto}</Typography>}
        </Box>
      </Stack>
      <div className="ba-member__stats">
        {stats.map(([key, label, value]) => (
          <div key={key} className="ba-member__stat" data-testid={`stat-${key}`}>
            <span>{label}</span>
            <strong>{value}</strong>
          </div>
        ))}
      </div>
      {hasPending(pending) && <PendingCreditList t={translate} pending={pending} />}
      <OverviewFigures t={translate} />
    </PageCard>
  );
}
