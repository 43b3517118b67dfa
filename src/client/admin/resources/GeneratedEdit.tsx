import { Edit } from 'react-admin';
import { useGeneratedFormPage, type GeneratedFormPageProps } from './GeneratedForm.js';

/**
 * `edit`: loads the row (`edit?<pk>=id`), saves pessimistically so the server's verdict, including a
 * refused field, reaches the form that is still open.
 */
export function GeneratedEdit(props: GeneratedFormPageProps) {
  const { page, form } = useGeneratedFormPage(props, 'edit');
  return (
    <Edit mutationMode="pessimistic" redirect="list" {...page}>
      {form}
    </Edit>
  );
}
