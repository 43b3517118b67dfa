import { useEffect, useState } from 'react';
import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { useDocumentTitle } from '../components/document-title.js';
import { LogoMark } from '../components/login-art.js';
import { targetOf } from './target.js';

interface LoadingPageProps<T> {
  /** the area's route base: `/chidaoadminstator`, `/user` */
  base: string;
  /** where the area's texts live: `<messages>.text`, `.failed`, `.retry`, `.backToLogin` */
  messages: string;
  /** whether a session is stored; without one the page goes to the login page */
  isSignedIn(): boolean;
  /** the area's bootstrap store's `reload()`: fetches the menus and keeps them */
  load(): Promise<T>;
  /** the first page of the loaded menus, relative to the base */
  firstPage(data: T): string | undefined;
  /** the login page that comes back to `target` (relative to the base) or to this location */
  loginPath(target: string | undefined, location: { pathname: string; search: string }): string;
  /** the hook giving "Back to login": sign out, then show the login page */
  useBackToLogin(): () => unknown;
}

/**
 * `<base>/loading/{to?}` of either area: fetches the menus, the site and the signed-in person first,
 * then opens the target carried in the URL (path and query), or the first menu page. Without a session
 * it goes to the login page, which comes back here with the same target.
 */
export function LoadingPage<T>({ base, messages, isSignedIn, load, firstPage, loginPath, useBackToLogin }: LoadingPageProps<T>) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const location = useLocation();
  const backToLogin = useBackToLogin();
  const target = targetOf(location.pathname, location.search, base);
  const [failure, setFailure] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [destination, setDestination] = useState<string>();
  useDocumentTitle(translate('pages.loading'));

  useEffect(() => {
    if (!isSignedIn()) {
      navigate(loginPath(target, location), { replace: true });
      return;
    }
    let alive = true;
    setFailure(undefined);
    load().then(
      (data) => {
        if (!alive) return;
        const first = firstPage(data);
        setDestination(target ? `${base}${target}` : first ? `${base}${first}` : '/404');
      },
      (error: unknown) => {
        // A 303 "need login" has already sent us to the login page; anything else stays here.
        if (alive) setFailure(error instanceof Error && error.message ? error.message : translate(`${messages}.failed`));
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
          <Typography variant="h6">{translate(`${messages}.failed`)}</Typography>
          <Typography variant="body2" color="text.secondary">
            {failure}
          </Typography>
          <Stack direction="row" spacing={1.5}>
            <Button variant="contained" onClick={() => setAttempt((count) => count + 1)}>
              {translate(`${messages}.retry`)}
            </Button>
            <Button variant="outlined" color="inherit" onClick={() => void backToLogin()}>
              {translate(`${messages}.backToLogin`)}
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Stack spacing={2.5} sx={{ alignItems: 'center' }} aria-busy="true">
          <Box sx={{ position: 'relative', display: 'inline-flex', color: 'primary.main' }}>
            <CircularProgress size={64} thickness={2.5} aria-hidden="true" />
            <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
              <LogoMark size={26} />
            </Box>
          </Box>
          <Typography variant="body2" color="text.secondary">
            {translate(`${messages}.text`)}
          </Typography>
        </Stack>
      )}
    </Box>
  );
}
