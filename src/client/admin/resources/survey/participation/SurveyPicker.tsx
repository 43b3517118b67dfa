import { Autocomplete, TextField } from '@mui/material';
import { useState } from 'react';
import { useGetList, type RaRecord } from 'react-admin';
import { useDebouncedValue } from '../../../inputs/use-debounced-value.js';

export interface SurveyOption {
  id: number;
  label: string;
}

/** How many surveys the list offers at a time; typing searches them (the survey list's quick search). */
const OPTIONS = 20;

function optionOf(record: RaRecord): SurveyOption {
  return { id: Number(record.id), label: `#${String(record.id)} ${String(record.title ?? '')}` };
}

/**
 * The survey a reconciliation is about: an autocomplete over the surveys (newest first, searched as the
 * administrator types), or none. Keyboard: type to search, arrows to move, Enter to choose, Escape to close.
 */
export function SurveyPicker({ value, onChange, label, helperText, required }: {
  value: SurveyOption | null;
  onChange: (survey: SurveyOption | null) => void;
  label: string;
  helperText: string;
  required: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed);
  const { data = [], isPending } = useGetList(
    'survey/survey',
    { pagination: { page: 1, perPage: OPTIONS }, sort: { field: 'id', order: 'DESC' }, filter: search ? { q: search } : {}, meta: { select: true } },
    { enabled: open },
  );
  return (
    <Autocomplete<SurveyOption>
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={data.map(optionOf)}
      value={value}
      onChange={(_event, survey) => onChange(survey)}
      onInputChange={(_event, text, reason) => reason === 'input' && setTyped(text)}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      filterOptions={(options) => options}
      loading={open && isPending}
      renderInput={(params) => <TextField {...params} label={label} helperText={helperText} required={required} margin="dense" />}
    />
  );
}
