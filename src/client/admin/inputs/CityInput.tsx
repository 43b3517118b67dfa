import { FormControl, FormHelperText, FormLabel, MenuItem, Stack, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { InputHelperText, useInput, useTranslate } from 'react-admin';
import { listOf } from '../fields/value-format.js';
import { loadAreas, type AreaOption } from './admin-ajax.js';
import { keepValue, requiredMark } from './input-props.js';

interface CityInputProps {
  source: string;
  label: string;
  required?: boolean;
  helperText?: string;
  /** comma-separated ids (BuildAdmin's `city` type) or an array of ids */
  shape?: 'csv' | 'array';
}

/** Loads one level of `/admin/ajax/area` when its parent is known; undefined while not wanted. */
function useAreaLevel(wanted: boolean, province: string | undefined, city: string | undefined): AreaOption[] | undefined {
  const [options, setOptions] = useState<AreaOption[] | undefined>(undefined);
  useEffect(() => {
    if (!wanted) {
      setOptions(undefined);
      return;
    }
    let alive = true;
    loadAreas({ province, city }).then(
      (loaded) => alive && setOptions(loaded),
      // The http client has toasted the failure; the level just stays empty.
      () => alive && setOptions([]),
    );
    return () => {
      alive = false;
    };
  }, [wanted, province, city]);
  return options;
}

/**
 * The city cascader: province → city → district from `/admin/ajax/area`, stored as the chosen ids
 * joined by commas (`110000,110100,110101`). Provinces load when the picker is first opened, or at once
 * when the field already holds a value.
 */
export function CityInput({ source, label, required = false, helperText, shape = 'csv' }: CityInputProps) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const translate = useTranslate();
  const [province, city, district] = listOf(field.value);
  const [opened, setOpened] = useState(false);
  const provinces = useAreaLevel(opened || !!province, undefined, undefined);
  const cities = useAreaLevel(!!province, province, undefined);
  const districts = useAreaLevel(!!province && !!city, province, city);

  const write = (parts: (string | undefined)[]) => {
    const chosen = parts.filter((part): part is string => !!part);
    field.onChange(shape === 'array' ? chosen : chosen.join(','));
    field.onBlur();
  };

  const levels: { key: string; text: string; value: string | undefined; options: AreaOption[] | undefined; onChange: (value: string) => void }[] = [
    { key: 'province', text: translate('generated.city.province'), value: province, options: provinces, onChange: (value) => write([value]) },
    { key: 'city', text: translate('generated.city.city'), value: city, options: cities, onChange: (value) => write([province, value]) },
    { key: 'district', text: translate('generated.city.district'), value: district, options: districts, onChange: (value) => write([province, city, value]) },
  ];
  const error = fieldState.error?.message;

  return (
    <FormControl error={!!error} required={required} sx={{ mb: 2 }} data-widget="city">
      <FormLabel sx={{ mb: 1 }}>{label}</FormLabel>
      <Stack direction="row" spacing={1}>
        {levels.map((level, index) => {
          const options = level.options ?? [];
          // Keep the stored id selectable while its level loads, so MUI does not warn about it.
          const known = level.value === undefined || options.some((option) => String(option.value) === level.value);
          return (
            <TextField
              key={level.key}
              select
              size="small"
              label={level.text}
              value={level.value ?? ''}
              disabled={index > 0 && !levels[index - 1].value}
              onChange={(event) => level.onChange(event.target.value)}
              sx={{ minWidth: 140 }}
              slotProps={{ select: { onOpen: () => setOpened(true) } }}
            >
              <MenuItem value="">
                <em>{translate('generated.city.none')}</em>
              </MenuItem>
              {!known && <MenuItem value={level.value}>{level.value}</MenuItem>}
              {options.map((option) => (
                <MenuItem key={String(option.value)} value={String(option.value)}>
                  {option.label}
                </MenuItem>
              ))}
            </TextField>
          );
        })}
      </Stack>
      <FormHelperText>
        <InputHelperText error={error} helperText={helperText} />
      </FormHelperText>
    </FormControl>
  );
}
