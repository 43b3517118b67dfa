import ContentCopyIcon from '@mui/icons-material/ContentCopyOutlined';
import { Box, IconButton, InputAdornment, TextField, Tooltip } from '@mui/material';
import { VISUALLY_HIDDEN } from './page-focus.js';
import { useRef, useState } from 'react';

const MONO = { fontFamily: 'monospace', wordBreak: 'break-all' } as const;

/**
 * A read-only text to hand on (an address, a signature), labelled, with a copy button named after it.
 * The clipboard API needs a secure page; where it is missing the text is selected for Ctrl+C instead.
 * "Copied" shows in the button's tooltip and is announced by a status region beside it.
 */
export function CopyField({ label, value, copyLabel, copiedLabel, multiline = true }: { label: string; value: string; copyLabel: string; copiedLabel: string; multiline?: boolean }) {
  const input = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      input.current?.focus();
      input.current?.select();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <Box>
    <TextField
      label={label}
      value={value}
      fullWidth
      size="small"
      margin="dense"
      multiline={multiline}
      inputRef={input}
      slotProps={{
        htmlInput: { readOnly: true, style: MONO, spellCheck: false },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copied ? copiedLabel : copyLabel}>
                <IconButton aria-label={copyLabel} onClick={() => void copy()} edge="end" size="small">
                  <ContentCopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
    <Box component="span" role="status" sx={VISUALLY_HIDDEN}>{copied ? copiedLabel : ''}</Box>
    </Box>
  );
}
