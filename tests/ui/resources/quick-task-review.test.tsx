// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { HttpError, RecordContextProvider } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswersField } from '../../../src/client/admin/resources/survey/quick_task_submission/AnswersField.js';
import { quickTaskSubmissionOverride } from '../../../src/client/admin/resources/survey/quick_task_submission/index.js';
import { fakeAuthProvider, fakeDataProvider, renderScreen, schema } from './support.js';

/** Reviewing quick task submissions: approve after confirmation, reject with a reason; decided rows offer neither. */

const RESOURCE = 'survey/quickTaskSubmission';
const rows = [
  { id: 5, task_id: 2, user_id: 7, status: 'pending', reason: '', reward_money: '0.80', answers: { name: 'Amy' }, create_time: 1717207200, user: { id: 7, username: 'amy' } },
  { id: 4, task_id: 2, user_id: 8, status: 'approved', reason: '', reward_money: '0.80', answers: { name: 'Bo' }, create_time: 1717207100, user: { id: 8, username: 'bo' } },
];

afterEach(cleanup);

function renderList(allow?: (node: string) => boolean) {
  const List = quickTaskSubmissionOverride(schema('survey/quick_task_submission')).list as ComponentType;
  const dataProvider = fakeDataProvider({ [RESOURCE]: rows });
  dataProvider.action.mockImplementation(async (_resource: string, name: string, params: { data: { reason?: string } }) => {
    if (name === 'reject' && !params.data.reason) throw new HttpError('Please give a reason for the rejection', 200, { code: 0, msg: 'Please give a reason for the rejection' });
    return { data: { changed: 1 } };
  });
  renderScreen(<List />, { resource: RESOURCE, dataProvider, authProvider: fakeAuthProvider(allow) });
  return dataProvider;
}

function rowOf(username: string): HTMLElement {
  return screen.getByText(username).closest('tr') as HTMLElement;
}

describe('quick task review', () => {
  it('approves a pending submission after confirmation', async () => {
    const dataProvider = renderList();
    await screen.findByText('amy');
    fireEvent.click(await within(rowOf('amy')).findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(dataProvider.action).toHaveBeenCalledWith(RESOURCE, 'approve', { data: { ids: [5] } }));
    // A decided submission offers neither.
    expect(within(rowOf('bo')).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(rowOf('bo')).queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('rejects with the reason typed, showing the server’s refusal on the field', async () => {
    const dataProvider = renderList();
    await screen.findByText('amy');
    fireEvent.click(await within(rowOf('amy')).findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Please give a reason for the rejection')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason shown to the member'), { target: { value: 'Screenshot unreadable' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(dataProvider.action).toHaveBeenLastCalledWith(RESOURCE, 'reject', { data: { ids: [5], reason: 'Screenshot unreadable' } }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the answers under the form’s labels, an optional field left unanswered as "Not set"', async () => {
    const form = { properties: { name: { type: 'string', title: 'Your name' }, note: { type: 'string', title: 'Anything else' } }, required: ['name'] };
    const record = { ...rows[0], answers: { name: 'Amy' }, task: { id: 2, form } };
    renderScreen(
      <RecordContextProvider value={record}>
        <AnswersField />
      </RecordContextProvider>,
      { resource: RESOURCE, dataProvider: fakeDataProvider({ [RESOURCE]: rows }) },
    );
    const answers = [...document.querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    expect(answers).toEqual([['Your name', 'Amy'], ['Anything else', 'Not set']]);
  });

  it('offers neither without the nodes', async () => {
    renderList((node) => !node.endsWith('approve') && !node.endsWith('reject'));
    await screen.findByText('amy');
    await within(rowOf('amy')).findByRole('button', { name: 'Delete' });
    expect(within(rowOf('amy')).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(rowOf('amy')).queryByRole('button', { name: 'Reject' })).toBeNull();
  });
});
