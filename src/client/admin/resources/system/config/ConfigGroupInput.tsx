import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDataProvider, useResourceContext } from 'react-admin';
import type { ConfigIndex } from '../../../../../contract/config-values.js';
import { fieldOf, type ResourceDefinition } from '../../../../../schema/definition.js';
import { sameText } from '../../../../../schema/local-text.js';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { SchemaInput } from '../../../inputs/SchemaInput.js';

/**
 * The new config item's group, chosen among the screen's groups by their titles in the reader's language
 * (the tabs' titles, which `index` sends as `configGroup`), its key stored: the key is for code, and a
 * person would otherwise have to know and type `basics`.
 */
export function ConfigGroupInput({ definition }: { definition: ResourceDefinition }) {
  const resource = useResourceContext() ?? '';
  const dataProvider = useDataProvider<ActionDataProvider>();
  // the config screen's own query: opened from the screen, the groups are already here
  const { data } = useQuery({
    queryKey: [resource, 'configIndex'],
    queryFn: async () => (await dataProvider.action<ConfigIndex>(resource, 'index')).data,
  });
  const groupField = useMemo(() => {
    const field = fieldOf(definition, 'group');
    if (!field) return undefined;
    const titles = Object.entries(data?.configGroup ?? {});
    return {
      ...field,
      enum: titles.map(([key]) => key),
      ui: { ...field.ui, widget: 'select', options: Object.fromEntries(titles.map(([key, title]) => [key, sameText(title)])) },
    };
  }, [definition, data]);
  return groupField ? <SchemaInput field={groupField} definition={definition} mode="add" /> : null;
}
