import { useState, type ReactNode } from 'react';
import {
  AppBar, Avatar, Box, Button, Divider, Drawer, IconButton, List, ListItem, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Menu, MenuItem, Toolbar, Tooltip, Typography, useMediaQuery, type Theme,
} from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import DarkModeOutlinedIcon from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlinedIcon from '@mui/icons-material/LightModeOutlined';
import TranslateIcon from '@mui/icons-material/Translate';
import { useLogout, useTranslate } from 'react-admin';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { LANGUAGES } from '../../../contract/headers.js';
import { MenuIcon as RuleIcon } from '../../components/MenuIcon.js';
import { setLayout, useLayout } from '../../shell/layout-store.js';
import { loadingPath } from '../../shell/target.js';
import { LogoMark } from '../../components/login-art.js';
import { servedSiteName } from '../../components/site-identity.js';
import { FocusOnPageChange, MAIN_CONTENT_ID, SkipLink } from '../../components/page-focus.js';
import { HttpClientBridge } from '../../http/HttpClientBridge.js';
import { USER_BASE } from '../../http/http-client.js';
import { isUserLoggedIn } from '../../http/session.js';
import { LANGUAGE_NAMES, currentLanguage } from '../../i18n/store-config.js';
import { chooseLanguage } from '../choose-language.js';
import type { MemberRule } from '../../providers/member-bootstrap.js';
import { memberLoginPath, menuGroups, routeOf, useMemberBootstrap } from './member-bootstrap.js';

const MEMBER_MENU_WIDTH = 220;

/** A rule's title in the current language: `memberShell.menus.<name>`, else the title kept in the database. */
function useRuleTitle(): (rule: Pick<MemberRule, 'name' | 'title'>) => string {
  const translate = useTranslate();
  return (rule) => translate(`memberShell.menus.${rule.name}`, { _: rule.title });
}

/**
 * The left menu: one heading per member-centre directory, its pages below
 * (docs/wire-contract.md#menus-routes-and-permission-nodes); `nav` > a list per directory, named by
 * its heading > `li` > link, the shown page aria-current.
 */
