import { Component, Suspense, useMemo, useState, type ErrorInfo, type ReactNode } from 'react';
import { Box, Drawer, IconButton, Tooltip, Typography, useMediaQuery, useTheme } from '@mui/material';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import MenuIcon from '@mui/icons-material/Menu';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import { Loading, useTranslate } from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../../components/document-title.js';
import { LogoMark } from '../../components/login-art.js';
import { MAIN_CONTENT_ID, SkipLink, useFocusOnPageChange, VISUALLY_HIDDEN } from '../../components/page-focus.js';
import { HttpClientBridge } from '../../http/HttpClientBridge.js';
import { useShellState, type ShellState } from '../bootstrap-store.js';
import { loadingPath, targetOf } from '../../shell/target.js';
import { ADMIN_BASE } from '../admin-base.js';
import { asideWidth, headerHeight, pick, readableLayout, type LayoutConfig } from '../../shell/layout-config.js';
import { setLayout, useLayout } from '../../shell/layout-store.js';
import { BootOverlay } from './BootOverlay.js';
import { NavButtons } from './NavButtons.js';
import { SideMenu } from './SideMenu.js';
import { readTabFullScreen, writeTabFullScreen } from './tabs.js';
import { TabsBar } from './TabsBar.js';
import { usePageTabs } from './use-page-tabs.js';
import { useMenuTitle } from './use-shell-navigation.js';
import { lazyComponent } from '../../components/lazy-component.js';

/** The drawers' code loads the first time one is opened: until then nothing of them is drawn. */
const SettingsDrawer = lazyComponent(async () => (await import('./SettingsDrawer.js')).SettingsDrawer);
const TerminalDrawer = lazyComponent(async () => (await import('./terminal/TerminalDrawer.js')).TerminalDrawer);
/** The header's menu, drawn only by the streamlined layout (the others have the side menu): loaded with it. */
const HorizontalMenu = lazyComponent(async () => (await import('./HorizontalMenu.js')).HorizontalMenu);

/**
 * The back-office shell around every page with a layout. Until the loading route has fetched the
 * menus, any page sends there first, carrying its path and query (docs/client.md#routes).
 */
export function AdminLayout({ children }: { children?: ReactNode }) {
  const shell = useShellState();
  const location = useLocation();
  if (!shell) return <Navigate to={loadingPath(targetOf(location.pathname, location.search, ADMIN_BASE), ADMIN_BASE)} replace />;
  return <ShellFrame shell={shell}>{children}</ShellFrame>;
}

