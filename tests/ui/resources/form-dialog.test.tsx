// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resourceFor } from '../../../src/client/admin/resources/index.js';
import { fakeDataProvider, renderScreen, schema } from './support.js';

/**
 * Add and edit in a dialog over the list (issue 10): a title, Cancel, Esc, a close button; Save always
 * enabled, the schema's messages on the fields when pressed, the server's refusal on its field.
 */

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const RESOURCE = 'routine/mailTemplate';
const row = { id: 4, event: 'user_register', subject: 'Welcome', content: 'Hello', status: '1', update_time: 1_700_000_000, create_time: 1_690_000_000 };

function open(path: string) {
  const dataProvider = fakeDataProvider({ [RESOURCE]: [row] });
  const { create, edit } = resourceFor(schema('system/mail_template'));
  const Screen = path.endsWith('/create') ? create : edit;
  if (!Screen) throw new Error('no form screen');
  renderScreen(<Screen />, { resource: RESOURCE, dataProvider, path });
  return dataProvider;
}

describe('form dialogs', () => {
  it('opens add over the list with a title, and shows what is missing when Save is pressed at once', async () => {
    const dataProvider = open(`/${RESOURCE}/create`);
    const dialog = await screen.findByRole('dialog', { name: 'Add Mail template' });
    // The list stays behind the dialog.
    expect(await screen.findByText('Welcome')).toBeTruthy();
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect(await within(dialog).findByText('Subject cannot be empty')).toBeTruthy();
    expect(dataProvider.create).not.toHaveBeenCalled();
  });

  it('closes with Cancel, with Esc and with the close button', async () => {
    for (const close of ['Cancel', 'Escape', 'Close']) {
      open(`/${RESOURCE}/4`);
      const dialog = await screen.findByRole('dialog', { name: 'Edit Mail template' });
      await within(dialog).findByDisplayValue('Welcome');
      if (close === 'Escape') fireEvent.keyDown(dialog, { key: 'Escape' });
      else fireEvent.click(within(dialog).getByRole('button', { name: close }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      cleanup();
    }
  });

  it('shows the server’s refusal on its field and stays open', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dataProvider = open(`/${RESOURCE}/4`);
    dataProvider.update.mockRejectedValueOnce(new HttpError('Subject already exists', 200, { code: 0, msg: 'Subject already exists', time: 0, data: { field: 'subject' } }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Mail template' });
    fireEvent.change(await within(dialog).findByDisplayValue('Welcome'), { target: { value: 'Hi' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const message = await within(dialog).findByText('Subject already exists');
    expect(message.closest('.MuiFormControl-root')?.querySelector('input')?.getAttribute('name')).toBe('subject');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
