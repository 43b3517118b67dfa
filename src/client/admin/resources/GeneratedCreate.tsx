import type { ReactNode } from 'react';
import { Create } from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { useFormDialog } from './FormDialog.js';
import { useFormTitle, useSavedNotice } from './form-title.js';
import { GeneratedForm } from './GeneratedForm.js';
import type { InputOverrides } from './GeneratedInputs.js';

interface GeneratedCreateProps {
  definition: ResourceDefinition;
  overrides?: InputOverrides;
  children?: ReactNode;
}

/** `add`: the generated form titled with the schema's singular, back to the list once saved; bare inside a form dialog. */
export function GeneratedCreate({ definition, overrides, children }: GeneratedCreateProps) {
  const dialog = useFormDialog();
  const title = useFormTitle(definition.title, 'add');
  const onSuccess = useSavedNotice(definition, 'add');
  return (
    <Create redirect="list" mutationOptions={{ onSuccess }} {...(dialog ? { component: 'div', title: false, actions: false } : { title })}>
      <GeneratedForm definition={definition} mode="add" overrides={overrides}>
        {children}
      </GeneratedForm>
    </Create>
  );
}
