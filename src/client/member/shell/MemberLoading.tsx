import { useEffect, useState } from 'react';
import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { useLogout, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { USER_BASE } from '../../http/http-client.js';
import { useDocumentTitle } from '../../components/document-title.js';
import { LogoMark } from '../../components/login-art.js';
import { isUserLoggedIn } from '../../http/session.js';
import { targetOf } from '../../admin/loading/target.js';
import { firstPage, type MemberBootstrap } from './member-bootstrap.js';

/** The member login page, coming back to `to` (a path of this site) afterwards. */
export function memberLoginPath(to?: string): string {
  return to ? `${USER_BASE}/login?redirect=${encodeURIComponent(to)}` : `${USER_BASE}/login`;
}

/**
 * `/user/loading/{to?}` (docs/client.md#routes): fetches the member, the menus and the site first, then opens the
 * target carried in the URL, or the first menu page. Without a session it goes to the member login,
 * which comes back here with the same target.
 */
export function MemberLoading({ load }: { load(): Promise<MemberBootstrap> }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const logout = useLogout();
  const location = useLocation();
  const target = targetOf(location.pathname, location.search, USER_BASE);
  const [failure, setFailure] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [destination, setDestination] = useState<string>();
  useDocumentTitle(translate('memberShell.loading.title'));

  useEffect(() => {
    if (!isUserLoggedIn()) {
      navigate(memberLoginPath(`${location.pathname}${location.search}`), { replace: true });
      return;
    }
    let alive = true;
    setFailure(undefined);
    load().then(
      (data) => {
        if (!alive) return;
        const first = firstPage(data.menus);
        setDestination(target ? `${USER_BASE}${target}` : first ? `${USER_BASE}${first}` : '/404');
      },
      (error: unknown) => {
        // A 303 "need login" has already sent the member to the login page; anything else stays here.
        if (alive) setFailure(error instanceof Error && error.message ? error.message : translate('memberShell.loading.failed'));
      },
    );
    return () => {
      alive = false;
    };
    // `target` and `load` are read once per attempt: the loading route never changes them in place.
  }, [attempt]);

  // Navigate once the routes built from the new menus are in place (one render after the store changed).
  useEffect(() => {
    if (destination) navigate(destination, { replace: true });
  }, [destination, navigate]);

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'background.default', color: 'text.primary' }}>
      {failure ? (
        <Stack role="alert" spacing={2} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 420, px: 3 }}>
          <ErrorOutlineIcon color="error" sx={{ fontSize: 48 }} />
          <Typography variant="h6">{translate('memberShell.loading.failed')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {failure}
          </Typography>
          <Stack direction="row" spacing={1.5}>
            <Button variant="contained" onClick={() => setAttempt((count) => count + 1)}>
              {translate('memberShell.loading.retry')}
            </Button>
            <Button variant="outlined" color="inherit" onClick={() => void logout()}>
              {translate('memberShell.loading.backToLogin')}
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Stack spacing={2.5} sx={{ alignItems: 'center' }} aria-busy="true">
          <Box sx={{ position: 'relative', display: 'inline-flex', color: 'primary.main' }}>
            <CircularProgress size={64} thickness={2.5} />
            <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
              <LogoMark size={26} />
            </Box>
          </Box>
          <Typography variant="body2" color="text.secondary">
            {translate('memberShell.loading.text')}
          </Typography>
        </Stack>
      )}
    </Box>
  );
}
