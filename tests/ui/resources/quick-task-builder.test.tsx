// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { resourceFor } from '../../../src/client/admin/resources/index.js';
import { fakeDataProvider, renderScreen, schema } from './support.js';

/**
 * The quick task's field builder: fields are added with a type, labels in both languages, required,
 * options and validation; the preview draws the member's widgets as declared; saving stores the JSON schema.
 */

const RESOURCE = 'survey/quickTask';

afterEach(cleanup);

async function pick(container: HTMLElement, label: string, option: string) {
  fireEvent.mouseDown(within(container).getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('quick task field builder', () => {
  it('builds the form field by field, previews radios and an email input, and saves the JSON schema', async () => {
    const dataProvider = fakeDataProvider({ [RESOURCE]: [] });
    const Create = resourceFor(schema('survey/quick_task')).list;
    renderScreen(<Create />, { resource: RESOURCE, dataProvider, path: `/${RESOURCE}/create`, resourceRoute: true });
    const dialog = await screen.findByRole('dialog', { name: 'Add quick task' });
    fireEvent.change(await within(dialog).findByRole('textbox', { name: /^Title(?! in English)/ }), { target: { value: 'Rate our app' } });

    // A new field names what it lacks at once.
    // the field builder arrives with its own code, just after the dialog's other inputs
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add field' }));
    const first = within(dialog).getByRole('group', { name: 'Field 1' });
    expect(within(first).getByText('Give the field a label, in Chinese, English or both')).toBeTruthy();
    fireEvent.change(within(first).getByRole('textbox', { name: /Name/ }), { target: { value: 'platform' } });
    fireEvent.change(within(first).getByRole('textbox', { name: 'Label (Chinese)' }), { target: { value: '平台' } });
    fireEvent.change(within(first).getByRole('textbox', { name: 'Label (English)' }), { target: { value: 'Platform' } });
    await pick(first, 'Type', 'Radio buttons');
    const values = within(first).getAllByRole('textbox', { name: 'Value (stored)' });
    expect(values).toHaveLength(2);
    fireEvent.change(values[0], { target: { value: 'ios' } });
    fireEvent.change(values[1], { target: { value: 'android' } });
    const english = within(first).getAllByRole('textbox', { name: 'Label (English)' }).slice(1);
    fireEvent.change(english[0], { target: { value: 'iPhone' } });
    fireEvent.change(english[1], { target: { value: 'Android' } });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add field' }));
    const second = within(dialog).getByRole('group', { name: 'Field 2' });
    fireEvent.change(within(second).getByRole('textbox', { name: /Name/ }), { target: { value: 'contact' } });
    fireEvent.change(within(second).getByRole('textbox', { name: 'Label (English)' }), { target: { value: 'Contact email' } });
    fireEvent.click(within(second).getByRole('checkbox', { name: 'Required' }));
    await pick(second, 'Must be', 'Email address');

    // The preview draws the member's widgets: radio buttons, a one-line email input.
    const preview = within(dialog).getByRole('region', { name: "Preview of the member's form" });
    fireEvent.click(within(preview).getByRole('button', { name: 'English' }));
    const radios = within(within(preview).getByRole('group', { name: /Platform/ })).getAllByRole('radio');
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual(['iPhone', 'Android']);
    const email = within(preview).getByLabelText('Contact email') as HTMLInputElement;
    expect({ tag: email.tagName, type: email.type }).toEqual({ tag: 'INPUT', type: 'email' });
    fireEvent.click(within(preview).getByRole('button', { name: '中文' }));
    expect(within(preview).getByRole('group', { name: /平台/ })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dataProvider.create).toHaveBeenCalled());
    const saved = dataProvider.create.mock.calls[0][1] as { data: { title: string; form: string } };
    expect(saved.data.title).toBe('Rate our app');
    expect(JSON.parse(saved.data.form)).toEqual({
      type: 'object',
      required: ['platform'],
      properties: {
        platform: {
          type: 'string', enum: ['ios', 'android'], title: { 'zh-cn': '平台', en: 'Platform' },
          'x-ui': { widget: 'radio', options: { ios: 'iPhone', android: 'Android' } },
        },
        contact: { type: 'string', title: 'Contact email', format: 'email', maxLength: 255, 'x-ui': { widget: 'string' } },
      },
    });
  });

  it('lists every problem of the fields at once and sends nothing until they are fixed', async () => {
    const dataProvider = fakeDataProvider({ [RESOURCE]: [] });
    const Create = resourceFor(schema('survey/quick_task')).list;
    renderScreen(<Create />, { resource: RESOURCE, dataProvider, path: `/${RESOURCE}/create`, resourceRoute: true });
    const dialog = await screen.findByRole('dialog', { name: 'Add quick task' });
    fireEvent.change(await within(dialog).findByRole('textbox', { name: /^Title(?! in English)/ }), { target: { value: 'Broken' } });
    // the field builder arrives with its own code, just after the dialog's other inputs
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Add field' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add field' }));
    const second = within(dialog).getByRole('group', { name: 'Field 2' });
    fireEvent.change(within(second).getByRole('textbox', { name: /Name/ }), { target: { value: 'field_1' } });
    await pick(second, 'Type', 'Drop-down list');
    expect(within(second).getByText('Another field has this name')).toBeTruthy();
    expect(within(second).getByText('Give the field a label, in Chinese, English or both')).toBeTruthy();
    expect(within(second).getByText('Every option needs a value of its own')).toBeTruthy();
    expect(within(dialog).getByText('Fix the problems marked in the fields before saving (4)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // The submit has been handled once the form says it is not valid: react-hook-form either saves or says
    // so, so from then on no save is on its way.
    expect(await screen.findByText('The form is not valid. Please check for errors')).toBeTruthy();
    expect(dataProvider.create).not.toHaveBeenCalled();
  });

  it('opens a new form without errors, and names what it lacks once the operator tries to save', async () => {
    const dataProvider = fakeDataProvider({ [RESOURCE]: [] });
    const Create = resourceFor(schema('survey/quick_task')).list;
    renderScreen(<Create />, { resource: RESOURCE, dataProvider, path: `/${RESOURCE}/create`, resourceRoute: true });
    const dialog = await screen.findByRole('dialog', { name: 'Add quick task' });
    // the field builder arrives with its own code, just after the dialog's other inputs
    await within(dialog).findByRole('button', { name: 'Add field' });
    expect(within(dialog).queryByText('Add at least one field')).toBeNull();
    expect(within(dialog).queryByText(/Fix the problems marked in the fields/)).toBeNull();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    // The help names no side: on a phone the preview sits below the fields.
    expect(within(dialog).getByText(/the preview shows the member's form/)).toBeTruthy();
    expect(within(dialog).queryByText(/beside|on the right/)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Add at least one field')).toBeTruthy();
    expect(within(dialog).getByText('Fix the problems marked in the fields before saving (1)')).toBeTruthy();
    expect(dataProvider.create).not.toHaveBeenCalled();
  });

  it('opens a saved form in the builder, and keeps a form it cannot draw as JSON', async () => {
    const form = { type: 'object', required: ['name'], properties: { name: { type: 'string', title: 'Your name', maxLength: 20 }, platform: { type: 'string', title: 'Platform', enum: ['ios', 'android'] } } };
    const rows = [
      { id: 5, title: 'Saved', description: '', form: JSON.stringify(form), reward_money: '0.50', reward_score: 0, review: 'manual', weigh: 0, status: 'draft', update_time: 1_700_000_000 },
      { id: 6, title: 'Hand-written', description: '', form: JSON.stringify({ type: 'object', properties: { code: { type: 'string', minLength: 6 } } }), reward_money: '0.50', reward_score: 0, review: 'manual', weigh: 0, status: 'draft', update_time: 1_700_000_000 },
    ];
    const Edit = resourceFor(schema('survey/quick_task')).list;
    renderScreen(<Edit />, { resource: RESOURCE, dataProvider: fakeDataProvider({ [RESOURCE]: rows }), path: `/${RESOURCE}/5`, resourceRoute: true });
    let dialog = await screen.findByRole('dialog', { name: 'Edit quick task' });
    const first = await within(dialog).findByRole('group', { name: 'Field 1' });
    expect((within(first).getByRole('textbox', { name: /Name/ }) as HTMLInputElement).value).toBe('name');
    expect((within(first).getByRole('textbox', { name: 'Label (English)' }) as HTMLInputElement).value).toBe('Your name');
    expect((within(first).getByRole('textbox', { name: 'Longest answer (characters)' }) as HTMLInputElement).value).toBe('20');
    const second = within(dialog).getByRole('group', { name: 'Field 2' });
    expect(within(second).getByRole('combobox', { name: 'Type' }).textContent).toBe('Radio buttons');
    expect(within(second).getAllByRole('textbox', { name: 'Value (stored)' }).map((input) => (input as HTMLInputElement).value)).toEqual(['ios', 'android']);
    cleanup();

    renderScreen(<Edit />, { resource: RESOURCE, dataProvider: fakeDataProvider({ [RESOURCE]: rows }), path: `/${RESOURCE}/6`, resourceRoute: true });
    dialog = await screen.findByRole('dialog', { name: 'Edit quick task' });
    expect(await within(dialog).findByText('This form uses keywords the field builder does not draw, so it is edited as JSON.')).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: /Form fields/ }) as HTMLTextAreaElement).value).toContain('"minLength":6');
  });
});