function ShellFrame({ shell, children }: { shell: ShellState; children?: ReactNode }) {
  // What the admin picked (the settings show it), and what the shell draws: every text colour readable.
  const picked = useLayout();
  const layout = useMemo(() => readableLayout(picked), [picked]);
  const translate = useTranslate();
  const menuTitle = useMenuTitle();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  // On a phone the header's buttons leave the tabs a few characters: they get a row of their own.
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [mobileMenu, setMobileMenu] = useState(false);
  // Each drawer: whether it is open, and whether it has ever been (from then on it stays drawn, closed or not).
  const [settings, setSettings] = useState(false);
  const [terminal, setTerminal] = useState(false);
  const [drawn, setDrawn] = useState({ settings: false, terminal: false });
  const [fullScreen, setFullScreenState] = useState(readTabFullScreen);
  const pageTabs = usePageTabs(shell.nav, shell.adminInfo.id);
  const { pathname } = useLocation();
  const setFullScreen = (on: boolean) => {
    writeTabFullScreen(on);
    setFullScreenState(on);
  };

  const active = pageTabs.active;
  const pageTitle = active ? menuTitle({ key: active.name, title: active.title }) : translate('shell.titles.admin');
  useDocumentTitle(pageTitle, shell.siteConfig.siteName);
  // A page is its menu entry (its tab): the add and edit dialogs over a list are not a page change.
  useFocusOnPageChange(active?.key ?? pathname);

  const mode = layout.layoutMode;
  const streamline = mode === 'Streamline';
  const pageBackground = layout.isDark ? '#141414' : '#f5f5f5';
  const headerBackground = pick(layout, layout.headerBarBackground);
  const menuBackground = pick(layout, layout.menuBackground);
  const showAside = !streamline && !fullScreen && !narrow;
  const collapsed = layout.menuCollapse && !narrow;

  const toggleMenu = narrow ? () => setMobileMenu(true) : () => setLayout({ menuCollapse: !layout.menuCollapse });
  const menuToggle = (
    <Tooltip title={translate(narrow ? 'shell.menu.open' : layout.menuCollapse ? 'shell.menu.expand' : 'shell.menu.collapse')}>
      <IconButton
        aria-label={translate(narrow ? 'shell.menu.open' : layout.menuCollapse ? 'shell.menu.expand' : 'shell.menu.collapse')}
        onClick={toggleMenu}
        sx={{ color: pick(layout, layout.headerBarTabColor), flex: 'none', mr: 0.5 }}
      >
        {narrow || layout.menuCollapse ? <MenuIcon fontSize="small" /> : <MenuOpenIcon fontSize="small" />}
      </IconButton>
    </Tooltip>
  );

  const asideContent = (isCollapsed: boolean, onOpened?: () => void) => (
    <>
      {(layout.menuShowTopBar || narrow) && <LogoBar shell={shell} layout={layout} collapsed={isCollapsed} />}
      <Box sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden', scrollbarWidth: 'thin' }}>
        <SideMenu nav={shell.nav} layout={layout} collapsed={isCollapsed} onOpened={onOpened} />
      </Box>
    </>
  );

  const tabs = <TabsBar pageTabs={pageTabs} layout={layout} fullScreen={fullScreen} onFullScreen={setFullScreen} />;
  const openSettings = () => {
    setDrawn((was) => ({ ...was, settings: true }));
    setSettings(true);
  };
  const openTerminal = () => {
    setDrawn((was) => ({ ...was, terminal: true }));
    setTerminal(true);
  };
  const buttons = <NavButtons shell={shell} layout={layout} onSettings={openSettings} onTerminal={openTerminal} />;
  // On a phone the tabs sit on a second row of the (sticky) header, with the Default layout's gap above it.
  const tabsRow = phone && !streamline ? (mode === 'Default' ? 52 : 44) : 0;
  const height = headerHeight(mode) + tabsRow;

  return (
    <Box data-layout={mode} data-dark={layout.isDark ? 'true' : 'false'} sx={{ display: 'flex', minHeight: '100vh', bgcolor: pageBackground, color: 'text.primary' }}>
      <SkipLink label={translate('a11y.skipToContent')} />
      <HttpClientBridge />
      <BootOverlay background={pageBackground} />
      {showAside && (
        <Box
          component="aside"
          data-testid="admin-aside"
          style={{ width: asideWidth(layout) }}
          sx={{
            position: 'sticky',
            top: mode === 'Default' ? 16 : 0,
            flex: 'none',
            display: 'flex',
            flexDirection: 'column',
            height: mode === 'Default' ? 'calc(100vh - 32px)' : '100vh',
            m: mode === 'Default' ? '16px 0 16px 16px' : 0,
            borderRadius: mode === 'Default' ? 1.5 : 0,
            boxShadow: mode === 'Default' ? (layout.isDark ? 'none' : '0 0 8px rgba(0,0,0,0.06)') : 'none',
            borderRight: mode === 'Classic' ? 1 : 0,
            borderColor: 'divider',
            bgcolor: menuBackground,
            overflow: 'hidden',
            transition: 'width .25s ease',
          }}
        >
          {asideContent(collapsed)}
        </Box>
      )}
      {narrow && !fullScreen && (
        <Drawer open={mobileMenu} onClose={() => setMobileMenu(false)} slotProps={{ paper: { sx: { width: 260, bgcolor: menuBackground, display: 'flex', flexDirection: 'column' } } }}>
          {asideContent(false, () => setMobileMenu(false))}
        </Drawer>
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {!fullScreen && (
          <Box
            component="header"
            data-testid="admin-header"
            style={{ height }}
            sx={{
              position: 'sticky',
              top: 0,
              zIndex: (muiTheme) => muiTheme.zIndex.appBar,
              flex: 'none',
              boxSizing: 'border-box',
              ...(mode === 'Default' ? { pt: '20px', px: 2, bgcolor: pageBackground } : {}),
            }}
          >
            <Box
              sx={{
                display: 'flex',
                alignItems: 'center',
                height: tabsRow ? `calc(100% - ${tabsRow}px)` : '100%',
                px: 1,
                bgcolor: headerBackground,
                ...(mode === 'Default'
                  ? { borderRadius: 1.5, boxShadow: layout.isDark ? 'none' : '0 0 8px rgba(0,0,0,0.06)' }
                  : { borderBottom: 1, borderColor: 'divider', boxShadow: streamline ? '0 1px 4px rgba(0,21,41,0.06)' : 'none' }),
              }}
            >
              {streamline ? (
                <>
                  {narrow && menuToggle}
                  <Brand shell={shell} />
                  {narrow ? <Box sx={{ flex: 1 }} /> : <HorizontalMenu nav={shell.nav} layout={layout} />}
                </>
              ) : (
                <>
                  {menuToggle}
                  {phone ? <Box sx={{ flex: 1 }} /> : tabs}
                </>
              )}
              {buttons}
            </Box>
            {tabsRow > 0 && (
              <Box
                data-testid="admin-tabs-row"
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  height: 44,
                  px: 1,
                  bgcolor: headerBackground,
                  ...(mode === 'Default'
                    ? { mt: 1, borderRadius: 1.5, boxShadow: layout.isDark ? 'none' : '0 0 8px rgba(0,0,0,0.06)' }
                    : { borderBottom: 1, borderColor: 'divider' }),
                }}
              >
                {tabs}
              </Box>
            )}
          </Box>
        )}
        {streamline && !fullScreen && (
          <Box sx={{ display: 'flex', alignItems: 'center', height: 44, px: 1.5, bgcolor: headerBackground, borderBottom: 1, borderColor: 'divider' }}>{tabs}</Box>
        )}
        <Box component="main" id={MAIN_CONTENT_ID} sx={{ flex: 1, minWidth: 0, p: 2, display: 'flex', flexDirection: 'column', overflowX: 'auto' }}>
          {/* The page's name for a screen reader, where focus lands after a page change; the tab shows it to the eye. */}
          <Typography variant="h1" tabIndex={-1} sx={VISUALLY_HIDDEN}>
            {pageTitle}
          </Typography>
          <ShellErrorBoundary path={pathname} message={translate('shell.error')}>
            <Suspense fallback={<Loading />}>{children}</Suspense>
          </ShellErrorBoundary>
        </Box>
      </Box>
      {fullScreen && (
        <Tooltip title={translate('shell.tabs.exitFullScreen')}>
          <IconButton
            aria-label={translate('shell.tabs.exitFullScreen')}
            onClick={() => setFullScreen(false)}
            sx={{ position: 'fixed', top: 8, right: 12, zIndex: (muiTheme) => muiTheme.zIndex.appBar, bgcolor: 'background.paper', boxShadow: 2, '&:hover': { bgcolor: 'background.paper' } }}
          >
            <FullscreenExitIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {drawn.settings && <SettingsDrawer open={settings} onClose={() => setSettings(false)} layout={picked} tabFullScreen={fullScreen} onTabFullScreen={setFullScreen} />}
      {shell.adminInfo.super && drawn.terminal && <TerminalDrawer open={terminal} onClose={() => setTerminal(false)} shell={shell} />}
    </Box>
  );
}

function Brand({ shell }: { shell: ShellState }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, mr: 1, color: 'primary.main', flex: 'none' }}>
      <LogoMark size={24} />
      <Typography component="span" sx={{ fontWeight: 600, fontSize: 16, color: 'text.primary', whiteSpace: 'nowrap' }}>
        {shell.siteConfig.siteName}
      </Typography>
    </Box>
  );
}

