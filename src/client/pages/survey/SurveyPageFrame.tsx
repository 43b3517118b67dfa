import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { AppBar, Box, Button, Container, CssBaseline, IconButton, ListSubheader, Menu, MenuItem, Paper, Toolbar, Typography } from '@mui/material';
import { ThemeProvider } from '@mui/material/styles';
import MenuIcon from '@mui/icons-material/Menu';
import TranslateIcon from '@mui/icons-material/Translate';
import { Link as RouterLink } from 'react-router-dom';
import { LANGUAGES, type Language } from '../../../contract/headers.js';
import { LogoMark } from '../../components/login-art.js';
import { servedSiteName } from '../../components/site-identity.js';
import { USER_BASE } from '../../http/http-client.js';
import { isUserLoggedIn } from '../../http/session.js';
import { LANGUAGE_NAMES } from '../../i18n/store-config.js';
import { chooseLanguage } from '../../member/choose-language.js';
import type { Translate } from '../../i18n/translate.js';
import { memberBootstrap, menuGroups, routeOf, useMemberBootstrap } from '../../member/shell/member-bootstrap.js';
import { useLayout } from '../../shell/layout-store.js';
import { surveyThemeFor } from './survey-theme.js';

export type SurveyTone = 'info' | 'success' | 'warning' | 'error';

/** Choosing a language keeps it (on the server too when signed in) and reloads, so every message pack and the `think-lang` header follow. */
function LanguageMenu({ t, current }: { t: Translate; current: Language }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        color="inherit"
        size="small"
        startIcon={<TranslateIcon />}
        // named by the language it shows, then what it chooses (label in name)
        aria-label={t('survey.languageOf', { name: LANGUAGE_NAMES[current] })}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ minWidth: 0, whiteSpace: 'nowrap', '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } }}
      >
        {/* On a phone the icon alone: the bar keeps room for the site's name. */}
        <Box component="span" lang={current} sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {LANGUAGE_NAMES[current]}
        </Box>
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((language: Language) => (
          <MenuItem
            key={language}
            lang={language}
            selected={language === current}
            onClick={() => {
              setAnchor(null);
              if (language === current) return;
              void chooseLanguage(language);
            }}
          >
            {LANGUAGE_NAMES[language]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/**
 * The member centre's menu from a standalone page: its directories and pages as the centre's left menu
 * lists them (the member's menus, `GET /api/index/index`, fetched once when the page has none yet), for a
 * member who is signed in. Named as the centre names them (`memberShell.menus.*`).
 */
function MemberMenuButton({ t }: { t: Translate }) {
  const shell = useMemberBootstrap();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useEffect(() => {
    // the menu is an extra: a page whose menus cannot be had still works, with the site's name leading to the centre
    if (!memberBootstrap.get()) memberBootstrap.reload().catch(() => undefined);
  }, []);
  const groups = menuGroups(shell?.menus ?? []);
  const title = (rule: { name: string; title: string }) => t(`memberShell.menus.${rule.name}`, { _: rule.title });
  return (
    <>
      <IconButton
        edge="start"
        aria-label={t('memberShell.menu')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MenuIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': t('memberShell.menu'), dense: true } }}>
        <MenuItem component={RouterLink} to={USER_BASE} onClick={() => setAnchor(null)}>
          {t('memberShell.title')}
        </MenuItem>
        {groups.map(({ directory, pages }) => (
          <Fragment key={directory.id}>
            <ListSubheader sx={{ lineHeight: '32px' }}>{title(directory)}</ListSubheader>
            {pages.map((rule) =>
              rule.menu_type === 'link' ? (
                <MenuItem key={rule.id} component="a" href={rule.url} target="_blank" rel="noopener noreferrer" onClick={() => setAnchor(null)}>
                  {title(rule)}
                </MenuItem>
              ) : (
                <MenuItem key={rule.id} component={RouterLink} to={`${USER_BASE}${routeOf(rule)}`} onClick={() => setAnchor(null)}>
                  {title(rule)}
                </MenuItem>
              ),
            )}
          </Fragment>
        ))}
      </Menu>
    </>
  );
}

/**
 * The frame of the standalone survey pages: a slim bar (the member menu, the site's name leading to the
 * member centre, records, language) and one card whose top edge takes the tone of what the page reports.
 * Light or dark as the member chose in the centre (the same stored preference). Fits a 360 px phone.
 */
export function SurveyPageFrame({ t, language, children, tone = 'info', ready = true }: { t: Translate; language: Language; children: ReactNode; tone?: SurveyTone; ready?: boolean }) {
  const { isDark } = useLayout();
  const signedIn = isUserLoggedIn();
  return (
    <ThemeProvider theme={surveyThemeFor(isDark)}>
      <CssBaseline />
      <Box className="ba-survey" sx={{ minHeight: '100vh', bgcolor: 'background.default', color: 'text.primary' }}>
        <AppBar position="static" color="inherit" elevation={1}>
          <Toolbar sx={{ gap: 1, px: { xs: 1.5, sm: 3 } }}>
            {signedIn && ready && <MemberMenuButton t={t} />}
            <Box component={RouterLink} to="/user" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'primary.main', textDecoration: 'none', minWidth: 0, mr: 'auto' }}>
              <LogoMark size={22} />
              <Typography component="span" sx={{ fontWeight: 600, color: 'text.primary', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {servedSiteName() || (ready ? t('survey.memberCentre') : '')}
              </Typography>
            </Box>
            <Box component="nav" aria-label={ready ? t('survey.navigation') : undefined} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              <Button component={RouterLink} to="/tracking" size="small" sx={{ whiteSpace: 'nowrap', minWidth: 0 }}>
                {ready ? t('survey.tracking.title') : ''}
              </Button>
              <LanguageMenu t={t} current={language} />
            </Box>
          </Toolbar>
        </AppBar>
        <Container component="main" maxWidth="md" sx={{ py: { xs: 2, sm: 6 }, px: { xs: 1.5, sm: 3 } }}>
          <Paper
            elevation={1}
            sx={{ p: { xs: 2.5, sm: 4 }, borderTop: 4, borderColor: `${tone}.main`, overflowWrap: 'anywhere' }}
            data-tone={tone}
          >
            {children}
          </Paper>
        </Container>
      </Box>
    </ThemeProvider>
  );
}
