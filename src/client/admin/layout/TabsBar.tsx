import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Box, Divider, IconButton, ListItemIcon, Menu, MenuItem, Tooltip } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import RefreshIcon from '@mui/icons-material/Refresh';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import ClearAllIcon from '@mui/icons-material/ClearAll';
import HorizontalRuleIcon from '@mui/icons-material/HorizontalRule';
import { useRefresh, useTranslate } from 'react-admin';
import { pick, type LayoutConfig } from '../../shell/layout-config.js';
import { MenuIcon } from '../../components/MenuIcon.js';
import { VISUALLY_HIDDEN } from '../../components/page-focus.js';
import type { PageTabs } from './use-page-tabs.js';
import { useMenuTitle } from './use-shell-navigation.js';

interface TabsBarProps {
  pageTabs: PageTabs;
  layout: LayoutConfig;
  fullScreen: boolean;
  onFullScreen(on: boolean): void;
}

/**
 * The open pages as tabs: click to return, × to close; the arrow menu (and a right click on a tab)
 * refreshes, closes this / the others / all, and toggles full-screen content. By keyboard the strip is
 * one Tab stop: the arrows move along it, Enter opens, Delete closes, Shift+F10 opens a tab's actions.
 */
export function TabsBar({ pageTabs, layout, fullScreen, onFullScreen }: TabsBarProps) {
  const translate = useTranslate();
  const menuTitle = useMenuTitle();
  const refresh = useRefresh();
  const { tabs, active } = pageTabs;
  const [menu, setMenu] = useState<{ anchor: HTMLElement | { x: number; y: number }; key?: string }>();
  const strip = useRef<HTMLDivElement>(null);
  const tabColor = pick(layout, layout.headerBarTabColor);
  const activeColor = pick(layout, layout.headerBarTabActiveColor);
  const activeBackground = pick(layout, layout.headerBarTabActiveBackground);
  const hover = pick(layout, layout.headerBarHoverBackground);

  // The active tab scrolled into view once the page is drawn: measuring the strip before then would
  // lay out the whole page twice while it is still being built (about 60 ms of a first list).
  useEffect(() => {
    let timer: number | undefined;
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(() => {
        const element = strip.current?.querySelector<HTMLElement>('[aria-selected="true"]');
        element?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
      }, 0);
    });
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [active?.key]);

  const hintId = useId();

  /** The tab at `index` (wrapping around), focused. */
  const focusTab = (index: number) => {
    const all = strip.current?.querySelectorAll<HTMLElement>('[role="tab"]');
    if (!all || all.length === 0) return;
    all[(index + all.length) % all.length].focus();
  };

  /** Closes a tab; when it was not the page shown, focus stays in the strip on its neighbour. */
  const closeTab = (key: string, index: number) => {
    const keepsPage = key !== active?.key;
    pageTabs.close(key);
    if (keepsPage && strip.current?.contains(document.activeElement)) window.setTimeout(() => focusTab(Math.min(index, tabs.length - 2)), 0);
  };

  // Arrows move between tabs, Enter or Space opens one, Delete closes it, the menu key opens its actions.
  const onTabKey = (event: KeyboardEvent<HTMLElement>, index: number) => {
    const tab = tabs[index];
    const keys: Record<string, () => void> = {
      ArrowRight: () => focusTab(index + 1),
      ArrowLeft: () => focusTab(index - 1),
      Home: () => focusTab(0),
      End: () => focusTab(tabs.length - 1),
      Enter: () => pageTabs.select(tab),
      ' ': () => pageTabs.select(tab),
      Delete: () => closeTab(tab.key, index),
      ContextMenu: () => setMenu({ anchor: event.currentTarget, key: tab.key }),
    };
    const run = event.shiftKey && event.key === 'F10' ? keys.ContextMenu : keys[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  };

  const target = menu?.key ?? active?.key;
  const close = () => setMenu(undefined);
  const run = (action: () => void) => () => {
    close();
    action();
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flex: 1, minWidth: 0, height: '100%' }}>
      <Box
        ref={strip}
        role="tablist"
        aria-label={translate('shell.tabs.label')}
        data-testid="page-tabs"
        sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flex: 1, minWidth: 0, height: '100%', overflowX: 'auto', scrollbarWidth: 'none', '&::-webkit-scrollbar': { display: 'none' } }}
      >
        {tabs.map((tab, index) => {
          const selected = tab.key === active?.key;
          const title = menuTitle({ key: tab.name, title: tab.title });
          return (
            <Box
              key={tab.key}
              role="tab"
              aria-selected={selected}
              aria-keyshortcuts="Delete"
              aria-describedby={hintId}
              tabIndex={selected ? 0 : -1}
              data-tab={tab.key}
              onClick={() => pageTabs.select(tab)}
              onKeyDown={(event: KeyboardEvent<HTMLElement>) => onTabKey(event, index)}
              onContextMenu={(event: MouseEvent) => {
                event.preventDefault();
                setMenu({ anchor: { x: event.clientX, y: event.clientY }, key: tab.key });
              }}
              sx={{
                position: 'relative',
                display: 'inline-flex',
                alignItems: 'center',
                gap: 0.75,
                flex: 'none',
                height: 34,
                pl: 1.5,
                pr: 0.75,
                borderRadius: 1.5,
                cursor: 'pointer',
                userSelect: 'none',
                fontSize: 13.5,
                whiteSpace: 'nowrap',
                color: selected ? activeColor : tabColor,
                bgcolor: selected ? activeBackground : 'transparent',
                boxShadow: selected ? (layout.isDark ? '0 0 0 1px rgba(255,255,255,0.08)' : '0 1px 6px rgba(0,0,0,0.1)') : 'none',
                transition: 'background-color .2s, color .2s',
                '&:hover': { bgcolor: selected ? activeBackground : hover },
                '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
                '&:hover .tab-close, & .tab-close.is-active': { opacity: 1 },
                '&::after': selected
                  ? { content: '""', position: 'absolute', left: 12, right: 12, bottom: 2, height: 2, borderRadius: 1, bgcolor: 'primary.main' }
                  : undefined,
              }}
            >
              <MenuIcon name={tab.icon} fontSize="inherit" />
              <span>{title}</span>
              {/* The pointer's way to close; the keyboard's is Delete on the tab (a tab holds no control of its own). */}
              <Box
                component="span"
                aria-hidden
                data-testid="tab-close"
                className={`tab-close${selected ? ' is-active' : ''}`}
                title={`${translate('shell.tabs.close')} ${title}`}
                onClick={(event: MouseEvent) => {
                  event.stopPropagation();
                  closeTab(tab.key, index);
                }}
                sx={{ display: 'inline-flex', p: '2px', borderRadius: '50%', opacity: 0.35, color: 'inherit', '&:hover': { bgcolor: 'action.hover' } }}
              >
                <CloseIcon sx={{ fontSize: 14 }} />
              </Box>
            </Box>
          );
        })}
      </Box>
      <Box component="span" id={hintId} sx={VISUALLY_HIDDEN}>
        {translate('a11y.tabCloseHint')}
      </Box>
      <Tooltip title={translate('shell.tabs.more')}>
        <IconButton size="small" aria-label={translate('shell.tabs.more')} aria-haspopup="menu" onClick={(event) => setMenu({ anchor: event.currentTarget })} sx={{ ml: 0.5, color: tabColor }}>
          <KeyboardArrowDownIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu
        open={Boolean(menu)}
        onClose={close}
        anchorEl={menu && 'nodeType' in menu.anchor ? menu.anchor : null}
        anchorReference={menu && !('nodeType' in menu.anchor) ? 'anchorPosition' : 'anchorEl'}
        anchorPosition={menu && !('nodeType' in menu.anchor) ? { top: menu.anchor.y, left: menu.anchor.x } : undefined}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem onClick={run(refresh)}>
          <ListItemIcon>
            <RefreshIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.tabs.refresh')}
        </MenuItem>
        <MenuItem disabled={!target} onClick={run(() => target && pageTabs.close(target))}>
          <ListItemIcon>
            <CloseIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.tabs.close')}
        </MenuItem>
        <MenuItem disabled={!target || tabs.length < 2} onClick={run(() => target && pageTabs.closeOthers(target))}>
          <ListItemIcon>
            <HorizontalRuleIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.tabs.closeOthers')}
        </MenuItem>
        <MenuItem onClick={run(pageTabs.closeAll)}>
          <ListItemIcon>
            <ClearAllIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.tabs.closeAll')}
        </MenuItem>
        <Divider />
        <MenuItem onClick={run(() => onFullScreen(!fullScreen))}>
          <ListItemIcon>{fullScreen ? <FullscreenExitIcon fontSize="small" /> : <FullscreenIcon fontSize="small" />}</ListItemIcon>
          {translate(fullScreen ? 'shell.tabs.exitFullScreen' : 'shell.tabs.fullScreen')}
        </MenuItem>
      </Menu>
    </Box>
  );
}
