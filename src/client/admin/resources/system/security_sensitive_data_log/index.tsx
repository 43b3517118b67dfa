import UndoIcon from '@mui/icons-material/Undo';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { allDefinitions } from '../../../../schemas.js';
import { formatDateTime } from '../../../fields/value-format.js';
import type { ResourceDescriptor } from '../../index.js';
import { useSchemaTranslate } from '../../schema-i18n.js';
import { DetailTable } from '../../DetailsDialog.js';
import { relationText, SecurityLogTable, type LogAction } from '../security-log.js';
import { readOnlyListOverride } from '../../read-only-list.js';

type Row = Record<string, unknown>;

const ROLLBACK_ACTION: LogAction = {
  name: 'rollback',
  icon: <UndoIcon />,
  texts: {
    label: 'security.rollback',
    confirm: 'security.rollbackConfirm',
    done: 'security.rolledBack',
  },
};

/** The info dialog of a sensitive-data change: which row and field, the value before and after. */
function SensitiveInfo({ row }: { row: Row }) {
  const t = useSchemaTranslate();
  const table = allDefinitions().find((definition) => definition.table === row.data_table);
  const field = table?.fields.find((item) => item.name === row.data_field);
  const fieldTitle = row.data_comment || (field ? t(field.title) : '');
  return (
    <DetailTable
      label={t('Sensitive data log')}
      rows={[
        [t('Data table'), table ? `${t(table.title)} (${String(row.data_table)})` : row.data_table],
        [t('Sensitive rule'), relationText(row.sensitive, 'name')],
        [t('Row ID'), `${String(row.primary_key)}=${String(row.id_value)}`],
        [t('Field'), fieldTitle ? `${String(fieldTitle)} (${String(row.data_field)})` : row.data_field],
        [t('Before'), row.before],
        [t('After'), row.after],
        [t('Operator'), relationText(row.admin, 'nickname')],
        [t('IP'), row.ip],
        [t('Create time'), formatDateTime(row.create_time)],
      ]}
    />
  );
}

/**
 * The sensitive-data log (docs/wire-contract.md#sensitive-data-log): the generated list plus rollback (per row and on the
 * selection) and an info dialog with the field, its value before and after.
 */
export function sensitiveDataLogOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  return readOnlyListOverride(definition, {
    messages: ['admin/security'],
    table: <SecurityLogTable definition={definition} action={ROLLBACK_ACTION} renderInfo={(row) => <SensitiveInfo row={row} />} />,
  });
}
