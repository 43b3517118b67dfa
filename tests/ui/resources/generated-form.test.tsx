// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { HttpError } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeneratedCreate } from '../../../src/client/admin/resources/GeneratedCreate.js';
import { GeneratedEdit } from '../../../src/client/admin/resources/GeneratedEdit.js';
import { fakeDataProvider, renderScreen, schema } from './support.js';
import { widgetSchema } from './widget-schema.js';

// Uploads and the area cascader talk to the server through the http client; these tests never do.
vi.mock('../../../src/client/admin/inputs/admin-ajax.js', () => ({
  uploadFile: vi.fn(),
  loadAreas: vi.fn(async () => [{ value: 110000, label: 'Beijing' }]),
}));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderCreate() {
  const dataProvider = fakeDataProvider({ 'test/widgets': [], 'auth/group': [{ id: 1, name: 'Super group' }] });
  renderScreen(<GeneratedCreate definition={widgetSchema} />, { resource: 'test/widgets', dataProvider });
  return dataProvider;
}

/** Click Save once the form has settled (validation on blur disables it for a moment). */
async function save() {
  const button = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  fireEvent.click(button);
}

function field(label: string): HTMLElement {
  return screen.getByLabelText(label, { exact: false, selector: 'input, textarea' });
}

describe('generated create form', () => {
  it('shows one widget per design type', async () => {
    renderCreate();
    await screen.findByLabelText('Username', { exact: false, selector: 'input' });
    // text-like widgets: string, textarea, password, number, float, money, datetime, year, time
    expect(field('Username').getAttribute('type')).toBe('text');
    expect(field('Motto').tagName).toBe('TEXTAREA');
    expect(field('Password').getAttribute('type')).toBe('password');
    expect(field('Age').getAttribute('type')).toBe('number');
    expect(field('Ratio').getAttribute('step')).toBe('any');
    expect(field('Price').getAttribute('inputmode')).toBe('decimal');
    expect(field('Start time').getAttribute('data-date-kind')).toBe('datetime');
    expect(field('Year').getAttribute('type')).toBe('number');
    expect(field('Open time').getAttribute('type')).toBe('time');
    expect(field('Birthday').getAttribute('data-date-kind')).toBe('date');
    expect(field('Weigh').getAttribute('type')).toBe('number');
    // choices: radio, checkbox, switch, select, selects
    expect(within(screen.getByRole('radiogroup')).getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual(['0', '1', '2']);
    expect(screen.getByRole('radio', { name: 'Female' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'music' })).toBeTruthy();
    expect((screen.getByRole('switch', { name: 'Status' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('combobox', { name: 'Extension' }).textContent).toBe('none');
    expect(screen.getByRole('combobox', { name: 'Labels' })).toBeTruthy();
    // remote selects
    expect(screen.getByRole('combobox', { name: 'Group' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Groups' })).toBeTruthy();
    // uploads: image, images, file, files
    expect(document.querySelectorAll('[data-widget="upload-image"]').length).toBe(2);
    expect(document.querySelectorAll('[data-widget="upload-file"]').length).toBe(2);
    expect((screen.getByLabelText('Photos', { selector: 'input' }) as HTMLInputElement).multiple).toBe(true);
    expect((screen.getByLabelText('Avatar', { selector: 'input' }) as HTMLInputElement).multiple).toBe(false);
    // editor, city, icon, colour, array
    expect(screen.getByRole('toolbar', { name: 'Content' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Bold' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Content' }).getAttribute('contenteditable')).toBe('true');
    expect(within(document.querySelector('[data-widget="city"]') as HTMLElement).getAllByRole('combobox').length).toBe(3);
    expect(screen.getByRole('button', { name: 'Choose icon' })).toBeTruthy();
    expect(screen.getByLabelText('Colour', { selector: 'input[type="color"]' })).toBeTruthy();
    expect(within(document.querySelector('[data-widget="array"]') as HTMLElement).getByRole('button', { name: 'Add' })).toBeTruthy();
  });

  it('shows the schema validator’s messages before anything is sent', async () => {
    const dataProvider = renderCreate();
    const email = await screen.findByLabelText('Email', { exact: false, selector: 'input' });
    fireEvent.change(email, { target: { value: 'not-an-email' } });
    fireEvent.blur(email);
    expect(await screen.findByText('Please enter the correct email address')).toBeTruthy();

    fireEvent.change(field('Username'), { target: { value: '1abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // the English pack's wording of the server key "Please input correct username"
    expect(await screen.findByText('Please enter the correct username')).toBeTruthy();
    fireEvent.change(email, { target: { value: '' } });
    expect(await screen.findByText('Email cannot be empty')).toBeTruthy();
    expect(dataProvider.create).not.toHaveBeenCalled();
  });

  it('posts the values in their wire types once valid', async () => {
    const dataProvider = renderCreate();
    fireEvent.change(await screen.findByLabelText('Username', { exact: false, selector: 'input' }), { target: { value: 'alice' } });
    fireEvent.change(field('Email'), { target: { value: 'alice@example.com' } });
    fireEvent.change(field('Price'), { target: { value: '12.50' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Male' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Status' }));
    fireEvent.change(field('Start time'), { target: { value: '2024-06-01T10:00:00' } });
    fireEvent.change(field('Open time'), { target: { value: '08:30' } });
    await save();
    await waitFor(() => expect(dataProvider.create).toHaveBeenCalled());
    const { data } = dataProvider.create.mock.calls[0][1];
    expect(data).toMatchObject({
      username: 'alice', email: 'alice@example.com', price: '12.50', gender: 1, status: '0', extend: 'none',
      start_time: Math.floor(new Date(2024, 5, 1, 10, 0, 0).getTime() / 1000), open_time: '08:30:00',
    });
  });

  it('shows a field the server refuses on that field', async () => {
    // react-query logs the rejected mutation; the test asserts what the user sees instead.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dataProvider = renderCreate();
    dataProvider.create.mockRejectedValueOnce(
      new HttpError('Username already exists', 200, { code: 0, msg: 'Username already exists', time: 0, data: { field: 'username' } }),
    );
    fireEvent.change(await screen.findByLabelText('Username', { exact: false, selector: 'input' }), { target: { value: 'admin' } });
    fireEvent.change(field('Email'), { target: { value: 'a@example.com' } });
    fireEvent.change(field('Price'), { target: { value: '1' } });
    await save();
    const message = await screen.findByText('Username already exists');
    expect(message.closest('.MuiFormControl-root')?.querySelector('input')?.getAttribute('name')).toBe('username');
  });

  it('labels fields with the server pack’s titles in Chinese', async () => {
    const dataProvider = fakeDataProvider({ 'auth/admin': [] });
    renderScreen(<GeneratedCreate definition={schema('system/admin')} />, { resource: 'auth/admin', dataProvider, locale: 'zh-cn' });
    fireEvent.change(await screen.findByLabelText('昵称', { exact: false, selector: 'input' }), { target: { value: 'Ann' } });
    await save();
    expect(await screen.findByText('用户名不能为空')).toBeTruthy();
    expect(screen.getByText('密码不能为空')).toBeTruthy();
  });
});

describe('generated edit form', () => {
  it('loads the row, names its groups and saves with a blank password', async () => {
    const dataProvider = fakeDataProvider({
      'auth/admin': [{ id: 3, username: 'editor', nickname: 'Ed', email: '', mobile: '', password: '', group_arr: [2], status: '1', motto: '', avatar: '' }],
      'auth/group': [{ id: 2, pid: 1, name: 'Editors' }],
    });
    renderScreen(<GeneratedEdit definition={schema('system/admin')} />, { resource: 'auth/admin', dataProvider, path: '/auth/admin/3' });
    const nickname = await screen.findByDisplayValue('Ed');
    // the remote select shows the label of the current value, fetched with getMany in select mode
    expect(await screen.findByText('Editors')).toBeTruthy();
    expect(dataProvider.getMany).toHaveBeenCalledWith('auth/group', expect.objectContaining({ ids: [2], meta: { select: true } }));
    expect(screen.getByText('Leave blank to keep it unchanged')).toBeTruthy();
    fireEvent.change(nickname, { target: { value: 'Eddie' } });
    await save();
    await waitFor(() => expect(dataProvider.update).toHaveBeenCalled());
    expect(dataProvider.update.mock.calls[0][1].data).toMatchObject({ id: 3, nickname: 'Eddie', password: '', group_arr: [2] });
  });

  it('keeps what was typed when the row arrives after the list’s cached copy', async () => {
    const listed = { id: 3, username: 'editor', nickname: 'Ed', email: '', mobile: '', password: '', group_arr: [2], status: '1', motto: '', avatar: '' };
    const dataProvider = fakeDataProvider({ 'auth/admin': [listed], 'auth/group': [{ id: 2, pid: 1, name: 'Editors' }] });
    // The edit screen opened from the list shows the list's copy at once, then refetches the row.
    const queryClient = new QueryClient();
    queryClient.setQueryData(['auth/admin', 'getOne', { id: '3', meta: undefined }], listed, { updatedAt: 0 });
    let answer: (row: Record<string, unknown>) => void = () => undefined;
    dataProvider.getOne.mockImplementation(() => new Promise((resolve) => (answer = (row) => resolve({ data: row }))));
    renderScreen(<GeneratedEdit definition={schema('system/admin')} />, { resource: 'auth/admin', dataProvider, path: '/auth/admin/3', queryClient });
    const nickname = await screen.findByDisplayValue('Ed');
    await waitFor(() => expect(dataProvider.getOne).toHaveBeenCalled());
    fireEvent.change(nickname, { target: { value: 'Eddie' } });
    answer({ ...listed, motto: 'Fresh from the server' });
    // the untouched field takes the fresh value, the typed one stays
    expect(await screen.findByDisplayValue('Fresh from the server')).toBeTruthy();
    expect((nickname as HTMLInputElement).value).toBe('Eddie');
  });

  it('offers a status only the moves its transitions allow from the loaded one, and every status on a new row', async () => {
    const task = { id: 4, title: 'Rate the app', description: '', form: '{}', reward_money: '0.50', reward_score: 0, review: 'manual', weigh: 0, status: 'active' };
    const dataProvider = fakeDataProvider({ 'survey/quick_task': [task] });
    renderScreen(<GeneratedEdit definition={schema('survey/quick_task')} />, { resource: 'survey/quick_task', dataProvider, path: '/survey/quick_task/4' });
    await screen.findByDisplayValue('Rate the app');
    const offered = () => ['Draft (hidden from members)', 'Active', 'Closed'].filter((name) => screen.queryByRole('radio', { name }));
    // active → closed is allowed, active → draft is not
    await waitFor(() => expect(offered()).toEqual(['Active', 'Closed']));
    cleanup();
    renderScreen(<GeneratedCreate definition={schema('survey/quick_task')} />, { resource: 'survey/quick_task', dataProvider: fakeDataProvider({ 'survey/quick_task': [] }) });
    await screen.findByRole('radio', { name: 'Draft (hidden from members)' });
    expect(offered()).toEqual(['Draft (hidden from members)', 'Active', 'Closed']);
  });
});
