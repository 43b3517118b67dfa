// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AdminContext, memoryStore, ResourceContextProvider, SimpleForm, TestMemoryRouter } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaInput } from '../../../src/client/admin/inputs/SchemaInput.js';
import { createI18nProvider } from '../../../src/client/providers/i18n-provider.js';
import { fakeDataProvider } from './support.js';
import { widgetSchema } from './widget-schema.js';

/**
 * Dates in forms read `YYYY-MM-DD` in the Chinese back office too: a native date input would draw the
 * browser's locale (`mm/dd/yyyy` in an English Chromium), whatever the page's language.
 */

afterEach(() => {
  cleanup();
  localStorage.clear();
});

function Value({ source }: { source: string }) {
  const value = useWatch({ name: source });
  return <output data-testid={`value-${source}`}>{JSON.stringify(value ?? null)}</output>;
}

const valueOf = (source: string): unknown => JSON.parse(screen.getByTestId(`value-${source}`).textContent ?? 'null');

function renderDates(record: Record<string, unknown>) {
  const fields = ['birthday', 'start_time'].map((name) => widgetSchema.fields.find((field) => field.name === name)!);
  // No stored language: the back office speaks its default, Chinese, with the app's own message packs.
  localStorage.clear();
  render(
    <TestMemoryRouter>
      <AdminContext dataProvider={fakeDataProvider({})} i18nProvider={createI18nProvider()} store={memoryStore()}>
        <ResourceContextProvider value="test/widgets">
          <SimpleForm record={{ id: 1, ...record }} toolbar={false} onSubmit={() => undefined}>
            {fields.map((field) => <SchemaInput key={field.name} field={field} definition={widgetSchema} mode="edit" />)}
            <Value source="birthday" />
            <Value source="start_time" />
          </SimpleForm>
        </ResourceContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const input = (kind: 'date' | 'datetime') => document.querySelector(`input[data-date-kind="${kind}"]`) as HTMLInputElement;

describe('date inputs in the Chinese back office', () => {
  it('show and take YYYY-MM-DD and YYYY-MM-DD HH:mm:ss as text, with a picker button named in Chinese', async () => {
    const start = Math.floor(new Date(2024, 5, 1, 10, 0, 0).getTime() / 1000);
    renderDates({ birthday: '2024-05-06', start_time: start });
    await screen.findByDisplayValue('2024-05-06');
    expect(input('date').type).toBe('text');
    expect(input('date').placeholder).toBe('YYYY-MM-DD');
    expect(input('datetime').value).toBe('2024-06-01 10:00:00');
    expect(input('datetime').placeholder).toBe('YYYY-MM-DD HH:mm:ss');
    expect(screen.getByRole('button', { name: '选择日期' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '选择日期和时间' })).toBeTruthy();

    // Half a date is not a date: the form keeps the old one until the text is whole.
    fireEvent.change(input('date'), { target: { value: '2025-1' } });
    expect(input('date').value).toBe('2025-1');
    expect(valueOf('birthday')).toBe('2024-05-06');
    fireEvent.blur(input('date'));
    expect(await screen.findByText('请按 YYYY-MM-DD 格式输入')).toBeTruthy();
    fireEvent.change(input('date'), { target: { value: '2025-12-31' } });
    expect(valueOf('birthday')).toBe('2025-12-31');
    expect(screen.queryByText('请按 YYYY-MM-DD 格式输入')).toBeNull();

    fireEvent.change(input('datetime'), { target: { value: '2025-12-31 23:59' } });
    expect(valueOf('start_time')).toBe(Math.floor(new Date(2025, 11, 31, 23, 59, 0).getTime() / 1000));
    expect(input('datetime').value).toBe('2025-12-31 23:59:00');
    fireEvent.change(input('date'), { target: { value: '' } });
    expect(valueOf('birthday')).toBeNull();
  });
});
