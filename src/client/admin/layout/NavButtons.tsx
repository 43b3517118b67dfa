import { useEffect, useState } from 'react';
import { Avatar, Box, ButtonBase, Divider, IconButton, ListItemIcon, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import DarkModeOutlinedIcon from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlinedIcon from '@mui/icons-material/LightModeOutlined';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import TuneIcon from '@mui/icons-material/Tune';
import TerminalIcon from '@mui/icons-material/Terminal';
import PersonOutlineIcon from '@mui/icons-material/PersonOutline';
import LogoutIcon from '@mui/icons-material/Logout';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { LANGUAGES } from '../../../contract/headers.js';
import { currentLanguage, LANGUAGE_NAMES, storeLanguage } from '../../i18n/store-config.js';
import type { ShellState } from '../bootstrap-store.js';
import { ADMIN_BASE } from '../admin-base.js';
import { fullUrl } from '../fields/value-format.js';
import { pick, type LayoutConfig } from '../../shell/layout-config.js';
import { setLayout } from '../../shell/layout-store.js';
import { navPages } from './menu-tree.js';
import { pageNameOf } from '../../../contract/view-paths.js';
import { reloadKeepingShell } from './shell-memory.js';
import { useShellLogout } from './use-shell-logout.js';

/** The component key of the profile page (seeded rule `routine/adminInfo`). */
export const PROFILE_COMPONENT = 'routine/adminInfo';

function useBrowserFullscreen(): [boolean, () => void] {
  const [on, setOn] = useState(() => typeof document !== 'undefined' && Boolean(document.fullscreenElement));
  useEffect(() => {
    const sync = () => setOn(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  return [on, toggle];
}

/**
 * The header's right-hand side: language, dark mode, full screen, the terminal (super admins, when the
 * server offers commands), layout settings, the admin's menu.
 */
export function NavButtons({ shell, layout, onSettings, onTerminal }: { shell: ShellState; layout: LayoutConfig; onSettings(): void; onTerminal?(): void }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const logout = useShellLogout();
  const [langAnchor, setLangAnchor] = useState<HTMLElement | null>(null);
  const [userAnchor, setUserAnchor] = useState<HTMLElement | null>(null);
  const [fullscreen, toggleFullscreen] = useBrowserFullscreen();
  const color = pick(layout, layout.headerBarTabColor);
  const hover = pick(layout, layout.headerBarHoverBackground);
  const language = currentLanguage();
  const profile = navPages(shell.nav).find((page) => pageNameOf(page.rule.component) === PROFILE_COMPONENT);
  const { adminInfo, siteConfig } = shell;
  const buttonSx = { color, borderRadius: 1.5, '&:hover': { bgcolor: hover } };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.25, flex: 'none', height: '100%', pl: 1 }}>
      <Tooltip title={translate('shell.header.language')}>
        <IconButton aria-label={translate('shell.header.language')} aria-haspopup="menu" onClick={(event) => setLangAnchor(event.currentTarget)} sx={buttonSx}>
          <TranslateIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={langAnchor} open={Boolean(langAnchor)} onClose={() => setLangAnchor(null)}>
        {LANGUAGES.map((item) => (
          <MenuItem
            key={item}
            lang={item}
            selected={item === language}
            onClick={() => {
              setLangAnchor(null);
              if (item === language) return;
              // The choice is stored and the page reloads, so every pack and request follows; the tabs
              // and the menu stay as they were.
              storeLanguage(item);
              reloadKeepingShell();
            }}
          >
            <ListItemIcon>{item === language && <CheckIcon fontSize="small" />}</ListItemIcon>
            {LANGUAGE_NAMES[item]}
          </MenuItem>
        ))}
      </Menu>
      <Tooltip title={translate(layout.isDark ? 'shell.header.light' : 'shell.header.dark')}>
        <IconButton aria-label={translate(layout.isDark ? 'shell.header.light' : 'shell.header.dark')} onClick={() => setLayout({ isDark: !layout.isDark })} sx={buttonSx}>
          {layout.isDark ? <LightModeOutlinedIcon fontSize="small" /> : <DarkModeOutlinedIcon fontSize="small" />}
        </IconButton>
      </Tooltip>
      <Tooltip title={translate(fullscreen ? 'shell.header.exitFullscreen' : 'shell.header.fullscreen')}>
        <IconButton aria-label={translate(fullscreen ? 'shell.header.exitFullscreen' : 'shell.header.fullscreen')} onClick={toggleFullscreen} sx={{ ...buttonSx, display: { xs: 'none', sm: 'inline-flex' } }}>
          {fullscreen ? <FullscreenExitIcon fontSize="small" /> : <FullscreenIcon fontSize="small" />}
        </IconButton>
      </Tooltip>
      {onTerminal && adminInfo.super && (shell.terminal.commands?.length ?? 0) > 0 && (
        <Tooltip title={translate('shell.header.terminal')}>
          <IconButton aria-label={translate('shell.header.terminal')} aria-haspopup="dialog" onClick={onTerminal} sx={buttonSx}>
            <TerminalIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title={translate('shell.header.settings')}>
        <IconButton aria-label={translate('shell.header.settings')} onClick={onSettings} sx={buttonSx}>
          <TuneIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {/* Named by what it shows (the admin's name) and what it opens: a voice command saying the visible name finds it. */}
      <ButtonBase
        aria-label={translate('shell.header.accountOf', { name: adminInfo.nickname || adminInfo.username })}
        aria-haspopup="menu"
        onClick={(event) => setUserAnchor(event.currentTarget)}
        sx={{ ...buttonSx, ml: 0.5, height: 40, px: 1, gap: 1, font: 'inherit' }}
      >
        <Avatar src={fullUrl(adminInfo.avatar, siteConfig.cdnUrl)} alt="" sx={{ width: 28, height: 28 }} />
        <Typography component="span" variant="body2" sx={{ display: { xs: 'none', md: 'inline' }, maxWidth: 120, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {adminInfo.nickname || adminInfo.username}
        </Typography>
      </ButtonBase>
      <Menu
        anchorEl={userAnchor}
        open={Boolean(userAnchor)}
        onClose={() => setUserAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 220 } } }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1.25 }}>
          <Avatar src={fullUrl(adminInfo.avatar, siteConfig.cdnUrl)} alt="" sx={{ width: 40, height: 40 }} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle2" noWrap>
              {adminInfo.nickname || adminInfo.username}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              @{adminInfo.username}
            </Typography>
          </Box>
        </Box>
        <Divider />
        {profile && (
          <MenuItem
            onClick={() => {
              setUserAnchor(null);
              navigate(`${ADMIN_BASE}${profile.to}`);
            }}
          >
            <ListItemIcon>
              <PersonOutlineIcon fontSize="small" />
            </ListItemIcon>
            {translate('shell.header.profile')}
          </MenuItem>
        )}
        <MenuItem
          onClick={() => {
            setUserAnchor(null);
            void logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.header.logout')}
        </MenuItem>
      </Menu>
    </Box>
  );
}
