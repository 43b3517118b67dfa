import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import { Box, IconButton, InputAdornment, TextField } from '@mui/material';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { QUICK_SEARCH_KEY } from './list-filters.js';

/** How long typing pauses before the list is searched (react-admin's filter form waits as long). */
const SEARCH_DELAY_MS = 500;

function textOf(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/**
 * The always-shown quick search of a list: a plain text box bound to the list's `q` filter, so a list
 * whose other filters stay closed draws no form library. It searches once typing pauses, or at once on
 * Enter; a clear button replaces the search icon while it holds text. The other filters and the shown
 * filters are kept; a search changed elsewhere ("Remove all filters", the address) shows here.
 */
export function QuickSearch({ placeholder }: { placeholder: string }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const applied = textOf(filterValues[QUICK_SEARCH_KEY]);
  const [text, setText] = useState(applied);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The filters as they are when the search applies, not when typing started.
  const latestFilters = useRef(filterValues);
  useEffect(() => {
    latestFilters.current = filterValues;
  }, [filterValues]);

  // A search applied from elsewhere shows, unless the person is typing one that is yet to apply.
  useEffect(() => {
    if (pending.current === undefined) setText(applied);
  }, [applied]);
  useEffect(() => () => clearTimeout(pending.current), []);

  const apply = useCallback(
    (value: string) => {
      clearTimeout(pending.current);
      pending.current = undefined;
      // An empty search is dropped from the filters by the list itself.
      setFilters({ ...latestFilters.current, [QUICK_SEARCH_KEY]: value });
    },
    [setFilters],
  );
  const change = useCallback(
    (value: string) => {
      setText(value);
      clearTimeout(pending.current);
      pending.current = setTimeout(() => apply(value), SEARCH_DELAY_MS);
    },
    [apply],
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(text);
  };

  const clearLabel = translate('ra.action.clear_input_value');
  const endAdornment = text ? (
    <InputAdornment position="end">
      <IconButton
        aria-label={clearLabel}
        title={clearLabel}
        onClick={() => change('')}
        // A click keeps the focus in the box.
        onMouseDown={(event) => event.preventDefault()}
        size="large"
        sx={{ height: 24, width: 24, p: 0 }}
      >
        <ClearIcon sx={{ height: 16, width: 16 }} />
      </IconButton>
    </InputAdornment>
  ) : (
    <InputAdornment position="end">
      <SearchIcon color="disabled" />
    </InputAdornment>
  );
  return (
    // Laid out as one of react-admin's filter fields, so the filters shown beside it line up with it.
    <Box
      component="form"
      className="filter-field RaFilterForm-filterFormInput"
      data-source={QUICK_SEARCH_KEY}
      onSubmit={submit}
      sx={{ display: 'flex', alignItems: 'flex-end', pointerEvents: 'auto', width: { xs: '100%', sm: 'auto' } }}
    >
      <TextField
        name={QUICK_SEARCH_KEY}
        value={text}
        onChange={(event) => change(event.target.value)}
        placeholder={placeholder}
        hiddenLabel
        size="small"
        className={`ra-input ra-input-${QUICK_SEARCH_KEY}`}
        // Named by its placeholder's words for screen readers too, which may not read a placeholder.
        slotProps={{ input: { endAdornment }, htmlInput: { 'aria-label': placeholder } }}
      />
      <Box sx={{ width: (theme) => theme.spacing(2) }}>{'\u00A0'}</Box>
    </Box>
  );
}