function LogoBar({ shell, layout, collapsed }: { shell: ShellState; layout: LayoutConfig; collapsed: boolean }) {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'flex-start',
        gap: 1.25,
        height: 50,
        flex: 'none',
        px: collapsed ? 0 : 2.5,
        bgcolor: pick(layout, layout.menuTopBarBackground),
        borderBottom: 1,
        borderColor: 'divider',
        color: 'primary.main',
        overflow: 'hidden',
      }}
    >
      <LogoMark size={26} />
      {!collapsed && (
        <Typography component="span" title={shell.siteConfig.siteName} sx={{ fontWeight: 600, fontSize: 16, color: 'text.primary', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {shell.siteConfig.siteName}
        </Typography>
      )}
    </Box>
  );
}

/**
 * A page that throws shows a message inside the shell instead of taking the whole back office down; the
 * next address (`path`) tries again. It is not remounted per address: a list stays mounted while its add
 * and edit dialogs, routes of their own, open and close over it.
 */
class ShellErrorBoundary extends Component<{ message: string; path: string; children?: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidUpdate(previous: { path: string }) {
    if (previous.path !== this.props.path && this.state.error) this.setState({ error: undefined });
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Box role="alert" sx={{ m: 'auto', textAlign: 'center', color: 'text.secondary', p: 4 }}>
        <Typography variant="h6" color="error" gutterBottom>
          {this.props.message}
        </Typography>
        <Typography variant="body2">{this.state.error.message}</Typography>
      </Box>
    );
  }
}
