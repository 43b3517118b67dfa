import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import { Typography } from '@mui/material';
import { RecordContextProvider, useTranslate } from 'react-admin';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { allDefinitions } from '../../../../schemas.js';
import { formatDateTime } from '../../../fields/value-format.js';
import { rendererOf } from '../../../fields/renderer-of.js';
import { ValueChip } from '../../../fields/TagField.js';
import type { ResourceDescriptor } from '../../index.js';
import { useSchemaTranslate } from '../../schema-i18n.js';
import { DetailTable } from '../../DetailsDialog.js';
import { detailRows } from '../../RecordDetails.js';
import { relationText, SecurityLogTable, type LogAction } from '../security-log.js';
import { readOnlyListOverride } from '../../read-only-list.js';

type Row = Record<string, unknown>;

const RESTORE_ACTION: LogAction = {
  name: 'restore',
  icon: <RestoreIcon />,
  texts: {
    label: 'security.restore',
    confirm: 'security.restoreConfirm',
    done: 'security.restored',
  },
};

/**
 * The info dialog of a recycle-bin entry: where it came from, then the deleted row as its list showed
 * it (labels, money, dates: `record`, the snapshot presented by the server for this admin) field by
 * field. A row whose table no screen describes any more is shown as it was stored.
 */
function RecycleInfo({ row }: { row: Row }) {
  const t = useSchemaTranslate();
  const translate = useTranslate();
  const table = allDefinitions().find((definition) => definition.table === row.data_table);
  const data = row.data && typeof row.data === 'object' ? (row.data as Row) : {};
  const record = row.record && typeof row.record === 'object' ? (row.record as Row) : undefined;
  // A switch of a deleted row is not to be toggled: it reads as its option's label.
  const switches = Object.fromEntries((table?.fields ?? []).filter((field) => rendererOf(field) === 'switch').map((field) => [field.name, <ValueChip key={field.name} field={field} value={record?.[field.name]} />]));
  const titleOf = (name: string) => {
    const field = table?.fields.find((item) => item.name === name);
    return field ? `${t(field.title)} (${name})` : name;
  };
  const deleted: [string, unknown][] =
    table && record
      ? detailRows(table, record, t, switches, (field) => field.name in data)
      : Object.entries(data).map(([name, value]) => [titleOf(name), value]);
  return (
    <>
      <DetailTable
        label={translate('security.source')}
        rows={[
          [t('Data table'), table ? t(table.title) : row.data_table],
          [t('Recycle rule'), relationText(row.recycle, 'name')],
          [t('Operator'), relationText(row.admin, 'nickname')],
          [t('IP'), row.ip],
          [t('Create time'), formatDateTime(row.create_time)],
        ]}
      />
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2, mb: 1 }}>
        {t('Deleted data')}
      </Typography>
      <RecordContextProvider value={{ id: 0, ...record }}>
        <DetailTable label={t('Deleted data')} rows={deleted} />
      </RecordContextProvider>
    </>
  );
}

/**
 * The recycle bin (docs/wire-contract.md#recycle-bin): the generated list plus restore (per row and on the selection)
 * and an info dialog with the deleted row decoded.
 */
export function dataRecycleLogOverride(definition: ResourceDefinition): Partial<ResourceDescriptor> {
  return readOnlyListOverride(definition, {
    messages: ['admin/security'],
    table: <SecurityLogTable definition={definition} action={RESTORE_ACTION} renderInfo={(row) => <RecycleInfo row={row} />} />,
  });
}
