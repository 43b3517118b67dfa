import { useRef, useState } from 'react';
import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import type { Translate } from '../i18n/translate.js';

/**
 * A date or date-time field that reads `YYYY-MM-DD` (`YYYY-MM-DD HH:mm:ss`) in every language.
 * Chromium draws a native date input in the browser's locale, not the page's (a Chinese page in an
 * English browser showed `mm/dd/yyyy`), so the text is ours; the calendar button still opens the
 * browser's picker, on a hidden native input, for those who prefer to pick.
 * It takes its words (`dateInput.*`, in `common/http`) from the `t` it is given, so the
 * standalone pages, which do not load react-admin, draw it too.
 */

export type DateKind = 'date' | 'datetime';

const FORMAT: Record<DateKind, string> = { date: 'YYYY-MM-DD', datetime: 'YYYY-MM-DD HH:mm:ss' };
const COMPLETE: Record<DateKind, RegExp> = { date: /^\d{4}-\d{2}-\d{2}$/, datetime: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/ };

/** A picker's or a stored value as the field shows it: `T` becomes a space, seconds are added. */
export function dateText(value: unknown, kind: DateKind): string {
  if (value === null || value === undefined) return '';
  const text = String(value).replace('T', ' ');
  return kind === 'datetime' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
}

export type DateTextBoxProps = Omit<TextFieldProps, 'type' | 'value' | 'onChange'> & {
  kind: DateKind;
  /** `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss` (a `T` in place of the space is read too) */
  value: unknown;
  /** a complete text as typed or picked (`T` written as a space), or '' when cleared */
  onChange(value: string): void;
  /** reads `dateInput.pickDate`, `dateInput.pickDateTime` and `dateInput.format` */
  t: Translate;
};

export function DateTextBox({ kind, value, onChange, t, slotProps, onBlur, error, helperText, ...props }: DateTextBoxProps) {
  const picker = useRef<HTMLInputElement>(null);
  // What is being typed stays here until it is a whole date: a part of one would read as another date.
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [unfinished, setUnfinished] = useState(false);
  const text = draft ?? dateText(value, kind);
  const type = (next: string) => {
    setDraft(next);
    setUnfinished(false);
    if (next === '' || COMPLETE[kind].test(next)) onChange(next);
  };
  const picked = (next: string) => {
    setDraft(undefined);
    setUnfinished(false);
    onChange(next);
  };
  const pickLabel = t(kind === 'date' ? 'dateInput.pickDate' : 'dateInput.pickDateTime');
  const open = () => {
    const input = picker.current;
    if (!input) return;
    input.value = kind === 'date' ? text : text.replace(' ', 'T');
    // showPicker is missing in older browsers: focusing the hidden input is the fallback.
    if (typeof input.showPicker === 'function') input.showPicker();
    else input.focus();
  };
  return (
    <TextField
      {...props}
      type="text"
      value={text}
      placeholder={FORMAT[kind]}
      onChange={(event) => type(dateText(event.target.value, kind))}
      onBlur={(event) => {
        if (draft !== undefined && draft !== '' && !COMPLETE[kind].test(draft)) setUnfinished(true);
        else setDraft(undefined);
        onBlur?.(event);
      }}
      error={unfinished || error}
      helperText={unfinished ? t('dateInput.format', { format: FORMAT[kind] }) : helperText}
      slotProps={{
        ...slotProps,
        inputLabel: { shrink: true, ...(slotProps?.inputLabel as object) },
        htmlInput: { inputMode: 'numeric', maxLength: FORMAT[kind].length, autoComplete: 'off', 'data-date-kind': kind, ...(slotProps?.htmlInput as object) },
        input: {
          endAdornment: (
            <InputAdornment position="end" sx={{ position: 'relative' }}>
              <input
                ref={picker}
                type={kind === 'date' ? 'date' : 'datetime-local'}
                step={1}
                tabIndex={-1}
                aria-hidden="true"
                onChange={(event) => event.target.value && picked(dateText(event.target.value, kind))}
                style={{ position: 'absolute', inset: 0, opacity: 0, pointerEvents: 'none', width: '100%' }}
              />
              <IconButton size="small" edge="end" aria-label={pickLabel} title={pickLabel} onClick={open} disabled={props.disabled}>
                <CalendarMonthOutlinedIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ),
          ...(slotProps?.input as object),
        },
      }}
    />
  );
}
