import { useEffect, useId, useMemo, useState, type MouseEvent } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Collapse, List, ListItem, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Menu, MenuItem, Tooltip } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { ancestorsOf, pageOf, type NavItem } from './menu-tree.js';
import { pick, type LayoutConfig } from '../../shell/layout-config.js';
import { MenuIcon } from '../../components/MenuIcon.js';
import { noteOpenMenus, rememberedMenus } from './shell-memory.js';
import { useInnerPath, useMenuTitle, useOpenNavItem } from './use-shell-navigation.js';

interface SideMenuProps {
  nav: NavItem[];
  layout: LayoutConfig;
  /** 64 px: icons only, titles as tooltips, directories as pop-up menus */
  collapsed: boolean;
  /** after an item was opened (closes the mobile drawer) */
  onOpened?: () => void;
}

interface Colors {
  color: string;
  activeColor: string;
  activeBackground: string;
  hover: string;
}

/**
 * The side menu built from the server's rule tree: nested menu directories, tab menus, link menus
 * (new window) and iframe menus; buttons never show. The active page is highlighted and its
 * directories opened. For assistive technology: `nav` > `ul` > `li` > button; a directory says whether
 * it is open (aria-expanded) and its pages are the nested list it controls; the shown page is
 * aria-current.
 */
export function SideMenu({ nav, layout, collapsed, onOpened }: SideMenuProps) {
  const translate = useTranslate();
  const innerPath = useInnerPath();
  const active = pageOf(nav, innerPath);
  const activeTrail = useMemo(() => (active ? (ancestorsOf(nav, active.key) ?? []) : []), [nav, active]);
  const [open, setOpen] = useState<Set<string>>(() => new Set([...rememberedMenus(), ...activeTrail]));
  useEffect(() => noteOpenMenus(open), [open]);
  const openItem = useOpenNavItem();
  const colors: Colors = {
    color: pick(layout, layout.menuColor),
    activeColor: pick(layout, layout.menuActiveColor),
    activeBackground: pick(layout, layout.menuActiveBackground),
    hover: pick(layout, layout.headerBarHoverBackground),
  };

  // Opening a page from elsewhere (a tab, a link) unfolds its directories.
  useEffect(() => {
    if (activeTrail.length === 0) return;
    setOpen((current) => (activeTrail.every((key) => current.has(key)) ? current : new Set([...(layout.menuUniqueOpened ? [] : current), ...activeTrail])));
  }, [activeTrail, layout.menuUniqueOpened]);

  const toggle = (item: NavItem) => {
    setOpen((current) => {
      const next = new Set(layout.menuUniqueOpened ? (ancestorsOf(nav, item.key) ?? []) : current);
      if (current.has(item.key)) next.delete(item.key);
      else next.add(item.key);
      return next;
    });
  };

  const choose = (item: NavItem) => {
    openItem(item);
    onOpened?.();
  };

  return (
    <Box component="nav" aria-label={translate('shell.menu.label')} data-testid="side-menu" sx={{ py: 1, color: colors.color }}>
      <List dense disablePadding>
        {nav.map((item) =>
          collapsed ? (
            <CollapsedEntry key={item.key} item={item} activeKey={active?.key} activeTrail={activeTrail} colors={colors} onChoose={choose} />
          ) : (
            <Entry key={item.key} item={item} depth={0} open={open} activeKey={active?.key} colors={colors} onToggle={toggle} onChoose={choose} />
          ),
        )}
      </List>
    </Box>
  );
}

