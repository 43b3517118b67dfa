import type { ReactNode } from 'react';
import { Edit } from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { useFormDialog } from './FormDialog.js';
import { useFormTitle, useSavedNotice } from './form-title.js';
import { GeneratedForm } from './GeneratedForm.js';
import type { InputOverrides } from './GeneratedInputs.js';

interface GeneratedEditProps {
  definition: ResourceDefinition;
  overrides?: InputOverrides;
  children?: ReactNode;
}

/**
 * `edit`: loads the row (`edit?<pk>=id`), saves pessimistically so the server's verdict, including a
 * refused field, reaches the form that is still open.
 */
export function GeneratedEdit({ definition, overrides, children }: GeneratedEditProps) {
  const dialog = useFormDialog();
  const title = useFormTitle(definition.title, 'edit');
  const onSuccess = useSavedNotice(definition, 'edit');
  return (
    <Edit mutationMode="pessimistic" redirect="list" mutationOptions={{ onSuccess }} {...(dialog ? { component: 'div', title: false, actions: false } : { title })}>
      <GeneratedForm definition={definition} mode="edit" overrides={overrides}>
        {children}
      </GeneratedForm>
    </Edit>
  );
}
