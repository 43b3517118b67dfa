import { Box, Button, CssBaseline, Stack, Typography, useMediaQuery } from '@mui/material';
import { ThemeProvider } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router-dom';
import { useDocumentTitle } from '../components/document-title.js';
import { readSession } from '../http/session.js';
import { PAGE_MESSAGES } from '../i18n/page-messages.js';
import { useMessages } from '../i18n/use-messages.js';
import { ADMIN_BASE } from '../admin/admin-base.js';
import { surveyThemeFor } from './survey/survey-theme.js';

/** The big code's colours: blue for a page that is not there, amber for one the visitor may not open. */
const CODE_GRADIENT = { 404: 'linear-gradient(135deg, #79bbff, #337ecc)', 401: 'linear-gradient(135deg, #f3d19e, #e6a23c)' } as const;

/**
 * The standalone 404 and 401 pages: big code, title, explanation, a way back. Drawn with the standalone
 * survey pages' theme (light or dark as the device prefers), side by side on a desktop, stacked and
 * centred on a phone.
 */
function StatusPage({ code, messages }: { code: 404 | 401; messages: 'notFound' | 'noPermission' }) {
  const { translate: t, ready } = useMessages(PAGE_MESSAGES.status);
  const dark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  useDocumentTitle(ready ? t(`pages.${messages}.title`) : '');
  // An administrator goes back to the back office, anyone else to the member area.
  const home = readSession('admin').token ? ADMIN_BASE : '/';
  return (
    <ThemeProvider theme={surveyThemeFor(dark)}>
      <CssBaseline />
      <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', px: 2.5, py: 6, bgcolor: 'background.default' }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 2, sm: 7 }} sx={{ alignItems: 'center', maxWidth: 860, textAlign: { xs: 'center', sm: 'left' } }}>
          <Typography
            aria-hidden="true"
            sx={{ m: 0, fontSize: { xs: 96, sm: 132 }, fontWeight: 700, lineHeight: 1, backgroundImage: CODE_GRADIENT[code], backgroundClip: 'text', WebkitBackgroundClip: 'text', color: 'transparent' }}
          >
            {code}
          </Typography>
          <Box>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
              {ready ? t(`pages.${messages}.title`) : ''}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 3.5, maxWidth: 380 }}>
              {ready ? t(`pages.${messages}.description`) : ''}
            </Typography>
            <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap', justifyContent: { xs: 'center', sm: 'flex-start' } }}>
              <Button variant="outlined" onClick={() => window.history.back()}>
                {ready ? t('pages.back') : ''}
              </Button>
              <Button variant="contained" component={RouterLink} to={home}>
                {ready ? t('pages.home') : ''}
              </Button>
            </Stack>
          </Box>
        </Stack>
      </Box>
    </ThemeProvider>
  );
}

export function NotFoundPage() {
  return <StatusPage code={404} messages="notFound" />;
}

export function NoPermissionPage() {
  return <StatusPage code={401} messages="noPermission" />;
}
