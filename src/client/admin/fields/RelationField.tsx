import { ReferenceField, TextField, useRecordContext } from 'react-admin';
import { referencedResourceName } from '../resources/resource-name.js';
import { valueAt, type SchemaFieldProps } from './field-props.js';
import { TextValueField, textOf } from './TextValueField.js';
import { amountReferenceOf, EntryReferenceField } from './EntryReferenceField.js';
import { Typography } from '@mui/material';

/**
 * A reference column: the joined row's label when the index carries the relation (`x-ref.as`), else the
 * referenced record's label fetched in one `getMany` for the page; a row labelled by an amount (a ledger
 * entry) is named by its kind and number beside the amount.
 */
export function RelationField(props: SchemaFieldProps) {
  const { field } = props;
  const record = useRecordContext();
  const ref = field.ref;
  if (!ref) return <TextValueField {...props} />;
  if (ref.as) {
    const label = valueAt(record, `${ref.as}.${ref.label}`);
    return (
      <Typography component="span" variant="body2">
        {textOf(label ?? valueAt(record, field.name))}
      </Typography>
    );
  }
  if (ref.many) return <TextValueField {...props} />;
  const entry = amountReferenceOf(field);
  if (entry) return <EntryReferenceField field={field} {...entry} />;
  return (
    <ReferenceField source={field.name} reference={referencedResourceName(ref.resource)} link={false} emptyText="">
      <TextField source={ref.label} />
    </ReferenceField>
  );
}
