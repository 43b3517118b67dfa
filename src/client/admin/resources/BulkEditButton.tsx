import EditNoteOutlinedIcon from '@mui/icons-material/EditNoteOutlined';
import { useMemo, useState } from 'react';
import { Button, useTranslate } from 'react-admin';
import { writableFields, type FieldDefinition, type ResourceDefinition } from '../../../schema/definition.js';
import { lazyComponent } from '../../components/lazy-component.js';

/**
 * The dialog, a form, loads as the button is pressed: a list whose rows are never bulk edited draws no
 * form library. (Fetching starts as the button is pointed at or focused.)
 */
const bulkEditDialog = () => import('./BulkEditDialog.js');
const BulkEditDialog = lazyComponent(async () => (await bulkEditDialog()).BulkEditDialog);
const preloadDialog = () => void bulkEditDialog();

/** Fields one value may be given to across rows: written, visible in forms, neither unique nor secret. */
function bulkEditableFields(definition: ResourceDefinition): FieldDefinition[] {
  return writableFields(definition).filter((field) => field.ui.form !== false && !field.unique && !field.writeOnly && field.name !== definition.list.tree?.parentField);
}

/**
 * Bulk edit: one chosen field set to one value on every selected row, each row saved through
 * `edit` as a form would save it (validation, transitions and the data limit apply per row).
 */
export function BulkEditButton({ definition }: { definition: ResourceDefinition }) {
  const translate = useTranslate();
  const fields = useMemo(() => bulkEditableFields(definition), [definition]);
  const [open, setOpen] = useState(false);
  // Once opened, the dialog stays drawn, so that it fades out when closed.
  const [opened, setOpened] = useState(false);
  if (fields.length === 0) return null;
  return (
    <>
      <Button
        label={translate('generated.bulkEdit.button')}
        onClick={() => {
          setOpen(true);
          setOpened(true);
        }}
        onPointerDown={preloadDialog}
        onFocus={preloadDialog}
      >
        <EditNoteOutlinedIcon />
      </Button>
      {opened && <BulkEditDialog definition={definition} fields={fields} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}
