import { useTranslate } from 'react-admin';
import { DateTextBox, type DateTextBoxProps } from './DateTextBox.js';

export { dateText, type DateKind } from './DateTextBox.js';

type DateTextFieldProps = Omit<DateTextBoxProps, 't'>;

/** `DateTextBox` with react-admin's words: the back office's and member centre's date fields. */
export function DateTextField(props: DateTextFieldProps) {
  const translate = useTranslate();
  return <DateTextBox {...props} t={translate} />;
}
