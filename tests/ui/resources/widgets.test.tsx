// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { SimpleForm } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadAreas, uploadFile } from '../../../src/client/admin/inputs/admin-ajax.js';
import { CityInput } from '../../../src/client/admin/inputs/CityInput.js';
import { EditorInput } from '../../../src/client/admin/inputs/EditorInput.js';
import { IconInput } from '../../../src/client/admin/inputs/IconInput.js';
import { RemoteSelectInput } from '../../../src/client/admin/inputs/RemoteSelectInput.js';
import { UploadInput } from '../../../src/client/admin/inputs/UploadInput.js';
import { SiteConfigContext, DEFAULT_SITE_CONFIG } from '../../../src/client/admin/site-config-context.js';
import { SchemaInput } from '../../../src/client/admin/inputs/SchemaInput.js';
import { ObjectField } from '../../../src/client/admin/fields/ObjectField.js';
import { fieldOf, type FieldDefinition } from '../../../src/schema/definition.js';
import { RecordContextProvider } from 'react-admin';
import { fakeDataProvider, renderScreen, schema } from './support.js';

vi.mock('../../../src/client/admin/inputs/admin-ajax.js', () => ({ uploadFile: vi.fn(), loadAreas: vi.fn() }));

beforeEach(() => {
  vi.mocked(uploadFile).mockReset();
  vi.mocked(loadAreas).mockReset();
});
afterEach(() => {
  cleanup();
});

/** Shows a form value as JSON, so a test reads what the form would post. */
function Value({ source }: { source: string }) {
  const value = useWatch({ name: source });
  return <output data-testid={`value-${source}`}>{JSON.stringify(value ?? null)}</output>;
}

function valueOf(source: string): unknown {
  return JSON.parse(screen.getByTestId(`value-${source}`).textContent ?? 'null');
}

function renderInForm(input: ReactElement, source: string, record: Record<string, unknown> = {}, tables = {}) {
  const dataProvider = fakeDataProvider(tables);
  function Form() {
    return (
      <SimpleForm record={{ id: 1, ...record }} toolbar={false} onSubmit={() => undefined}>
        {input}
        <Value source={source} />
      </SimpleForm>
    );
  }
  renderScreen(<Form />, {
    resource: 'test/widgets',
    dataProvider,
    wrapper: (children) => (
      <SiteConfigContext.Provider value={{ ...DEFAULT_SITE_CONFIG, upload: { ...DEFAULT_SITE_CONFIG.upload, maxSize: 1024 } }}>{children}</SiteConfigContext.Provider>
    ),
  });
  return dataProvider;
}

function pick(input: HTMLElement, file: File) {
  fireEvent.change(input, { target: { files: [file] } });
}

describe('key-value map with labelled values', () => {
  const provider = schema('survey/provider');
  const exitMap = fieldOf(provider, 'exit_map') as FieldDefinition;

  it('offers the schema’s outcomes by label for each exit code, and posts their values', async () => {
    renderInForm(<SchemaInput field={exitMap} definition={provider} mode="edit" />, 'exit_map', { exit_map: { '10': 'complete' } });
    // The columns say what they hold, as the schema names them.
    expect(await screen.findByRole('textbox', { name: 'Provider code' })).toHaveProperty('value', '10');
    const value = await screen.findByRole('combobox', { name: 'Our outcome' });
    expect(value.textContent).toBe('Complete');
    fireEvent.mouseDown(value);
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Complete', 'Screened out', 'Over quota', 'Security terminated']);
    fireEvent.click(screen.getByRole('option', { name: 'Security terminated' }));
    await waitFor(() => expect(valueOf('exit_map')).toEqual({ '10': 'security' }));
  });

  it('reads a stored map as exit code → outcome label', () => {
    renderScreen(
      <RecordContextProvider value={{ id: 1, exit_map: { '10': 'complete', '40': 'overquota' } }}>
        <ObjectField field={exitMap} definition={provider} block />
      </RecordContextProvider>,
      { resource: 'survey/provider', dataProvider: fakeDataProvider({}) },
    );
    expect(screen.getAllByRole('definition').map((item) => item.textContent)).toEqual(['Complete', 'Over quota']);
    expect(screen.getAllByRole('term').map((item) => item.textContent)).toEqual(['10', '40']);
  });

  it('heads a sensitive-data rule’s watched fields as field and note, not key and value', async () => {
    const rules = schema('system/security_sensitive_data');
    renderInForm(<SchemaInput field={fieldOf(rules, 'data_fields') as FieldDefinition} definition={rules} mode="edit" />, 'data_fields', { data_fields: { rules: 'Permission rule IDs' } });
    expect(await screen.findByRole('textbox', { name: 'Field' })).toHaveProperty('value', 'rules');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveProperty('value', 'Permission rule IDs');
    expect(screen.queryByRole('textbox', { name: 'Key' })).toBeNull();
  });
});

