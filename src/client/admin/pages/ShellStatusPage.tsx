import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import TravelExploreOutlinedIcon from '@mui/icons-material/TravelExploreOutlined';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { ADMIN_BASE } from '../admin-base.js';
import { useShellState } from '../bootstrap-store.js';
import { firstPage } from '../layout/menu-tree.js';

/** What each refusal looks like: its icon and colour, and its words (`shell.status.<kind>.*`). */
const KINDS = {
  denied: { icon: LockOutlinedIcon, colour: 'warning.main' },
  missing: { icon: TravelExploreOutlinedIcon, colour: 'info.main' },
} as const;

/**
 * A page the admin cannot open, drawn inside the back office (its menus and tabs stay): `denied`, a page
 * that exists but the admin's role groups do not grant; `missing`, an address where no page is. Each
 * says which it is and offers the way back and the admin's first menu page.
 */
export function ShellStatusPage({ kind }: { kind: keyof typeof KINDS }) {
  const translate = useTranslate();
  const shell = useShellState();
  const home = shell ? firstPage(shell.nav)?.to : undefined;
  const { icon: Icon, colour } = KINDS[kind];
  return (
    <Card sx={{ flex: 1, display: 'flex' }} data-testid={`shell-status-${kind}`}>
      <CardContent sx={{ m: 'auto', textAlign: 'center', py: 8, px: 3, maxWidth: 520 }}>
        <Box sx={{ display: 'inline-flex', p: 2, mb: 2, borderRadius: '50%', bgcolor: 'action.hover', color: colour }}>
          <Icon sx={{ fontSize: 44 }} />
        </Box>
        <Typography variant="h6" component="h2" gutterBottom>
          {translate(`shell.status.${kind}.title`)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          {translate(`shell.status.${kind}.description`)}
        </Typography>
        <Stack direction="row" spacing={1.5} useFlexGap sx={{ justifyContent: 'center', flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={() => window.history.back()}>
            {translate('pages.back')}
          </Button>
          {home && (
            <Button variant="contained" component={RouterLink} to={`${ADMIN_BASE}${home}`}>
              {translate('shell.status.home')}
            </Button>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
