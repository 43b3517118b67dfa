import { Switch } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useCanAccess, useNotify, useRecordContext, useResourceContext, useUpdate } from 'react-admin';
import { useNotifyError } from '../resources/error-report.js';
import { refreshLists } from '../resources/list-refresh.js';
import { useSchemaTranslate } from '../resources/schema-i18n.js';
import { isSwitchOn, switchValues } from './enum-options.js';
import type { SchemaFieldProps } from './field-props.js';

/**
 * A switch toggled in the list: posts `{<pk>: id, <field>: value}` to `edit` (what BuildAdmin's switch
 * cells send) and shows the server's answer. Read-only for admins without the `edit` node.
 */
export function SwitchField({ field, definition }: SchemaFieldProps) {
  const record = useRecordContext();
  const resource = useResourceContext();
  const { canAccess } = useCanAccess({ resource, action: 'edit' });
  const [update, { isPending }] = useUpdate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const notifyError = useNotifyError();
  const t = useSchemaTranslate();
  if (!record || !resource) return null;
  const values = switchValues(field);
  const checked = isSwitchOn(field, record[field.name]);

  const toggle = () => {
    const key = definition.primaryKey;
    update(
      resource,
      { id: record.id, data: { [key]: record[key] ?? record.id, [field.name]: checked ? values.off : values.on }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('ra.notification.updated', { type: 'info', messageArgs: { smart_count: 1 } });
          refreshLists(queryClient, resource);
        },
        onError: notifyError,
      },
    );
  };

  return (
    <Switch
      size="small"
      checked={checked}
      disabled={canAccess !== true || isPending}
      onClick={(event) => event.stopPropagation()}
      onChange={toggle}
      slotProps={{ input: { 'aria-label': t(field.title) } }}
    />
  );
}
