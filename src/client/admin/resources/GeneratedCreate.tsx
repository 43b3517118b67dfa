import { Create } from 'react-admin';
import { useGeneratedFormPage, type GeneratedFormPageProps } from './GeneratedForm.js';

/** `add`: the generated form titled with the schema's singular, back to the list once saved; bare inside a form dialog. */
export function GeneratedCreate(props: GeneratedFormPageProps) {
  const { page, form } = useGeneratedFormPage(props, 'add');
  return (
    <Create redirect="list" {...page}>
      {form}
    </Create>
  );
}
