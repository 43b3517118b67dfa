// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpError } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeneratedEdit } from '../../../src/client/admin/resources/GeneratedEdit.js';
import { fakeDataProvider, renderScreen, schema } from './support.js';

/**
 * Two admins edit one row: the form sends back the `update_time` it loaded; when the server
 * says the row changed since, the form offers to reload the other admin's version or overwrite it.
 */

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const RESOURCE = 'routine/mailTemplate';
const loaded = { id: 4, event: 'user_register', subject: 'Welcome', content: 'Hello', status: '1', update_time: 1_700_000_000, create_time: 1_690_000_000 };
const theirs = { ...loaded, subject: 'Welcome aboard', update_time: 1_700_000_500 };
const staleError = () =>
  new HttpError('Someone else changed this record after you opened it', 200, {
    code: 0, msg: 'Someone else changed this record after you opened it', time: 0, data: { type: 'stale record', update_time: theirs.update_time },
  });

async function openAndSave(subject: string) {
  // react-query logs the rejected mutation; the test asserts what the admin sees instead.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const dataProvider = fakeDataProvider({ [RESOURCE]: [loaded] });
  dataProvider.update.mockRejectedValueOnce(staleError());
  renderScreen(<GeneratedEdit definition={schema('system/mail_template')} />, { resource: RESOURCE, dataProvider, path: `/${RESOURCE}/4` });
  fireEvent.change(await screen.findByDisplayValue('Welcome'), { target: { value: subject } });
  const button = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  fireEvent.click(button);
  return { dataProvider, dialog: await screen.findByRole('dialog', { name: 'Changed by someone else' }) };
}

describe('a save over someone else’s', () => {
  it('sends the time it loaded, and overwrites on request with the row’s current time', async () => {
    const { dataProvider, dialog } = await openAndSave('Mine');
    expect(dataProvider.update.mock.calls[0][1].data).toMatchObject({ subject: 'Mine', update_time: loaded.update_time });
    expect(within(dialog).getByText(/Someone else saved this record after you opened it/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Overwrite' }));
    await waitFor(() => expect(dataProvider.update).toHaveBeenCalledTimes(2));
    expect(dataProvider.update.mock.calls[1][1].data).toMatchObject({ subject: 'Mine', update_time: theirs.update_time });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('reloads the other admin’s version, dropping what was typed', async () => {
    const { dataProvider, dialog } = await openAndSave('Mine');
    dataProvider.getOne.mockResolvedValue({ data: theirs });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reload' }));
    expect(await screen.findByDisplayValue('Welcome aboard')).toBeTruthy();
    expect(screen.queryByDisplayValue('Mine')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dataProvider.update).toHaveBeenCalledTimes(1);
  });
});
