import { useQuery } from '@tanstack/react-query';
import { useFormContext, useWatch } from 'react-hook-form';
import { AutocompleteInput, useDataProvider, useResourceContext, useTranslate } from 'react-admin';
import type { SystemSecurityDataRecycleRow, SystemSecuritySensitiveDataRow } from '../../../../generated/resources.js';
import type { ActionDataProvider } from '../../../providers/data-provider.js';
import { requiredMark } from '../../inputs/input-props.js';

/** A screen a data-security rule may cover, as `GET add` offers it (docs/wire-contract.md#recycle-bin). */
interface RuleScreen {
  controller: string;
  title: string;
  data_table: string;
  primary_key: string;
}

/**
 * The screen a recycle-bin or sensitive-data rule covers (`purpose`), picked from the screens the rule
 * may cover (named by their menu titles, searchable), instead of typing a controller file, a table and a key: picking one
 * fills the rule's controller, table and key (the server derives the last two from the controller as
 * well), and its name while none was given. A rule naming a controller no screen serves any more keeps
 * it as its own choice.
 */
export function RuleScreenInput({ purpose }: { purpose: 'recycle' | 'sensitive' }) {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const dataProvider = useDataProvider<ActionDataProvider>();
  const { setValue, getValues } = useFormContext();
  const current = useWatch<Partial<Pick<SystemSecurityDataRecycleRow | SystemSecuritySensitiveDataRow, 'controller'>>, 'controller'>({ name: 'controller' });
  const { data } = useQuery({
    queryKey: [resource, 'rule-screens'],
    queryFn: async () => (await dataProvider.action<{ resources: RuleScreen[] }>(resource, 'add', { method: 'GET' })).data.resources,
    staleTime: 60_000,
  });
  const screens = data ?? [];
  const chosen = screens.find((screen) => screen.controller === current);
  const choices = screens.map((screen) => ({ id: screen.controller, name: `${screen.title} (${screen.controller})` }));
  if (current && !chosen) choices.push({ id: current, name: current });
  const pick = (controller: unknown) => {
    const screen = screens.find((item) => item.controller === controller);
    if (!screen) return;
    setValue('data_table', screen.data_table, { shouldDirty: true });
    setValue('primary_key', screen.primary_key, { shouldDirty: true });
    if (!String(getValues('name') ?? '').trim()) setValue('name', screen.title, { shouldDirty: true });
  };
  return (
    <AutocompleteInput
      source="controller"
      label={translate('security.rule.screen')}
      choices={choices}
      isPending={!data}
      onChange={pick}
      validate={requiredMark}
      helperText={chosen ? translate('security.rule.screenRecords', { table: chosen.data_table, key: chosen.primary_key }) : translate(`security.rule.${purpose}Help`)}
      fullWidth
    />
  );
}
