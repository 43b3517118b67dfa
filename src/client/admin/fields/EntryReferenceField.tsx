import { Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useCanAccess, useCreatePath, useRecordContext, useReference } from 'react-admin';
import { fieldOf, type FieldDefinition, type ResourceDefinition } from '../../../schema/definition.js';
import { definitionById } from '../../schemas.js';
import { useSchemaTranslate } from '../resources/schema-i18n.js';
import { resourceNameOf } from '../resources/resource-name.js';
import { valueAt } from './field-props.js';
import { formatMoney } from './value-format.js';

/**
 * The referenced resource and its label field when a reference is labelled by an amount (a ledger entry's
 * change): such a row is named by its kind and number, since an amount alone says nothing of which row.
 */
export function amountReferenceOf(field: FieldDefinition): { related: ResourceDefinition; label: FieldDefinition } | undefined {
  const ref = field.ref;
  if (!ref || ref.many) return undefined;
  const related = definitionById(ref.resource);
  const label = related && fieldOf(related, ref.label);
  if (!related || !label || !(label.format === 'money' || label.wireType === 'integer' || label.wireType === 'number')) return undefined;
  return { related, label };
}

/**
 * A reference to a row labelled by an amount, e.g. a participation's balance entry: "Balance change #12 · ¥1.50",
 * a link to that row in its list when the admin may open it. Empty when nothing is referenced.
 */
export function EntryReferenceField({ field, related, label }: { field: FieldDefinition; related: ResourceDefinition; label: FieldDefinition }) {
  const record = useRecordContext();
  const t = useSchemaTranslate();
  const createPath = useCreatePath();
  const resource = resourceNameOf(related);
  const id = valueAt(record, field.name);
  const present = id !== null && id !== undefined && id !== '' && id !== 0;
  const { canAccess } = useCanAccess({ resource, action: 'list' });
  const { referenceRecord } = useReference({ reference: resource, id: present ? String(id) : '', options: { enabled: present && canAccess === true } });
  if (!present) return null;
  const amount = referenceRecord ? valueAt(referenceRecord, label.name) : undefined;
  const shown = amount === undefined || amount === null ? '' : label.format === 'money' ? formatMoney(amount) : String(amount);
  const text = `${t(related.title)} #${String(id)}${shown ? ` · ${shown}` : ''}`;
  if (canAccess !== true) return <Typography component="span" variant="body2">{text}</Typography>;
  // The row in its list, found by its number.
  const to = `${createPath({ resource, type: 'list' })}?filter=${encodeURIComponent(JSON.stringify({ [related.primaryKey]: id }))}`;
  return (
    <Link component={RouterLink} to={to} variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
      {text}
    </Link>
  );
}
