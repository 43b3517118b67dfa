import { useState } from 'react';
import { useNotify } from 'react-admin';
import { fieldOf, messageOf } from '../../../http/error-body.js';

/**
 * A member form's round trip: busy while the call runs, the server's message as a toast on success,
 * and a refusal shown on the field it names (`data.field`), or as a toast when it names none.
 */
export function useServerForm() {
  const notify = useNotify();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(work: () => Promise<string>): Promise<boolean> {
    setBusy(true);
    setErrors({});
    try {
      const message = await work();
      if (message) notify(message, { type: 'success', messageArgs: { _: message } });
      return true;
    } catch (error) {
      const field = fieldOf(error);
      const message = messageOf(error);
      if (field) setErrors({ [field]: message });
      else notify(message, { type: 'error', messageArgs: { _: message } });
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** `error` and `helperText` of a MUI field (a local check may set the same map). */
  const fieldProps = (name: string, helper?: string) => ({ error: Boolean(errors[name]), helperText: errors[name] ?? helper });
  return { errors, setErrors, busy, submit, fieldProps };
}