describe('upload widget', () => {
  it('refuses a file over the site limit or of a type not allowed, before sending it', async () => {
    renderInForm(<UploadInput source="avatar" label="Avatar" kind="image" />, 'avatar');
    const input = screen.getByLabelText('Avatar', { selector: 'input' });
    pick(input, new File([new Uint8Array(2048)], 'big.png', { type: 'image/png' }));
    expect(await screen.findAllByText('The size of the uploaded file exceeds the allowed range!')).not.toHaveLength(0);
    pick(input, new File(['x'], 'run.exe', { type: 'application/octet-stream' }));
    expect(await screen.findAllByText('The type of uploaded file is not allowed!')).not.toHaveLength(0);
    expect(uploadFile).not.toHaveBeenCalled();
    expect(valueOf('avatar')).toBe(null);
  });

  it('uploads with a progress bar and keeps the returned url; several files add up', async () => {
    let report: ((percent: number) => void) | undefined;
    let finish: (() => void) | undefined;
    vi.mocked(uploadFile).mockImplementation((file, onProgress) => {
      report = onProgress;
      return new Promise((resolve) => {
        finish = () => resolve({ id: 1, url: `/storage/default/${file.name}`, name: file.name, size: file.size, mimetype: file.type });
      });
    });
    renderInForm(<UploadInput source="photos" label="Photos" kind="image" multiple shape="array" />, 'photos', { photos: ['/storage/a.png'] });
    pick(screen.getByLabelText('Photos', { selector: 'input' }), new File(['x'], 'b.png', { type: 'image/png' }));
    await waitFor(() => expect(report).toBeDefined());
    act(() => report?.(40));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    await act(async () => finish?.());
    await waitFor(() => expect(valueOf('photos')).toEqual(['/storage/a.png', '/storage/default/b.png']));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getAllByRole('img').map((image) => image.getAttribute('src'))).toEqual(['/storage/a.png', '/storage/default/b.png']);
  });
});

describe('remote select', () => {
  it('searches the referenced resource in select mode and stores the picked key', async () => {
    const dataProvider = renderInForm(
      <RemoteSelectInput source="group_id" label="Group" reference="auth/group" labelField="name" toValue={Number} />,
      'group_id',
      { group_id: 0 },
      { 'auth/group': [{ id: 1, pid: 0, name: 'Super group', children: [{ id: 2, pid: 1, name: 'Editors' }] }] },
    );
    const combobox = screen.getByRole('combobox', { name: 'Group' });
    fireEvent.mouseDown(combobox);
    fireEvent.change(combobox, { target: { value: 'Edi' } });
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenLastCalledWith('auth/group', expect.objectContaining({ filter: { q: 'Edi' }, meta: { select: true } })),
    );
    // tree options are flattened, children indented under their parent
    const option = await screen.findByRole('option', { name: 'Editors' });
    expect(screen.getByRole('option', { name: 'Super group' })).toBeTruthy();
    fireEvent.click(option);
    await waitFor(() => expect(valueOf('group_id')).toBe(2));
  });
});

