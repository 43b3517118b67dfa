import { Alert, Box, Button, Divider, Drawer, FormControlLabel, IconButton, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useTranslate } from 'react-admin';
import { isLanguage, LANGUAGES } from '../../../contract/headers.js';
import { currentLanguage, LANGUAGE_NAMES, storeLanguage } from '../../i18n/store-config.js';
import { contrastWarnings, DEFAULT_LAYOUT, LAYOUT_MODES, MENU_WIDTH_RANGE, pick, withColor, type ColorKey, type LayoutConfig, type LayoutMode } from '../../shell/layout-config.js';
import { setLayout, setLayoutMode } from '../../shell/layout-store.js';

interface SettingsDrawerProps {
  open: boolean;
  onClose(): void;
  layout: LayoutConfig;
  tabFullScreen: boolean;
  onTabFullScreen(on: boolean): void;
  reload?: () => void;
}

/** A thumbnail of each layout: where the menu and the header sit. */
function LayoutPreview({ mode, dark }: { mode: LayoutMode; dark: boolean }) {
  const bar = dark ? '#3a3b3d' : '#e4e7ed';
  const menu = dark ? '#2b2c2e' : '#d3dce6';
  const page = dark ? '#1d1e1f' : '#f5f7fa';
  return (
    <Box sx={{ position: 'relative', width: '100%', aspectRatio: '16 / 10', borderRadius: 1, bgcolor: page, overflow: 'hidden' }}>
      {mode === 'Default' && (
        <>
          <Box sx={{ position: 'absolute', left: '5%', top: '7%', bottom: '7%', width: '24%', borderRadius: 0.75, bgcolor: menu }} />
          <Box sx={{ position: 'absolute', left: '34%', right: '5%', top: '7%', height: '16%', borderRadius: 0.75, bgcolor: bar }} />
        </>
      )}
      {mode === 'Classic' && (
        <>
          <Box sx={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: '26%', bgcolor: menu }} />
          <Box sx={{ position: 'absolute', left: '26%', right: 0, top: 0, height: '15%', bgcolor: bar }} />
        </>
      )}
      {mode === 'Streamline' && <Box sx={{ position: 'absolute', left: 0, right: 0, top: 0, height: '18%', bgcolor: menu }} />}
    </Box>
  );
}

/** The colours an admin may change, by part of the shell (docs/client.md#layout). */
const COLOR_GROUPS: { title: string; keys: ColorKey[] }[] = [
  { title: 'menu', keys: ['menuBackground', 'menuColor', 'menuActiveBackground', 'menuActiveColor', 'menuTopBarBackground'] },
  { title: 'header', keys: ['headerBarBackground', 'headerBarTabColor', 'headerBarTabActiveBackground', 'headerBarTabActiveColor', 'headerBarHoverBackground'] },
];

/** One colour of the current scheme (light or dark): a picker and a reset to the stock colour. */
function ColorSetting({ layout, name }: { layout: LayoutConfig; name: ColorKey }) {
  const translate = useTranslate();
  const label = translate(`shell.settings.colors.${name}`);
  const value = pick(layout, layout[name]);
  const stock = pick(layout, DEFAULT_LAYOUT[name]);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}>
      <Typography variant="body2" sx={{ flex: 1 }}>
        {label}
      </Typography>
      <Box
        component="input"
        type="color"
        aria-label={label}
        value={value}
        onChange={(event: React.ChangeEvent<HTMLInputElement>) => setLayout(withColor(layout, name, event.target.value))}
        sx={{ width: 36, height: 26, p: 0, border: 1, borderColor: 'divider', borderRadius: 0.5, bgcolor: 'transparent', cursor: 'pointer' }}
      />
      <IconButton
        size="small"
        aria-label={translate('shell.settings.resetColor', { name: label })}
        title={translate('shell.settings.resetColor', { name: label })}
        disabled={value.toLowerCase() === stock.toLowerCase()}
        onClick={() => setLayout(withColor(layout, name, stock))}
      >
        <RestartAltIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

/**
 * The picked colours that are too close to their background: each named with both colours and its ratio;
 * the shell draws such a text colour darker (or lighter) so that it still reads.
 */
function ContrastWarnings({ layout }: { layout: LayoutConfig }) {
  const translate = useTranslate();
  const warnings = contrastWarnings(layout);
  if (warnings.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {translate('shell.settings.contrast.title')}
      <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2 }}>
        {warnings.map(({ text, background, ratio }) => (
          <li key={`${text}-${background}`}>
            {translate('shell.settings.contrast.pair', {
              text: translate(`shell.settings.colors.${text}`),
              background: translate(`shell.settings.colors.${background}`),
              ratio: ratio.toFixed(2),
            })}
          </li>
        ))}
      </Box>
    </Alert>
  );
}

/**
 * Layout settings (docs/client.md#layout, #languages): layout mode, dark mode, language (stored, then the page reloads),
 * the side menu's behaviour and full-screen content. Everything is kept in `storeConfig_v2`.
 */
