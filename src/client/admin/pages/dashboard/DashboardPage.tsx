import { useEffect, useState } from 'react';
import { Avatar, Box, ButtonBase, Card, CardContent, CardHeader, Chip, Typography } from '@mui/material';
import AccessTimeIcon from '@mui/icons-material/AccessTime';
import VerifiedUserOutlinedIcon from '@mui/icons-material/VerifiedUserOutlined';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import AppsOutlinedIcon from '@mui/icons-material/AppsOutlined';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../../format/datetime.js';
import { previousLoginText } from '../../../format/previous-login.js';
import { httpClient } from '../../../http/index.js';
import { useShellState } from '../../bootstrap-store.js';
import { fullUrl } from '../../fields/value-format.js';
import { MenuIcon } from '../../../components/MenuIcon.js';
import { navPages } from '../../layout/menu-tree.js';
import { useMenuTitle, useOpenNavItem } from '../../layout/use-shell-navigation.js';
import { greetingFor } from './greeting.js';
import { CodeChannelNotice, type CodeChannelWarning } from './CodeChannelNotice.js';
import { SurveyFigures, type DashboardFigures } from './SurveyFigures.js';
import { pageNameOf } from '../../../../contract/view-paths.js';

interface DashboardAnswer {
  remark: string;
  figures?: DashboardFigures;
  /** while no verification code can reach a member */
  codeChannels?: CodeChannelWarning;
}

/**
 * `GET /admin/Dashboard/index` → `{remark, figures, codeChannels?}` (docs/wire-contract.md#dashboard plus our figures);
 * nothing when missing or refused.
 */
function useDashboard(): DashboardAnswer {
  const [answer, setAnswer] = useState<DashboardAnswer>({ remark: '' });
  useEffect(() => {
    let alive = true;
    httpClient.request<Partial<DashboardAnswer>>('/admin/Dashboard/index', { showErrorMessage: false }).then(
      (response) => alive && setAnswer({ remark: typeof response.data?.remark === 'string' ? response.data.remark : '', figures: response.data?.figures, codeChannels: response.data?.codeChannels }),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, []);
  return answer;
}

function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The dashboard (menu component `dashboard`): a greeting by the hour (docs/client.md#greeting) with the dashboard
 * rule's remark, the admin's account facts, the platform's figures, and the menu pages as quick entrances.
 */
export function DashboardPage() {
  const translate = useTranslate();
  const shell = useShellState();
  const { remark, figures, codeChannels } = useDashboard();
  const now = useNow();
  const menuTitle = useMenuTitle();
  const openItem = useOpenNavItem();
  if (!shell) return null;
  const { adminInfo, siteConfig } = shell;
  const name = adminInfo.nickname || adminInfo.username;
  const pages = navPages(shell.nav).filter((page) => pageNameOf(page.rule.component) !== 'dashboard');
  const facts = [
    { icon: <AccessTimeIcon />, label: translate('dashboard.lastLogin'), value: previousLoginText(translate, 'dashboard', shell.previousLogin) },
    { icon: <VerifiedUserOutlinedIcon />, label: translate('dashboard.role'), value: translate(adminInfo.super ? 'dashboard.superAdmin' : 'dashboard.admin') },
    { icon: <AppsOutlinedIcon />, label: translate('dashboard.pages'), value: String(pages.length) },
    { icon: <LocalOfferOutlinedIcon />, label: translate('dashboard.version'), value: siteConfig.version || '-' },
  ];

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Card
        sx={{
          color: '#fff',
          background: (theme) => (theme.palette.mode === 'dark' ? 'linear-gradient(120deg, #1f3a5f 0%, #24446e 100%)' : 'linear-gradient(120deg, #409eff 0%, #2f7be5 60%, #3a63d8 100%)'),
        }}
      >
        <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 3, p: { xs: 2.5, sm: 3.5 }, '&:last-child': { pb: { xs: 2.5, sm: 3.5 } } }}>
          <Avatar src={fullUrl(adminInfo.avatar, siteConfig.cdnUrl)} alt="" sx={{ width: 72, height: 72, border: '3px solid rgba(255,255,255,0.5)', display: { xs: 'none', sm: 'flex' } }} />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="h5" component="h2" sx={{ fontWeight: 600, mb: 0.5 }} data-testid="greeting">
              {translate('dashboard.greeting', { greeting: translate(`dashboard.greetings.${greetingFor(Number(formatDateTime(now, 'hh')))}`), name })}
            </Typography>
            <Typography sx={{ opacity: 0.88 }}>{remark || translate('dashboard.welcome', { site: siteConfig.siteName })}</Typography>
          </Box>
          <Box sx={{ textAlign: 'right', display: { xs: 'none', md: 'block' } }}>
            <Typography variant="h4" component="p" sx={{ fontWeight: 300, lineHeight: 1.1 }}>
              {formatDateTime(now, 'hh:MM')}
            </Typography>
            <Typography variant="body2" sx={{ opacity: 0.85 }}>
              {formatDateTime(now, 'yyyy-mm-dd')}
            </Typography>
          </Box>
        </CardContent>
      </Card>

      {codeChannels && <CodeChannelNotice warning={codeChannels} />}

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' } }}>
        {facts.map((fact) => (
          <Card key={fact.label}>
            <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2, '&:last-child': { pb: 2 } }}>
              <Box sx={{ display: 'inline-flex', p: 1.25, borderRadius: 2, bgcolor: 'action.hover', color: 'primary.main' }}>{fact.icon}</Box>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="body2" color="text.secondary">
                  {fact.label}
                </Typography>
                <Typography variant="body1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {fact.value}
                </Typography>
              </Box>
            </CardContent>
          </Card>
        ))}
      </Box>

      {figures && <SurveyFigures figures={figures} />}

      <Card>
        <CardHeader
          title={translate('dashboard.quickEntrance')}
          slotProps={{ title: { variant: 'subtitle1', sx: { fontWeight: 600 } } }}
          action={<Chip size="small" label={pages.length} sx={{ mt: 1, mr: 1 }} />}
          sx={{ borderBottom: 1, borderColor: 'divider', py: 1.5 }}
        />
        <CardContent sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}>
          {pages.map((page) => (
            <ButtonBase
              key={page.key}
              onClick={() => openItem(page)}
              sx={{
                flexDirection: 'column',
                gap: 1,
                py: 2,
                px: 1,
                borderRadius: 2,
                border: 1,
                borderColor: 'divider',
                color: 'text.primary',
                font: 'inherit',
                transition: 'all .2s',
                '&:hover': { borderColor: 'primary.main', color: 'primary.main', transform: 'translateY(-2px)', boxShadow: 2 },
              }}
            >
              <Box sx={{ display: 'inline-flex', color: 'primary.main' }}>
                <MenuIcon name={page.icon} fontSize="medium" />
              </Box>
              <Typography variant="body2" sx={{ textAlign: 'center' }}>
                {menuTitle(page)}
              </Typography>
            </ButtonBase>
          ))}
        </CardContent>
      </Card>
    </Box>
  );
}
