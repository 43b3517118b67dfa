import { useEffect, useState } from 'react';
import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { LogoMark } from '../../components/login-art.js';
import { readSession } from '../../http/session.js';
import { setBootstrap, type ShellBootstrap } from '../bootstrap-store.js';
import { firstPage } from '../layout/menu-tree.js';
import { useShellLogout } from '../layout/use-shell-logout.js';
import { ADMIN_BASE, targetOf } from './target.js';

interface LoadingPageProps {
  /** `GET /admin/Index/index` through the auth provider (which also stores adminInfo and permissions) */
  load(): Promise<ShellBootstrap>;
}

/**
 * `/chidaoadminstator/loading/{to?}` (docs/client.md#routes): fetches the menus, site config and admin info first,
 * then opens the target carried in the URL (path and query), or the first menu page. Without a
 * session it goes to the login page (`/login?to=<target>`), which comes back here with the same target.
 */
export function LoadingPage({ load }: LoadingPageProps) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const location = useLocation();
  const logout = useShellLogout();
  const target = targetOf(location.pathname, location.search);
  const [failure, setFailure] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [destination, setDestination] = useState<string>();
  useDocumentTitle(translate('pages.loading'));

  useEffect(() => {
    if (!readSession('admin').token) {
      // The target rides in the login URL (`?to=`), so a reload or a shared link of the login page keeps it.
      navigate(target ? `${ADMIN_BASE}/login?to=${encodeURIComponent(target)}` : `${ADMIN_BASE}/login`, { replace: true });
      return;
    }
    let alive = true;
    setFailure(undefined);
    load().then(
      (data) => {
        if (!alive) return;
        const shell = setBootstrap(data);
        const first = firstPage(shell.nav)?.to;
        setDestination(target ? `${ADMIN_BASE}${target}` : first ? `${ADMIN_BASE}${first}` : '/404');
      },
      (error: unknown) => {
        if (!alive) return;
        // A 303 "need login" has already sent us to the login page; anything else stays here.
        setFailure(error instanceof Error && error.message ? error.message : translate('shell.loading.failed'));
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
          <Typography variant="h6">{translate('shell.loading.failed')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {failure}
          </Typography>
          <Stack direction="row" spacing={1.5}>
            <Button variant="contained" onClick={() => setAttempt((count) => count + 1)}>
              {translate('shell.loading.retry')}
            </Button>
            <Button variant="outlined" color="inherit" onClick={() => void logout()}>
              {translate('shell.loading.backToLogin')}
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
            {translate('shell.loading.text')}
          </Typography>
        </Stack>
      )}
    </Box>
  );
}
