import { lazy, Suspense } from 'react';
import { Loading } from 'react-admin';
import type { ResourceDefinition } from '../../../../../schema/definition.js';
import { RouteMessages } from '../../../../shell/RouteMessages.js';
import type { InputOverrides } from '../../GeneratedInputs.js';
import { useSchemaTranslate } from '../../schema-i18n.js';

/** The field builder loads with the add or edit dialog that draws it, not with the quick tasks' list. */
const FormBuilderInput = lazy(async () => ({ default: (await import('./FormBuilderInput.js')).FormBuilderInput }));

/** The form field of a quick task, drawn as the field builder with its own messages. */
function QuickTaskFormField({ definition }: { definition: ResourceDefinition }) {
  const t = useSchemaTranslate();
  const field = definition.fields.find((item) => item.name === 'form');
  return (
    <RouteMessages names={['admin/survey']}>
      <Suspense fallback={<Loading />}>
        <FormBuilderInput source="form" label={field ? t(field.title) : 'form'} helperText={field?.help ? t(field.help) : undefined} />
      </Suspense>
    </RouteMessages>
  );
}

/** Quick tasks: the generated add and edit dialogs, with the field builder for the member's form. */
export function quickTaskInputs(definition: ResourceDefinition): InputOverrides {
  return { form: <QuickTaskFormField definition={definition} /> };
}
