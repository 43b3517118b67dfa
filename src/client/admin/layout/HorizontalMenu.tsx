import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Box, ButtonBase, ListSubheader, Menu, MenuItem } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import MoreHorizIcon from '@mui/icons-material/MoreHoriz';
import { useTranslate } from 'react-admin';
import { ancestorsOf, pageOf, type NavItem } from './menu-tree.js';
import { pick, type LayoutConfig } from '../../shell/layout-config.js';
import { MenuIcon } from '../../components/MenuIcon.js';
import { useInnerPath, useMenuTitle, useOpenNavItem } from './use-shell-navigation.js';

const MORE_WIDTH = 56;
const MORE_KEY = '__more';

/**
 * How many entries fit: widths measured once per set of titles, the rest goes into a "more" menu.
 * Pure, for the resize observer below.
 */
function fittingCount(widths: readonly number[], available: number, moreWidth = MORE_WIDTH): number {
  const total = widths.reduce((sum, width) => sum + width, 0);
  if (total <= available) return widths.length;
  let used = moreWidth;
  let count = 0;
  for (const width of widths) {
    if (used + width > available) break;
    used += width;
    count += 1;
  }
  return count;
}

/** The Streamline layout's menu: top-level entries in the header, directories as drop-downs. */
export function HorizontalMenu({ nav, layout }: { nav: NavItem[]; layout: LayoutConfig }) {
  const translate = useTranslate();
  const container = useRef<HTMLDivElement>(null);
  const [widths, setWidths] = useState<number[]>();
  const [visible, setVisible] = useState(nav.length);
  const titlesKey = nav.map((item) => item.key).join('|');
  const innerPath = useInnerPath();
  const active = pageOf(nav, innerPath);
  const trail = useMemo(() => (active ? [...(ancestorsOf(nav, active.key) ?? []), active.key] : []), [nav, active]);
  const openItem = useOpenNavItem();
  const menuTitle = useMenuTitle();
  const [open, setOpen] = useState<{ anchor: HTMLElement; item: NavItem }>();
  const color = pick(layout, layout.menuColor);
  const activeColor = pick(layout, layout.menuActiveColor);
  const hover = pick(layout, layout.headerBarHoverBackground);

  // Measure every entry once (all rendered), then keep as many as fit, on every resize.
  useLayoutEffect(() => {
    setWidths(undefined);
    setVisible(nav.length);
  }, [titlesKey, nav.length]);
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    if (!widths) {
      const measured = Array.from(element.querySelectorAll<HTMLElement>('[data-entry]')).map((entry) => entry.offsetWidth);
      if (measured.length === nav.length) setWidths(measured);
      return;
    }
    const fit = () => setVisible(fittingCount(widths, element.clientWidth));
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    return () => observer.disconnect();
  }, [widths, nav.length]);

  const shown = widths ? nav.slice(0, visible) : nav;
  const hidden = widths ? nav.slice(visible) : [];

  return (
    <Box ref={container} component="nav" aria-label={translate('shell.menu.label')} data-testid="horizontal-menu" sx={{ display: 'flex', alignItems: 'stretch', flex: 1, minWidth: 0, height: '100%', overflow: 'hidden' }}>
      <Box component="ul" sx={{ display: 'flex', alignItems: 'stretch', height: '100%', minWidth: 0, m: 0, p: 0, listStyle: 'none' }}>
        {shown.map((item) => {
          const selected = trail.includes(item.key);
          return (
            <Box component="li" key={item.key} data-entry sx={{ display: 'flex', flex: 'none' }}>
              <ButtonBase
                aria-haspopup={item.children ? 'menu' : undefined}
                aria-expanded={item.children ? open?.item.key === item.key : undefined}
                aria-current={selected && !item.children ? 'page' : undefined}
                onClick={(event) => (item.children ? setOpen({ anchor: event.currentTarget, item }) : openItem(item))}
                sx={{
                  flex: 'none',
                  gap: 0.75,
                  px: 1.75,
                  font: 'inherit',
                  fontSize: 14,
                  color: selected ? activeColor : color,
                  borderBottom: 2,
                  borderColor: selected ? activeColor : 'transparent',
                  '&:hover': { bgcolor: hover },
                }}
              >
                <MenuIcon name={item.icon} />
                {menuTitle(item)}
                {item.children && <ExpandMoreIcon sx={{ fontSize: 16, opacity: 0.6 }} />}
              </ButtonBase>
            </Box>
          );
        })}
        {hidden.length > 0 && (
          <Box component="li" sx={{ display: 'flex', flex: 'none' }}>
            <ButtonBase
              aria-label={translate('shell.menu.more')}
              aria-haspopup="menu"
              aria-expanded={open?.item.key === MORE_KEY}
              onClick={(event) => setOpen({ anchor: event.currentTarget, item: { key: MORE_KEY, title: '', icon: '', kind: 'dir', children: hidden, rule: hidden[0].rule } })}
              sx={{ flex: 'none', width: MORE_WIDTH, color: hidden.some((item) => trail.includes(item.key)) ? activeColor : color, '&:hover': { bgcolor: hover } }}
            >
              <MoreHorizIcon />
            </ButtonBase>
          </Box>
        )}
      </Box>
      <Menu anchorEl={open?.anchor} open={Boolean(open)} onClose={() => setOpen(undefined)}>
        {open && renderChildren(open.item.children ?? [], 0)}
      </Menu>
    </Box>
  );

  function renderChildren(items: NavItem[], depth: number): ReactNode[] {
    return items.flatMap((entry) =>
      entry.children
        ? [
            <ListSubheader key={entry.key} role="presentation" sx={{ lineHeight: '32px', pl: 2 + depth * 2 }}>
              {menuTitle(entry)}
            </ListSubheader>,
            ...renderChildren(entry.children, depth + 1),
          ]
        : [
            <MenuItem
              key={entry.key}
              selected={entry.key === active?.key}
              onClick={() => {
                setOpen(undefined);
                openItem(entry);
              }}
              aria-current={entry.key === active?.key ? 'page' : undefined}
              sx={{ pl: 2 + depth * 2, gap: 1.25, minWidth: 200 }}
            >
              <MenuIcon name={entry.icon} />
              {menuTitle(entry)}
            </MenuItem>,
          ],
    );
  }
}