describe('remote select with many options', () => {
  it('fetches the next page when the option list is scrolled to its end, and only then', async () => {
    const members = Array.from({ length: 120 }, (_, index) => ({ id: index + 1, name: `Member ${index + 1}` }));
    const dataProvider = renderInForm(<RemoteSelectInput source="user_id" label="Member" reference="user/user" labelField="name" toValue={Number} />, 'user_id', { user_id: 0 });
    dataProvider.getList.mockImplementation(async (_resource: string, params: { pagination: { page: number; perPage: number } }) => {
      const { page, perPage } = params.pagination;
      return { data: members.slice((page - 1) * perPage, page * perPage), total: members.length };
    });
    const pagesAsked = () => dataProvider.getList.mock.calls.map((call) => (call[1] as { pagination: { page: number } }).pagination.page);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Member' }));
    await screen.findByRole('option', { name: 'Member 50' });
    expect(screen.queryByRole('option', { name: 'Member 51' })).toBeNull();

    const listbox = screen.getByRole('listbox');
    const scrollTo = (top: number) => {
      Object.defineProperties(listbox, { scrollHeight: { value: 2_000, configurable: true }, clientHeight: { value: 300, configurable: true } });
      listbox.scrollTop = top;
      fireEvent.scroll(listbox);
    };
    scrollTo(600);
    expect(pagesAsked()).toEqual([1]);
    scrollTo(1_700);
    expect(await screen.findByRole('option', { name: 'Member 100' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Member 1' })).toBeTruthy();
    scrollTo(1_700);
    fireEvent.click(await screen.findByRole('option', { name: 'Member 120' }));
    await waitFor(() => expect(valueOf('user_id')).toBe(120));
    // nothing after the last page
    expect(pagesAsked()).toEqual([1, 2, 3]);
  });
});

describe('icon picker', () => {
  it('filters the catalogue by a search and stores the picked name', async () => {
    renderInForm(<IconInput source="icon" label="Icon" />, 'icon', { icon: 'fa fa-user' });
    fireEvent.click(screen.getByRole('button', { name: 'Choose icon' }));
    const dialog = await screen.findByRole('dialog');
    // the whole Font Awesome 4 set, loaded on opening; the first icons shown, a search finds the others
    await within(dialog).findByRole('button', { name: 'fa fa-address-book' });
    expect(within(dialog).getByText(/^240 of \d{3} shown/)).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Search icons' }), { target: { value: 'pencil square' } });
    expect(within(dialog).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['fa fa-pencil-square', 'fa fa-pencil-square-o']);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Search icons' }), { target: { value: 'dashb' } });
    expect(within(dialog).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['fa fa-dashboard']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'fa fa-dashboard' }));
    await waitFor(() => expect(valueOf('icon')).toBe('fa fa-dashboard'));
  });

  it('offers the Element Plus and local families in their own tabs', async () => {
    renderInForm(<IconInput source="icon" label="Icon" />, 'icon', { icon: '' });
    fireEvent.click(screen.getByRole('button', { name: 'Choose icon' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Element Plus' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Search icons' }), { target: { value: 'userfilled' } });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'el-icon-UserFilled' }));
    await waitFor(() => expect(valueOf('icon')).toBe('el-icon-UserFilled'));
    // the field draws the picked icon
    await waitFor(() => expect(document.querySelector('[data-widget="icon"] svg[data-icon-family="ep"]')).not.toBeNull());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Choose icon' }));
    const again = await screen.findByRole('dialog');
    fireEvent.click(within(again).getByRole('tab', { name: 'Local' }));
    fireEvent.change(within(again).getByRole('textbox', { name: 'Search icons' }), { target: { value: '' } });
    fireEvent.click(await within(again).findByRole('button', { name: 'local-logo' }));
    await waitFor(() => expect(valueOf('icon')).toBe('local-logo'));
  });
});

describe('rich-text editor', () => {
  it('stores sanitised HTML of what is typed', async () => {
    renderInForm(<EditorInput source="content" label="Content" />, 'content', { content: '<p>Hello <b>world</b></p>' });
    const area = screen.getByRole('textbox', { name: 'Content' });
    expect(area.innerHTML).toBe('<p>Hello <b>world</b></p>');
    area.innerHTML = '<p onclick="steal()">Hi <script>alert(1)</script><a href="javascript:alert(1)">x</a><a href="https://example.com">site</a></p>';
    fireEvent.input(area);
    await waitFor(() =>
      expect(valueOf('content')).toBe('<p>Hi <a>x</a><a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a></p>'),
    );
    area.innerHTML = '<p><br></p>';
    fireEvent.input(area);
    await waitFor(() => expect(valueOf('content')).toBe(''));
  });

  it('names each formatting tool from the message files', () => {
    renderInForm(<EditorInput source="content" label="Content" />, 'content');
    const tools = within(screen.getByRole('toolbar', { name: 'Content' })).getAllByRole('button');
    expect(tools.map((tool) => tool.getAttribute('aria-label'))).toEqual(['Bold', 'Italic', 'Underline', 'Bulleted list', 'Numbered list', 'Link', 'Clear formatting']);
  });
});

describe('city cascader', () => {
  it('loads provinces, then cities, then districts, and stores the ids joined by commas', async () => {
    vi.mocked(loadAreas).mockImplementation(async (params = {}) => {
      if (params.city) return [{ value: 110101, label: 'Dongcheng' }];
      if (params.province) return [{ value: 110100, label: 'Beijing City' }];
      return [{ value: 110000, label: 'Beijing' }];
    });
    renderInForm(<CityInput source="city" label="City" />, 'city');
    const [province, city, district] = within(document.querySelector('[data-widget="city"]') as HTMLElement).getAllByRole('combobox');
    fireEvent.mouseDown(province);
    fireEvent.click(await screen.findByRole('option', { name: 'Beijing' }));
    fireEvent.mouseDown(city);
    fireEvent.click(await screen.findByRole('option', { name: 'Beijing City' }));
    fireEvent.mouseDown(district);
    fireEvent.click(await screen.findByRole('option', { name: 'Dongcheng' }));
    await waitFor(() => expect(valueOf('city')).toBe('110000,110100,110101'));
    expect(loadAreas).toHaveBeenCalledWith({ province: '110000', city: '110100' });
  });
});
