import { useState } from 'react';
import { Button, IconButton, List, ListItem, ListItemButton, ListItemText, MenuItem, Stack, TextField, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { useLocale, useTranslate } from 'react-admin';
import { isOneOf } from '../../../../contract/checks.js';
import { DESIGN_TYPES, labelIn, type DesignType, type FieldDraft } from './design-model.js';

/** The fields in order: pick one to edit, move it, remove it, or add a field of a type. */

interface FieldListProps {
  fields: FieldDraft[];
  selected?: string;
  onSelect(key: string): void;
  onMove(key: string, by: -1 | 1): void;
  onRemove(key: string): void;
  onAdd(type: DesignType): void;
}

export function FieldList({ fields, selected, onSelect, onMove, onRemove, onAdd }: FieldListProps) {
  const translate = useTranslate();
  const locale = useLocale();
  const [type, setType] = useState<DesignType>('string');
  return (
    <Stack spacing={1} component="section" aria-label={translate('crud.fields.title')}>
      <List dense disablePadding aria-label={translate('crud.fields.title')} sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {fields.map((field, index) => {
          const name = field.name || translate('crud.fields.unnamed');
          return (
            <ListItem
              key={field.key}
              disablePadding
              divider={index < fields.length - 1}
              secondaryAction={
                <Stack direction="row">
                  <Tooltip title={translate('crud.fields.up')}>
                    <span>
                      <IconButton size="small" aria-label={`${translate('crud.fields.up')}: ${name}`} disabled={index === 0} onClick={() => onMove(field.key, -1)}>
                        <ArrowUpwardIcon fontSize="inherit" />
                      </IconButton>
                    </span>
                  </Tooltip>
                  <Tooltip title={translate('crud.fields.down')}>
                    <span>
                      <IconButton size="small" aria-label={`${translate('crud.fields.down')}: ${name}`} disabled={index === fields.length - 1} onClick={() => onMove(field.key, 1)}>
                        <ArrowDownwardIcon fontSize="inherit" />
                      </IconButton>
                    </span>
                  </Tooltip>
                  <Tooltip title={translate('crud.fields.remove')}>
                    <IconButton size="small" aria-label={`${translate('crud.fields.remove')}: ${name}`} onClick={() => onRemove(field.key)}>
                      <DeleteOutlineIcon fontSize="inherit" />
                    </IconButton>
                  </Tooltip>
                </Stack>
              }
              sx={{ '& .MuiListItemSecondaryAction-root': { right: 4 } }}
            >
              <ListItemButton selected={field.key === selected} onClick={() => onSelect(field.key)} sx={{ pr: 14 }} aria-current={field.key === selected ? 'true' : undefined}>
                <ListItemText
                  primary={labelIn(field.label, locale) ? `${labelIn(field.label, locale)} (${name})` : name}
                  secondary={translate(`crud.types.${field.designType}`)}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
      <Stack direction="row" spacing={1}>
        <TextField select size="small" fullWidth label={translate('crud.fields.newType')} value={type} onChange={(event) => { if (isOneOf(DESIGN_TYPES, event.target.value)) setType(event.target.value); }}>
          {DESIGN_TYPES.map((item) => (
            <MenuItem key={item} value={item}>
              {translate(`crud.types.${item}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => onAdd(type)} sx={{ flexShrink: 0 }}>
          {translate('crud.fields.add')}
        </Button>
      </Stack>
    </Stack>
  );
}