const itemSx = (colors: Colors, selected: boolean, depth: number) => ({
  minHeight: 46,
  mx: 1,
  my: '2px',
  pl: 2 + depth * 2.25,
  pr: 1.5,
  borderRadius: 1.5,
  color: selected ? colors.activeColor : 'inherit',
  bgcolor: selected ? colors.activeBackground : 'transparent',
  '&:hover': { bgcolor: colors.hover },
  '&.Mui-selected, &.Mui-selected:hover': {
    bgcolor: colors.activeBackground === colors.hover ? colors.hover : colors.activeBackground,
    color: colors.activeColor,
  },
  '& .MuiListItemIcon-root': { minWidth: 34, color: 'inherit' },
  '& .MuiListItemText-primary': { fontSize: 14, fontWeight: selected ? 600 : 400, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
});

function Entry({
  item,
  depth,
  open,
  activeKey,
  colors,
  onToggle,
  onChoose,
}: {
  item: NavItem;
  depth: number;
  open: Set<string>;
  activeKey?: string;
  colors: Colors;
  onToggle(item: NavItem): void;
  onChoose(item: NavItem): void;
}) {
  const title = useMenuTitle()(item);
  const groupId = `side-menu-group-${useId()}`;
  if (item.children) {
    const isOpen = open.has(item.key);
    return (
      <ListItem disablePadding sx={{ display: 'block' }}>
        <ListItemButton onClick={() => onToggle(item)} aria-expanded={isOpen} aria-controls={isOpen ? groupId : undefined} sx={itemSx(colors, false, depth)}>
          <ListItemIcon>
            <MenuIcon name={item.icon} />
          </ListItemIcon>
          <ListItemText primary={title} />
          <ExpandMoreIcon fontSize="small" sx={{ opacity: 0.6, transition: 'transform .2s', transform: isOpen ? 'rotate(180deg)' : 'none' }} />
        </ListItemButton>
        <Collapse in={isOpen} timeout="auto" unmountOnExit>
          <List dense disablePadding id={groupId} aria-label={title}>
            {item.children.map((child) => (
              <Entry key={child.key} item={child} depth={depth + 1} open={open} activeKey={activeKey} colors={colors} onToggle={onToggle} onChoose={onChoose} />
            ))}
          </List>
        </Collapse>
      </ListItem>
    );
  }
  const selected = item.key === activeKey;
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton selected={selected} aria-current={selected ? 'page' : undefined} onClick={() => onChoose(item)} sx={itemSx(colors, selected, depth)}>
        <ListItemIcon>
          <MenuIcon name={item.icon} />
        </ListItemIcon>
        <ListItemText primary={title} />
        {item.kind === 'link' && <OpenInNewIcon sx={{ fontSize: 14, opacity: 0.5 }} />}
      </ListItemButton>
    </ListItem>
  );
}

function CollapsedEntry({
  item,
  activeKey,
  activeTrail,
  colors,
  onChoose,
}: {
  item: NavItem;
  activeKey?: string;
  activeTrail: string[];
  colors: Colors;
  onChoose(item: NavItem): void;
}) {
  const menuTitle = useMenuTitle();
  const title = menuTitle(item);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const selected = item.key === activeKey || activeTrail.includes(item.key);
  const button = (
    <ListItemButton
      selected={selected}
      aria-label={title}
      aria-current={item.key === activeKey ? 'page' : undefined}
      aria-haspopup={item.children ? 'menu' : undefined}
      aria-expanded={item.children ? Boolean(anchor) : undefined}
      onClick={(event: MouseEvent<HTMLElement>) => (item.children ? setAnchor(event.currentTarget) : onChoose(item))}
      sx={{ ...itemSx(colors, selected, 0), justifyContent: 'center', px: 0, pl: 0, '& .MuiListItemIcon-root': { minWidth: 0, color: 'inherit' } }}
    >
      <ListItemIcon>
        <MenuIcon name={item.icon} />
      </ListItemIcon>
    </ListItemButton>
  );
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <Tooltip title={title} placement="right">
        {button}
      </Tooltip>
      {item.children && (
        <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'top', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'left' }}>
          <ListSubheader role="presentation" sx={{ lineHeight: '32px' }}>
            {title}
          </ListSubheader>
          {flattenForPopup(item.children).map(({ entry, depth }) => (
            <MenuItem
              key={entry.key}
              selected={entry.key === activeKey}
              disabled={Boolean(entry.children)}
              onClick={() => {
                setAnchor(null);
                onChoose(entry);
              }}
              sx={{ pl: 2 + depth * 2, minWidth: 200, gap: 1.25 }}
            >
              <MenuIcon name={entry.icon} />
              <Box component="span">{menuTitle(entry)}</Box>
            </MenuItem>
          ))}
        </Menu>
      )}
    </ListItem>
  );
}

/** Nested directories inside the pop-up: shown as disabled headings with their pages indented. */
function flattenForPopup(items: NavItem[], depth = 0): { entry: NavItem; depth: number }[] {
  return items.flatMap((entry) => [{ entry, depth }, ...(entry.children ? flattenForPopup(entry.children, depth + 1) : [])]);
}