export function SettingsDrawer({ open, onClose, layout, tabFullScreen, onTabFullScreen, reload = () => window.location.reload() }: SettingsDrawerProps) {
  const translate = useTranslate();
  const language = currentLanguage();
  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 320, maxWidth: '100vw' } } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2.5, py: 1.5 }}>
        <Typography variant="h6" component="h2" sx={{ fontSize: 17, fontWeight: 600 }}>
          {translate('shell.settings.title')}
        </Typography>
        <IconButton aria-label={translate('shell.settings.close')} onClick={onClose} size="small">
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      <Divider />
      <Box sx={{ px: 2.5, py: 2, overflowY: 'auto' }}>
        <Typography variant="overline" color="text.secondary">
          {translate('shell.settings.layoutMode')}
        </Typography>
        <Box role="radiogroup" aria-label={translate('shell.settings.layoutMode')} sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 1.25, mt: 0.5, mb: 2.5 }}>
          {LAYOUT_MODES.map((mode) => {
            const checked = layout.layoutMode === mode;
            return (
              <Box
                key={mode}
                component="button"
                type="button"
                role="radio"
                aria-checked={checked}
                onClick={() => setLayoutMode(mode)}
                sx={{
                  p: 0.75,
                  border: 2,
                  borderColor: checked ? 'primary.main' : 'divider',
                  borderRadius: 1.5,
                  bgcolor: 'transparent',
                  color: checked ? 'primary.main' : 'text.secondary',
                  font: 'inherit',
                  fontSize: 12,
                  cursor: 'pointer',
                  '&:hover': { borderColor: 'primary.light' },
                }}
              >
                <LayoutPreview mode={mode} dark={layout.isDark} />
                <Box component="span" sx={{ display: 'block', mt: 0.75 }}>
                  {translate(`shell.settings.modes.${mode}`)}
                </Box>
              </Box>
            );
          })}
        </Box>
        <Typography variant="overline" color="text.secondary">
          {translate('shell.settings.general')}
        </Typography>
        <Stack sx={{ mt: 0.5, mb: 2 }}>
          <FormControlLabel
            sx={{ justifyContent: 'space-between', ml: 0, gap: 2 }}
            slotProps={{ typography: { variant: 'body2' } }}
            labelPlacement="start"
            label={translate('shell.settings.darkMode')}
            control={<Switch checked={layout.isDark} onChange={(event) => setLayout({ isDark: event.target.checked })} />}
          />
          <FormControlLabel
            sx={{ justifyContent: 'space-between', ml: 0, gap: 2 }}
            slotProps={{ typography: { variant: 'body2' } }}
            labelPlacement="start"
            label={translate('shell.settings.menuCollapse')}
            control={<Switch checked={layout.menuCollapse} disabled={layout.layoutMode === 'Streamline'} onChange={(event) => setLayout({ menuCollapse: event.target.checked })} />}
          />
          <FormControlLabel
            sx={{ justifyContent: 'space-between', ml: 0, gap: 2 }}
            slotProps={{ typography: { variant: 'body2' } }}
            labelPlacement="start"
            label={translate('shell.settings.menuUniqueOpened')}
            control={<Switch checked={layout.menuUniqueOpened} onChange={(event) => setLayout({ menuUniqueOpened: event.target.checked })} />}
          />
          <FormControlLabel
            sx={{ justifyContent: 'space-between', ml: 0, gap: 2 }}
            slotProps={{ typography: { variant: 'body2' } }}
            labelPlacement="start"
            label={translate('shell.settings.menuShowTopBar')}
            control={<Switch checked={layout.menuShowTopBar} disabled={layout.layoutMode === 'Streamline'} onChange={(event) => setLayout({ menuShowTopBar: event.target.checked })} />}
          />
          <FormControlLabel
            sx={{ justifyContent: 'space-between', ml: 0, gap: 2 }}
            slotProps={{ typography: { variant: 'body2' } }}
            labelPlacement="start"
            label={translate('shell.settings.tabFullScreen')}
            control={<Switch checked={tabFullScreen} onChange={(event) => onTabFullScreen(event.target.checked)} />}
          />
        </Stack>
        <TextField
          type="number"
          fullWidth
          size="small"
          sx={{ mb: 2 }}
          label={translate('shell.settings.menuWidth')}
          value={layout.menuWidth}
          disabled={layout.layoutMode === 'Streamline'}
          slotProps={{ htmlInput: { min: MENU_WIDTH_RANGE.min, max: MENU_WIDTH_RANGE.max, step: 10 } }}
          helperText={translate('shell.settings.menuWidthHelp', { min: MENU_WIDTH_RANGE.min, max: MENU_WIDTH_RANGE.max })}
          onChange={(event) => {
            const width = Number(event.target.value);
            if (Number.isInteger(width) && width >= MENU_WIDTH_RANGE.min && width <= MENU_WIDTH_RANGE.max) setLayout({ menuWidth: width });
          }}
        />
        {COLOR_GROUPS.map((group) => (
          <Box key={group.title} sx={{ mb: 2 }}>
            <Typography variant="overline" color="text.secondary">
              {translate(`shell.settings.colorGroups.${group.title}`)}
            </Typography>
            {group.keys.map((key) => (
              <ColorSetting key={key} layout={layout} name={key} />
            ))}
          </Box>
        ))}
        <ContrastWarnings layout={layout} />
        <TextField
          select
          fullWidth
          size="small"
          label={translate('shell.settings.language')}
          value={language}
          onChange={(event) => {
            if (!isLanguage(event.target.value) || event.target.value === language) return;
            storeLanguage(event.target.value);
            reload();
          }}
        >
          {LANGUAGES.map((item) => (
            <MenuItem key={item} value={item} lang={item}>
              {LANGUAGE_NAMES[item]}
            </MenuItem>
          ))}
        </TextField>
        <Button fullWidth variant="outlined" color="inherit" sx={{ mt: 3 }} onClick={() => setLayout({ ...DEFAULT_LAYOUT, isDark: layout.isDark })}>
          {translate('shell.settings.reset')}
        </Button>
      </Box>
    </Drawer>
  );
}
