import AppsIcon from '@mui/icons-material/Apps';
import { Box, ButtonBase, Dialog, DialogContent, DialogTitle, IconButton, InputAdornment, Tab, Tabs, TextField, Tooltip, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslate } from 'react-admin';
import { NamedIcon, iconNames, parseIconName, useIconSets, type IconFamily } from '../../components/icons/index.js';
import { TextWidgetField, useTextWidget, type TextWidgetProps } from './text-widget.js';

/** The picker's tabs: BuildAdmin's three families of icon names, each named by `generated.icon.family.<family>`. */
const FAMILIES: readonly IconFamily[] = ['fa', 'ep', 'local'];

/** Drawing a thousand icons at once makes the dialog slow to open; a search narrows the rest. */
const ICONS_SHOWN = 240;

/** The icons matching a search: every word must appear in the name (case-insensitive). */
export function searchIcons(query: string, names: readonly string[]): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return names.filter((name) => words.every((word) => name.toLowerCase().includes(word)));
}

/**
 * An icon name (`fa fa-user`, `el-icon-UserFilled`, `local-logo`) typed freely or picked from a searchable
 * grid of each family's whole set; the current icon is drawn beside the text.
 */
export function IconInput(props: TextWidgetProps) {
  const input = useTextWidget(props);
  const { field, value } = input;
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [family, setFamily] = useState<IconFamily>(() => parseIconName(value)?.family ?? 'fa');
  const sets = useIconSets();
  const names = useMemo(() => (sets ? iconNames(sets) : undefined), [sets]);
  const matches = useMemo(() => (names ? searchIcons(query, names[family]) : []), [names, family, query]);
  const pickText = translate('generated.icon.pick');

  const pick = (name: string) => {
    field.onChange(name);
    field.onBlur();
    setOpen(false);
  };

  return (
    <>
      <TextWidgetField
        {...props}
        input={input}
        widget="icon"
        sx={{ minWidth: 280 }}
        startAdornment={
          <InputAdornment position="start">
            <NamedIcon name={value} fontSize="small" />
          </InputAdornment>
        }
        endAdornment={
          <InputAdornment position="end">
            <Tooltip title={pickText}>
              <IconButton size="small" aria-label={pickText} onClick={() => setOpen(true)}>
                <AppsIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </InputAdornment>
        }
      />
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth>
        <DialogTitle>{pickText}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            size="small"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={translate('generated.icon.search')}
            slotProps={{ htmlInput: { 'aria-label': translate('generated.icon.search') } }}
            sx={{ mb: 2, mt: 1 }}
          />
          <Tabs value={family} onChange={(_event, next: IconFamily) => setFamily(next)} sx={{ mb: 1 }}>
            {FAMILIES.map((entry) => (
              <Tab key={entry} value={entry} label={translate(`generated.icon.family.${entry}`)} />
            ))}
          </Tabs>
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 1 }}>
            {matches.slice(0, ICONS_SHOWN).map((name) => (
              <ButtonBase
                key={name}
                onClick={() => pick(name)}
                aria-label={name}
                aria-pressed={name === value}
                sx={{
                  flexDirection: 'column', p: 1, borderRadius: 1, border: 1,
                  borderColor: name === value ? 'primary.main' : 'divider',
                }}
              >
                <NamedIcon name={name} fontSize="medium" />
                <Typography variant="caption" noWrap sx={{ maxWidth: '100%' }}>{name}</Typography>
              </ButtonBase>
            ))}
            {names && matches.length === 0 && (
              <Typography variant="body2" color="text.secondary">{translate('ra.navigation.no_results')}</Typography>
            )}
          </Box>
          {matches.length > ICONS_SHOWN && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {translate('generated.icon.more', { shown: ICONS_SHOWN, total: matches.length })}
            </Typography>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