function MemberMenu({ menus, onNavigate }: { menus: readonly MemberRule[]; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const title = useRuleTitle();
  const translate = useTranslate();
  return (
    <Box component="nav" aria-label={translate('memberShell.menu')} sx={{ width: MEMBER_MENU_WIDTH, pt: 1 }}>
      {menuGroups(menus).map(({ directory, pages }) => {
        return (
          <List
            key={directory.id}
            dense
            aria-labelledby={`member-menu-${directory.id}`}
            subheader={
              <ListSubheader id={`member-menu-${directory.id}`} sx={{ bgcolor: 'transparent', lineHeight: '36px' }}>
                {title(directory)}
              </ListSubheader>
            }
          >
            {pages.map((rule) => {
              const to = `${USER_BASE}${routeOf(rule)}`;
              const external = rule.menu_type === 'link';
              const selected = !external && (pathname === to || pathname.startsWith(`${to}/`));
              const linkProps = external ? { component: 'a' as const, href: rule.url, target: '_blank', rel: 'noopener noreferrer' } : { component: RouterLink, to };
              return (
                <ListItem key={rule.id} disablePadding sx={{ display: 'block' }}>
                  <ListItemButton {...linkProps} selected={selected} aria-current={selected ? 'page' : undefined} onClick={onNavigate} sx={{ mx: 1, borderRadius: 1 }}>
                    <ListItemIcon sx={{ minWidth: 34 }}>
                      <RuleIcon name={rule.icon} />
                    </ListItemIcon>
                    <ListItemText primary={title(rule)} />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        );
      })}
    </Box>
  );
}

/** The top bar: site name, language, light/dark, and the member's own menu (profile, logout). */
function MemberBar({ siteName, onMenu, narrow }: { siteName: string; onMenu(): void; narrow: boolean }) {
  const translate = useTranslate();
  const logout = useLogout();
  const layout = useLayout();
  const shell = useMemberBootstrap();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);
  const info = shell?.userInfo ?? {};
  const name = info.nickname || info.username || '';
  return (
    <AppBar position="fixed" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar variant="dense" sx={{ gap: 1 }}>
        {narrow && (
          <IconButton edge="start" aria-label={translate('memberShell.menu')} onClick={onMenu}>
            <MenuIcon />
          </IconButton>
        )}
        {/* A long site name wraps between its words (and shrinks a little on a phone) rather than being cut or
            pushing the bar's buttons off the screen: people read the whole name. */}
        <Box component={RouterLink} to={USER_BASE} sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0, color: 'primary.main', textDecoration: 'none' }}>
          <LogoMark size={22} />
          <Typography variant="subtitle1" component="span" sx={{ fontWeight: 600, color: 'text.primary', lineHeight: 1.2, overflowWrap: 'anywhere', fontSize: narrow ? '0.9375rem' : undefined }}>
            {siteName || servedSiteName() || translate('memberShell.title')}
          </Typography>
        </Box>
        <Box sx={{ flex: 1 }} />
        <Tooltip title={translate('memberShell.language')}>
          <IconButton aria-label={translate('memberShell.language')} onClick={(event) => setLanguageAnchor(event.currentTarget)}>
            <TranslateIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Menu anchorEl={languageAnchor} open={Boolean(languageAnchor)} onClose={() => setLanguageAnchor(null)}>
          {LANGUAGES.map((language) => (
            <MenuItem
              key={language}
              lang={language}
              selected={language === currentLanguage()}
              onClick={() => {
                setLanguageAnchor(null);
                if (language === currentLanguage()) return;
                void chooseLanguage(language);
              }}
            >
              {LANGUAGE_NAMES[language]}
            </MenuItem>
          ))}
        </Menu>
        <Tooltip title={translate(layout.isDark ? 'memberShell.light' : 'memberShell.dark')}>
          <IconButton aria-label={translate(layout.isDark ? 'memberShell.light' : 'memberShell.dark')} onClick={() => setLayout({ isDark: !layout.isDark })}>
            {layout.isDark ? <LightModeOutlinedIcon fontSize="small" /> : <DarkModeOutlinedIcon fontSize="small" />}
          </IconButton>
        </Tooltip>
        <Button color="inherit" onClick={(event) => setAnchor(event.currentTarget)} sx={{ textTransform: 'none', gap: 1 }} aria-label={translate('memberShell.accountOf', { name })}>
          <Avatar src={info.avatar || '/static/images/avatar.png'} alt="" sx={{ width: 28, height: 28 }} />
          {!narrow && <span data-testid="member-name">{name}</span>}
        </Button>
        <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
          <MenuItem component={RouterLink} to={`${USER_BASE}/account/profile`} onClick={() => setAnchor(null)}>
            {translate('memberShell.profile')}
          </MenuItem>
          <Divider />
          <MenuItem
            onClick={() => {
              setAnchor(null);
              void logout();
            }}
          >
            {translate('memberShell.logout')}
          </MenuItem>
        </Menu>
      </Toolbar>
    </AppBar>
  );
}

/**
 * The member centre's frame (BuildAdmin's user centre as the reference): a top bar, a left menu built
 * from the member's rules and the content. Without a session it sends to the login, and before the
 * menus are loaded to the loading route, each carrying the path and query asked for.
 */
export function MemberLayout({ children }: { children?: ReactNode }) {
  const shell = useMemberBootstrap();
  const { pathname, search } = useLocation();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const [open, setOpen] = useState(false);
  const translate = useTranslate();
  if (!isUserLoggedIn()) return <Navigate to={memberLoginPath(`${pathname}${search}`)} replace />;
  if (!shell) return <Navigate to={loadingPath(`${pathname.slice(USER_BASE.length)}${search}`, USER_BASE)} replace />;
  const menu = <MemberMenu menus={shell.menus} onNavigate={narrow ? () => setOpen(false) : undefined} />;
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default', color: 'text.primary' }}>
      <SkipLink label={translate('a11y.skipToContent')} />
      <FocusOnPageChange pageKey={pathname} />
      <HttpClientBridge />
      <MemberBar siteName={shell.site.siteName} narrow={narrow} onMenu={() => setOpen(true)} />
      {narrow ? (
        <Drawer variant="temporary" open={open} onClose={() => setOpen(false)}>
          <Toolbar variant="dense" />
          {menu}
        </Drawer>
      ) : (
        <Drawer variant="permanent" sx={{ width: MEMBER_MENU_WIDTH, flexShrink: 0, '& .MuiDrawer-paper': { width: MEMBER_MENU_WIDTH, boxSizing: 'border-box' } }}>
          <Toolbar variant="dense" />
          {menu}
        </Drawer>
      )}
      <Box component="main" id={MAIN_CONTENT_ID} sx={{ flex: 1, minWidth: 0, p: { xs: 2, md: 3 } }}>
        <Toolbar variant="dense" />
        {children}
      </Box>
    </Box>
  );
}
