import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutline';
import { Box, Button, FormControl, FormHelperText, FormLabel, IconButton, Stack, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { InputHelperText, useInput, useTranslate } from 'react-admin';
import { keepValue, requiredMark, SMALL_LABEL } from '../../../inputs/input-props.js';

interface StoredGroup {
  key: string;
  value: string;
}

interface GroupRow {
  key: string;
  /** the title as stored (for a seeded group the English text the server translates) */
  stored: string;
  /** the title as the field shows it */
  shown: string;
  /** the person typed the title: it is stored as typed */
  edited: boolean;
  /** added on this screen: its key is typed too */
  added: boolean;
}

function storedGroups(value: unknown): StoredGroup[] {
  return Array.isArray(value)
    ? value
        .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
        .map((item) => ({ key: String(item.key ?? ''), value: String(item.value ?? '') }))
    : [];
}

/** The stored groups as rows, each titled as its tab is. */
function rowsOf(value: unknown, titles: Readonly<Record<string, string>>): GroupRow[] {
  return storedGroups(value).map((group) => ({ key: group.key, stored: group.value, shown: titles[group.key] ?? group.value, edited: false, added: false }));
}

/** What the form holds: a title nobody touched goes back as it was stored, so it stays translated. */
function valueOfRows(rows: readonly GroupRow[]): StoredGroup[] {
  return rows.filter((row) => row.key.trim() !== '').map((row) => ({ key: row.key, value: row.edited ? row.shown : row.stored }));
}

interface ConfigGroupsInputProps {
  source: string;
  label: string;
  required?: boolean;
  helperText?: string;
  /** each group's title in the reader's language, as the server sends the tabs' */
  titles: Readonly<Record<string, string>>;
  /** the groups that hold items, which the server keeps */
  inUse: ReadonlySet<string>;
}

/**
 * The config screen's groups (`config_group`): each group by its title in the reader's language, which is
 * what its tab says; the key, which only config items refer to, is typed for a new group and otherwise
 * not shown. A group that holds items cannot be removed (the server keeps it too), so it has no remove
 * button.
 */
export function ConfigGroupsInput({ source, label, required = false, helperText, titles, inUse }: ConfigGroupsInputProps) {
  const translate = useTranslate();
  const { id, field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const [rows, setRows] = useState<GroupRow[]>(() => rowsOf(field.value, titles));
  const written = useRef(JSON.stringify(valueOfRows(rows)));

  // A value set from outside (the form reset after a save) replaces the rows being edited.
  useEffect(() => {
    const incoming = JSON.stringify(storedGroups(field.value).filter((group) => group.key.trim() !== ''));
    if (incoming !== written.current) {
      written.current = incoming;
      setRows(rowsOf(field.value, titles));
    }
  }, [field.value, titles]);

  const update = (next: GroupRow[]) => {
    setRows(next);
    const value = valueOfRows(next);
    written.current = JSON.stringify(value);
    field.onChange(value);
  };
  const change = (index: number, part: Partial<GroupRow>) => update(rows.map((row, position) => (position === index ? { ...row, ...part } : row)));
  const error = fieldState.error?.message;

  return (
    <FormControl error={!!error} required={required} sx={{ mb: 2 }} data-widget="config-groups">
      <FormLabel id={`${id}-label`} sx={SMALL_LABEL}>{label}</FormLabel>
      <Stack spacing={1} role="list" aria-labelledby={`${id}-label`}>
        {rows.map((row, index) => {
          const title = row.shown.trim() || row.key;
          return (
            <Stack key={index} role="listitem" direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              {row.added && (
                <TextField
                  size="small"
                  label={translate('config.groupEditor.key')}
                  value={row.key}
                  sx={{ flex: '1 1 0', minWidth: 0 }}
                  onBlur={field.onBlur}
                  onChange={(event) => change(index, { key: event.target.value })}
                  slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
                />
              )}
              <TextField
                size="small"
                // a new row names its two boxes; a group's title box says what it holds to screen readers only
                {...(row.added ? { label: translate('config.groupEditor.title') } : { slotProps: { htmlInput: { 'aria-label': translate('config.groupEditor.title') } } })}
                value={row.shown}
                sx={{ flex: '1 1 0', minWidth: 0 }}
                onBlur={field.onBlur}
                onChange={(event) => change(index, { shown: event.target.value, edited: true })}
              />
              {inUse.has(row.key) && !row.added ? (
                // keeps the titles in one column with the rows that can be removed
                <Box sx={{ width: 34, flex: 'none' }} />
              ) : (
                <IconButton size="small" aria-label={translate('config.groupEditor.remove', { title })} onClick={() => update(rows.filter((_row, position) => position !== index))}>
                  <RemoveIcon fontSize="small" />
                </IconButton>
              )}
            </Stack>
          );
        })}
      </Stack>
      <div>
        <Button size="small" startIcon={<AddIcon />} sx={{ mt: 1 }} onClick={() => update([...rows, { key: '', stored: '', shown: '', edited: true, added: true }])}>
          {translate('config.groupEditor.add')}
        </Button>
      </div>
      <FormHelperText>
        <InputHelperText error={error} helperText={helperText} />
      </FormHelperText>
    </FormControl>
  );
}
