import { useMemo } from 'react';
import { Autocomplete, Box, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { MenuRule } from '../../../providers/admin-bootstrap.js';
import { useShellState } from '../../bootstrap-store.js';
import { MenuIcon } from '../../../components/MenuIcon.js';
import { useMenuTitle } from '../../layout/use-shell-navigation.js';
import { allDefinitions } from '../../../schemas.js';
import { NAME_PATTERN, prefixOf, type DesignDraft, type TableDraft } from './design-model.js';

/** The module as a whole: table name, both titles, comment, menu place and icon, quick search, default order. */

function directories(menus: readonly MenuRule[]): MenuRule[] {
  return menus.flatMap((rule) => (rule.type === 'menu_dir' ? [rule, ...directories(rule.children ?? [])] : []));
}

interface TableSettingsProps {
  design: DesignDraft;
  /** the table name is fixed once the module exists (a new name is a new module) */
  nameLocked: boolean;
  onChange(patch: Partial<TableDraft>): void;
}

/** The module's title and icon are its menu's: at most what the menu rules keep (the server refuses longer ones in words). */
function menuLimit(column: 'title' | 'icon'): number {
  return allDefinitions().find((definition) => definition.table === 'admin_rule')?.fields.find((field) => field.name === column)?.storage?.length ?? 50;
}

export function TableSettings({ design, nameLocked, onChange }: TableSettingsProps) {
  const translate = useTranslate();
  const menuTitle = useMenuTitle();
  const shell = useShellState();
  const parents = useMemo(() => directories(shell?.menus ?? []), [shell?.menus]);
  const { table } = design;
  const fieldNames = design.fields.map((field) => field.name).filter(Boolean);
  const nameError = table.name !== '' && !NAME_PATTERN.test(table.name);
  const [titleLimit, iconLimit] = useMemo(() => [menuLimit('title'), menuLimit('icon')], []);
  // By the table name, the menu goes under a directory named by its prefix: made with the titles typed here
  // unless a directory of that name is there already.
  const prefix = table.menuParent === '' && NAME_PATTERN.test(table.name) ? prefixOf(table.name) : undefined;
  const newDirectory = prefix !== undefined && !parents.some((rule) => rule.name.toLowerCase() === prefix.toLowerCase());
  const setDirTitle = (lang: 'zh-cn' | 'en', value: string) => onChange({ menuDirTitle: { ...table.menuDirTitle, [lang]: value } });
  return (
    <Box component="section" aria-label={translate('crud.table.title')} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' } }}>
      <TextField
        label={translate('crud.table.name')}
        value={table.name}
        required
        disabled={nameLocked}
        error={nameError}
        helperText={translate(nameError ? 'crud.problems.tableName' : 'crud.table.nameHelp')}
        onChange={(event) => onChange({ name: event.target.value.trim() })}
        slotProps={{ htmlInput: { maxLength: 40, spellCheck: false, autoCapitalize: 'none' } }}
      />
      <TextField label={translate('crud.table.titleZh')} value={table.title['zh-cn']} onChange={(event) => onChange({ title: { ...table.title, 'zh-cn': event.target.value } })} slotProps={{ htmlInput: { maxLength: titleLimit } }} />
      <TextField label={translate('crud.table.titleEn')} value={table.title.en} onChange={(event) => onChange({ title: { ...table.title, en: event.target.value } })} slotProps={{ htmlInput: { maxLength: titleLimit } }} />
      <TextField label={translate('crud.table.comment')} value={table.comment} onChange={(event) => onChange({ comment: event.target.value })} slotProps={{ htmlInput: { maxLength: 100 } }} />
      <TextField select label={translate('crud.table.menuParent')} value={table.menuParent} onChange={(event) => onChange({ menuParent: event.target.value })}>
        <MenuItem value="">{translate('crud.table.byName')}</MenuItem>
        {parents.map((rule) => (
          <MenuItem key={rule.name} value={rule.name}>
            {menuTitle({ key: rule.name, title: rule.title })}
          </MenuItem>
        ))}
      </TextField>
      {newDirectory && (
        <>
          <TextField
            label={translate('crud.table.dirTitleZh')}
            value={table.menuDirTitle['zh-cn']}
            onChange={(event) => setDirTitle('zh-cn', event.target.value)}
            helperText={translate('crud.table.dirTitleHelp', { name: prefix })}
            slotProps={{ htmlInput: { maxLength: titleLimit } }}
          />
          <TextField
            label={translate('crud.table.dirTitleEn')}
            value={table.menuDirTitle.en}
            onChange={(event) => setDirTitle('en', event.target.value)}
            helperText={translate('crud.table.dirTitleHelp', { name: prefix })}
            slotProps={{ htmlInput: { maxLength: titleLimit } }}
          />
        </>
      )}
      <TextField
        label={translate('crud.table.icon')}
        value={table.icon}
        onChange={(event) => onChange({ icon: event.target.value })}
        helperText={translate('crud.table.iconHelp')}
        slotProps={{ htmlInput: { maxLength: iconLimit, spellCheck: false }, input: { startAdornment: <Stack sx={{ mr: 1 }} aria-hidden><MenuIcon name={table.icon} /></Stack> } }}
      />
      <Autocomplete
        multiple
        options={fieldNames}
        value={table.quickSearch.filter((name) => fieldNames.includes(name))}
        onChange={(_event, value) => onChange({ quickSearch: value })}
        renderInput={(params) => <TextField {...params} label={translate('crud.table.quickSearch')} />}
      />
      <Stack direction="row" spacing={1}>
        <TextField select fullWidth label={translate('crud.table.sortField')} value={fieldNames.includes(table.sortField) ? table.sortField : ''} onChange={(event) => onChange({ sortField: event.target.value })}>
          {fieldNames.map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label={translate('crud.table.sortOrder')} value={table.sortOrder} onChange={(event) => onChange({ sortOrder: event.target.value === 'asc' ? 'asc' : 'desc' })} sx={{ minWidth: 110 }}>
          <MenuItem value="desc">{translate('crud.table.desc')}</MenuItem>
          <MenuItem value="asc">{translate('crud.table.asc')}</MenuItem>
        </TextField>
      </Stack>
    </Box>
  );
}
