import AppsIcon from '@mui/icons-material/Apps';
import { Box, ButtonBase, Dialog, DialogContent, DialogTitle, IconButton, InputAdornment, TextField, Tooltip, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useInput, useTranslate, InputHelperText } from 'react-admin';
import { FALLBACK_ICON, ICON_NAMES, iconComponentOf } from '../fields/icon-catalog.js';
import { keepValue, requiredMark } from './input-props.js';

export interface IconInputProps {
  source: string;
  label: string;
  required?: boolean;
  helperText?: string;
}

/** The icons matching a search: every word must appear in the name (case-insensitive). */
export function searchIcons(query: string, names: readonly string[] = ICON_NAMES): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return names.filter((name) => words.every((word) => name.toLowerCase().includes(word)));
}

/**
 * An icon name (`fa fa-user`, `el-icon-UserFilled`) typed freely or picked from a searchable grid of the
 * curated catalog; the current icon is drawn beside the text.
 */
export function IconInput({ source, label, required = false, helperText }: IconInputProps) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const matches = useMemo(() => searchIcons(query), [query]);
  const value = typeof field.value === 'string' ? field.value : '';
  const Current = iconComponentOf(value) ?? FALLBACK_ICON;
  const pickText = translate('generated.icon.pick', { _: 'Choose icon' });
  const error = fieldState.error?.message;

  const pick = (name: string) => {
    field.onChange(name);
    field.onBlur();
    setOpen(false);
  };

  return (
    <>
      <TextField
        name={field.name}
        value={value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        label={label}
        required={required}
        size="small"
        error={!!error}
        helperText={<InputHelperText error={error} helperText={helperText} />}
        sx={{ minWidth: 280 }}
        data-widget="icon"
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Current fontSize="small" />
              </InputAdornment>
            ),
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={pickText}>
                  <IconButton size="small" aria-label={pickText} onClick={() => setOpen(true)}>
                    <AppsIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
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
            placeholder={translate('generated.icon.search', { _: 'Search icons' })}
            slotProps={{ htmlInput: { 'aria-label': translate('generated.icon.search', { _: 'Search icons' }) } }}
            sx={{ mb: 2, mt: 1 }}
          />
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))', gap: 1 }}>
            {matches.map((name) => {
              const Icon = iconComponentOf(name) ?? FALLBACK_ICON;
              return (
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
                  <Icon />
                  <Typography variant="caption" noWrap sx={{ maxWidth: '100%' }}>{name}</Typography>
                </ButtonBase>
              );
            })}
            {matches.length === 0 && (
              <Typography variant="body2" color="text.secondary">{translate('ra.navigation.no_results', { _: 'No results found' })}</Typography>
            )}
          </Box>
        </DialogContent>
      </Dialog>
    </>
  );
}
