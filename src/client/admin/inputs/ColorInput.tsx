import { Box, InputAdornment } from '@mui/material';
import type { ChangeEvent } from 'react';
import { TextWidgetField, useTextWidget, type TextWidgetProps } from './text-widget.js';

const HEX = /^#[0-9a-f]{6}$/i;

/** A colour: the browser's colour picker beside a text box for any CSS colour code. */
export function ColorInput(props: TextWidgetProps) {
  const input = useTextWidget(props);
  const { field, value } = input;
  return (
    <TextWidgetField
      {...props}
      input={input}
      widget="color"
      startAdornment={
        <InputAdornment position="start">
          <Box
            component="input"
            type="color"
            aria-label={props.label}
            value={HEX.test(value) ? value : '#000000'}
            onChange={(event: ChangeEvent<HTMLInputElement>) => field.onChange(event.target.value)}
            sx={{ width: 28, height: 28, p: 0, border: 0, background: 'none', cursor: 'pointer' }}
          />
        </InputAdornment>
      }
    />
  );
}
