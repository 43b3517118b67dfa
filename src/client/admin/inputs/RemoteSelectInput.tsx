import { Autocomplete, Box, CircularProgress, TextField, type AutocompleteRenderInputParams } from '@mui/material';
import { useMemo, useState, type HTMLAttributes, type Key, type UIEvent } from 'react';
import { InputHelperText, useGetMany, useInfiniteGetList, useInput, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { flattenTree, type TreeNode } from '../resources/tree-data.js';
import { keepValue, requiredMark } from './input-props.js';
import { useDebouncedValue } from './use-debounced-value.js';

interface RemoteSelectInputProps {
  source: string;
  label: string;
  /** react-admin resource name of the referenced schema, e.g. `auth/group` */
  reference: string;
  /** column shown as the option label */
  labelField: string;
  /** column the field holds (default the referenced primary key) */
  keyField?: string;
  multiple?: boolean;
  required?: boolean;
  helperText?: string;
  /** wire value of a picked key (numbers for integer fields) */
  toValue?: (key: unknown) => unknown;
  /** what a cleared single select writes */
  emptyValue?: unknown;
  /** keys that count as "nothing picked" (a tree's `pid` 0) */
  isEmptyKey?: (key: unknown) => boolean;
  /** `alwaysOn` and similar props react-admin passes to filter inputs */
  alwaysOn?: boolean;
}

interface Option {
  key: string;
  raw: unknown;
  label: string;
  depth: number;
}

const PAGE_SIZE = 50;
/** How close to the end of the option list (px) the next page is fetched. */
const LOAD_AHEAD_PX = 48;

function optionOf(node: TreeNode, depth: number, keyField: string, labelField: string): Option {
  const key = node[keyField] ?? node.id;
  return { key: String(key), raw: key, label: String(node[labelField] ?? key), depth };
}
const defaultIsEmpty = (key: unknown) => key === null || key === undefined || key === '' || key === 0 || key === '0';

function keysOf(value: unknown, multiple: boolean, isEmptyKey: (key: unknown) => boolean): unknown[] {
  if (multiple) {
    const items = Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? value.split(',') : [];
    return items.filter((item) => !isEmptyKey(item));
  }
  return isEmptyKey(value) ? [] : [value];
}

/**
 * BuildAdmin's remote select (docs/wire-contract.md#remote-select): options come from the referenced resource's `index` in
 * select mode (`meta.select`; the data provider sends `select=true`), filtered by quick search as the
 * user types, a page at a time: scrolling to the end of the list fetches the next page. The labels of
 * the current value(s) come from `getMany` (`initValue[]`). Tree resources show their options indented
 * by level.
 */
export function RemoteSelectInput({
  source, label, reference, labelField, keyField = 'id', multiple = false, required = false, helperText,
  toValue = (key) => key, emptyValue = null, isEmptyKey = defaultIsEmpty,
}: RemoteSelectInputProps) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed);

  const list = useInfiniteGetList<RaRecord>(
    reference,
    { pagination: { page: 1, perPage: PAGE_SIZE }, sort: { field: keyField, order: 'ASC' }, filter: search ? { q: search } : {}, meta: { select: true } },
    { enabled: open },
  );
  const records = useMemo(() => list.data?.pages.flatMap((page) => page.data) ?? [], [list.data]);
  const loadMoreNearTheEnd = (event: UIEvent<HTMLElement>) => {
    const box = event.currentTarget;
    if (box.scrollTop + box.clientHeight < box.scrollHeight - LOAD_AHEAD_PX) return;
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };
  const keys = keysOf(field.value, multiple, isEmptyKey);
  const current = useGetMany<RaRecord>(reference, { ids: keys as Identifier[], meta: { select: true } }, { enabled: keys.length > 0 });

  const options = useMemo(
    () => flattenTree(records, keyField).map(({ node, depth }) => optionOf(node, depth, keyField, labelField)),
    [records, keyField, labelField],
  );
  const known = new Map<string, Option>();
  for (const record of flattenTree((current.data ?? []).filter(Boolean), keyField)) {
    const option = optionOf(record.node, 0, keyField, labelField);
    known.set(option.key, option);
  }
  for (const option of options) if (!known.has(option.key)) known.set(option.key, option);
  const selectedOption = (key: unknown): Option => known.get(String(key)) ?? { key: String(key), raw: key, label: `#${String(key)}`, depth: 0 };

  const translate = useTranslate();
  const selected = keys.map(selectedOption);
  const error = fieldState.error?.message;
  const common = {
    // MUI's own button labels are English; these come from the react-admin message pack.
    openText: translate('ra.action.open'),
    closeText: translate('ra.action.close'),
    clearText: translate('ra.action.clear_input_value'),
    loadingText: translate('ra.page.loading'),
    noOptionsText: translate('ra.navigation.no_results', { name: label }),
    open,
    onOpen: () => setOpen(true),
    onClose: () => setOpen(false),
    options,
    loading: open && (list.isPending || list.isFetchingNextPage),
    slotProps: { listbox: { onScroll: loadMoreNearTheEnd } },
    filterOptions: (items: Option[]) => items,
    isOptionEqualToValue: (option: Option, value: Option) => option.key === value.key,
    getOptionLabel: (option: Option) => option.label.trim(),
    onInputChange: (_event: unknown, text: string, reason: string) => {
      if (reason === 'input' || reason === 'clear') setTyped(text);
    },
    renderOption: (props: HTMLAttributes<HTMLLIElement> & { key: Key }, option: Option) => {
      const { key: _key, ...rest } = props;
      return (
        <Box component="li" {...rest} key={option.key} sx={{ pl: `${16 + option.depth * 16}px !important` }}>
          {option.label}
        </Box>
      );
    },
    onBlur: field.onBlur,
    size: 'small' as const,
    sx: { minWidth: 240 },
  };
  const renderInput = (params: AutocompleteRenderInputParams) => (
    <TextField
      {...params}
      name={field.name}
      label={label}
      required={required}
      error={!!error}
      helperText={<InputHelperText error={error} helperText={helperText} />}
      InputProps={{
        ...params.InputProps,
        endAdornment: (
          <>
            {common.loading ? <CircularProgress color="inherit" size={16} aria-label={translate('ra.page.loading')} /> : null}
            {params.InputProps.endAdornment}
          </>
        ),
      }}
    />
  );

  return multiple ? (
    <Autocomplete<Option, true>
      {...common}
      multiple
      value={selected}
      onChange={(_event, value) => field.onChange(value.map((option) => toValue(option.raw)))}
      renderInput={renderInput}
    />
  ) : (
    <Autocomplete<Option, false>
      {...common}
      value={selected[0] ?? null}
      onChange={(_event, value) => field.onChange(value ? toValue(value.raw) : emptyValue)}
      renderInput={renderInput}
    />
  );
}
