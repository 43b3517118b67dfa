import { Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { Form, useListContext, useNotify, useRefresh, useResourceContext, useTranslate, useUpdateMany } from 'react-admin';
import type { FieldDefinition, ResourceDefinition, Row } from '../../../schema/definition.js';
import { lazyComponent } from '../../components/lazy-component.js';
import { errorMessageOf } from './error-report.js';
import { useSchemaTranslate } from './schema-i18n.js';
import { inSentence } from './form-title.js';

/** The value's input (any of the form widgets) loads once a field is picked in the dialog. */
const SchemaInput = lazyComponent(async () => (await import('../inputs/SchemaInput.js')).SchemaInput);

interface BulkEditDialogProps {
  definition: ResourceDefinition;
  /** the fields offered (see `bulkEditableFields`) */
  fields: FieldDefinition[];
  open: boolean;
  onClose(): void;
}

/**
 * The bulk edit dialog: pick a field, give its value, apply to every selected row, each row saved through
 * `edit` as a form would save it (validation, transitions and the data limit apply per row).
 */
export function BulkEditDialog({ definition, fields, open, onClose }: BulkEditDialogProps) {
  const translate = useTranslate();
  const t = useSchemaTranslate();
  const resource = useResourceContext() ?? '';
  const { selectedIds, onUnselectItems } = useListContext();
  const [updateMany, { isPending }] = useUpdateMany();
  const notify = useNotify();
  const refresh = useRefresh();
  const [fieldName, setFieldName] = useState('');
  const field = fields.find((item) => item.name === fieldName);

  const close = () => {
    onClose();
    setFieldName('');
  };

  const apply = (values: Row) => {
    if (!field) return;
    updateMany(
      resource,
      { ids: selectedIds, data: { [field.name]: values[field.name] } },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          const count = selectedIds.length;
          notify(translate('generated.saved.bulkUpdated', { name: t(definition.title), inSentence: inSentence(t(definition.title)), smart_count: count }), { type: 'info' });
          onUnselectItems();
          refresh();
          close();
        },
        onError: (error) => notify(errorMessageOf(error), { type: 'error' }),
      },
    );
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="bulk-edit-title">
      <DialogTitle id="bulk-edit-title">{translate('generated.bulkEdit.title', { smart_count: selectedIds.length })}</DialogTitle>
      <Form key={fieldName} onSubmit={apply} record={{}} noValidate>
        <DialogContent>
          <TextField
            select
            fullWidth
            size="small"
            sx={{ mb: 2 }}
            label={translate('generated.bulkEdit.field')}
            value={fieldName}
            onChange={(event) => setFieldName(event.target.value)}
          >
            {fields.map((item) => (
              <MenuItem key={item.name} value={item.name}>
                {t(item.title)}
              </MenuItem>
            ))}
          </TextField>
          {field && <SchemaInput field={field} definition={definition} mode="edit" />}
        </DialogContent>
        <DialogActions>
          <MuiButton color="inherit" onClick={close}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton type="submit" variant="contained" disabled={!field || isPending}>
            {translate('generated.bulkEdit.apply')}
          </MuiButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
