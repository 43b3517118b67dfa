import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import { Box, IconButton, InputAdornment, TextField } from '@mui/material';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { QUICK_SEARCH_KEY } from './list-filters.js';

/** How long typing pauses before the list is searched (react-admin's filter form waits as long). */
const SEARCH_DELAY_MS = 500;

function textOf(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** The gap react-admin leaves after a filter field (the spacer after the box). */
const FIELD_GAP_PX = 16;

/**
 * The quick search's box as wide as its whole hint needs, when the row has room for that: then the hint
 * is the placeholder; where it has not (a phone), the box takes the room there is and the placeholder is
 * the short `fallback`, the whole hint staying its tooltip and accessible name. Measured in the box's
 * own font, again whenever the room changes.
 */
function useFittingHint(input: RefObject<HTMLInputElement | null>, hint: string, fallback: string): { width: number | undefined; placeholder: string } {
  const [fit, setFit] = useState<{ width: number | undefined; placeholder: string }>({ width: undefined, placeholder: hint });
  useLayoutEffect(() => {
    const box = input.current;
    const root = box?.closest<HTMLElement>('.MuiInputBase-root');
    const row = box?.closest('form')?.parentElement;
    // nothing to measure where nothing is laid out
    if (!box || !root || !row || box.clientWidth === 0) return undefined;
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return undefined;
    const measure = () => {
      const style = getComputedStyle(box);
      context.font = style.font;
      const inner = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      // what the box adds around its text: padding, border, the search icon
      const chrome = root.getBoundingClientRect().width - inner;
      const needed = Math.ceil(context.measureText(hint).width + chrome) + 2;
      const room = row.clientWidth - FIELD_GAP_PX;
      setFit((current) => {
        const next = needed <= room ? { width: needed, placeholder: hint } : { width: room, placeholder: fallback };
        return current.width === next.width && current.placeholder === next.placeholder ? current : next;
      });
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(row);
    return () => observer?.disconnect();
  }, [input, hint, fallback]);
  return fit;
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

  const inputRef = useRef<HTMLInputElement>(null);
  const fit = useFittingHint(inputRef, placeholder, translate('generated.list.quickSearch'));
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
        placeholder={fit.placeholder}
        hiddenLabel
        size="small"
        className={`ra-input ra-input-${QUICK_SEARCH_KEY}`}
        sx={{ '& .MuiInputBase-root': { minWidth: fit.width } }}
        inputRef={inputRef}
        // Named by the whole hint for screen readers too, which may not read a placeholder; shown on hover.
        slotProps={{ input: { endAdornment }, htmlInput: { 'aria-label': placeholder, title: placeholder } }}
      />
      <Box sx={{ width: (theme) => theme.spacing(2) }}>{'\u00A0'}</Box>
    </Box>
  );
}
