import SendIcon from '@mui/icons-material/Send';
import { useFormContext } from 'react-hook-form';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { errorMessageOf } from '../../error-report.js';
import { serverFieldErrors } from '../../server-errors.js';
import { TestSendButton, type TestSendOutcome } from './TestSendButton.js';

/** The group whose items are the mail settings. */
export const MAIL_GROUP = 'mail';
const RECIPIENT = 'testMail';

/**
 * "Send test mail" on the mail tab (docs/wire-contract.md#site-configuration `sendTestMail`): asks for a recipient and sends with
 * the tab's `settings` as they stand in the form, saved or not. A setting the server refuses shows on its field.
 * Either way the server keeps the outcome as the mail channel's health, which `onTested` reloads.
 */
export function TestMailButton({ resource, settings, onTested }: { resource: string; settings: ReadonlySet<string>; onTested(): void }) {
  const dataProvider = useDataProvider<ActionDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const form = useFormContext();

  const send = async (recipient: string): Promise<TestSendOutcome> => {
    try {
      await dataProvider.action(resource, 'sendTestMail', { data: { ...form.getValues(), [RECIPIENT]: recipient } });
      notify('config.testMail.sent', { type: 'success', messageArgs: { address: recipient } });
      return undefined;
    } catch (error) {
      const onFields = serverFieldErrors(error, new Set([...settings, RECIPIENT]));
      if (onFields?.[RECIPIENT]) return { stay: true, error: onFields[RECIPIENT] };
      if (onFields) {
        for (const [name, message] of Object.entries(onFields)) form.setError(name, { type: 'server', message });
        return undefined;
      }
      notify(errorMessageOf(error), { type: 'error' });
      return { stay: true };
    }
  };

  return (
    <TestSendButton
      id="test-mail-title"
      icon={<SendIcon />}
      addressType="email"
      texts={{ button: translate('config.testMail.button'), title: translate('config.testMail.title'), explain: translate('config.testMail.explain'), address: translate('config.testMail.recipient') }}
      send={send}
      onTested={onTested}
    />
  );
}
