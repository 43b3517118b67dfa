import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatClearIcon from '@mui/icons-material/FormatClear';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import FormatUnderlinedIcon from '@mui/icons-material/FormatUnderlined';
import InsertLinkIcon from '@mui/icons-material/InsertLink';
import { Box, FormControl, FormHelperText, FormLabel, IconButton, Paper, Tooltip } from '@mui/material';
import { useEffect, useId, useRef, type ReactElement } from 'react';
import { InputHelperText, useInput, useTranslate } from 'react-admin';
import { keepValue, requiredMark } from './input-props.js';
import { sanitizeHtml } from './sanitize-html.js';

interface EditorInputProps {
  source: string;
  label: string;
  required?: boolean;
  helperText?: string;
}

interface Tool {
  command: string;
  /** the message key of its name */
  label: string;
  icon: ReactElement;
}

const TOOLS: Tool[] = [
  { command: 'bold', label: 'generated.editor.bold', icon: <FormatBoldIcon fontSize="small" /> },
  { command: 'italic', label: 'generated.editor.italic', icon: <FormatItalicIcon fontSize="small" /> },
  { command: 'underline', label: 'generated.editor.underline', icon: <FormatUnderlinedIcon fontSize="small" /> },
  { command: 'insertUnorderedList', label: 'generated.editor.bulletList', icon: <FormatListBulletedIcon fontSize="small" /> },
  { command: 'insertOrderedList', label: 'generated.editor.numberedList', icon: <FormatListNumberedIcon fontSize="small" /> },
  { command: 'createLink', label: 'generated.editor.link', icon: <InsertLinkIcon fontSize="small" /> },
  { command: 'removeFormat', label: 'generated.editor.clear', icon: <FormatClearIcon fontSize="small" /> },
];

/**
 * A small rich-text editor: a contentEditable area with bold, italic, underline, lists and links.
 * What it stores is always sanitised HTML (`sanitizeHtml`), and an editor holding only empty lines
 * stores '' so "required" means real content.
 */
export function EditorInput({ source, label, required = false, helperText }: EditorInputProps) {
  const { field, fieldState } = useInput({ source, parse: keepValue, validate: required ? requiredMark : undefined });
  const translate = useTranslate();
  const area = useRef<HTMLDivElement>(null);
  const labelId = useId();
  const value = typeof field.value === 'string' ? field.value : '';

  // Write the stored value into the editor only when it differs from what the editor shows, so typing
  // (which updates the value from the editor) never moves the caret.
  useEffect(() => {
    const element = area.current;
    if (element && sanitizeHtml(element.innerHTML) !== value) element.innerHTML = sanitizeHtml(value);
  }, [value]);

  const sync = () => field.onChange(sanitizeHtml(area.current?.innerHTML ?? ''));

  const run = (tool: Tool) => {
    let argument: string | undefined;
    if (tool.command === 'createLink') {
      argument = window.prompt(translate('generated.editor.linkPrompt'), 'https://') ?? undefined;
      if (!argument) return;
    }
    area.current?.focus();
    // execCommand is deprecated but remains the only built-in way to format a contentEditable selection.
    if (typeof document.execCommand === 'function') document.execCommand(tool.command, false, argument);
    sync();
  };

  const error = fieldState.error?.message;
  return (
    <FormControl error={!!error} required={required} fullWidth sx={{ mb: 2 }} data-widget="editor">
      <FormLabel id={labelId} sx={{ mb: 0.5 }}>{label}</FormLabel>
      <Paper variant="outlined" sx={{ borderColor: error ? 'error.main' : undefined }}>
        <Box role="toolbar" aria-labelledby={labelId} sx={{ display: 'flex', gap: 0.25, p: 0.5, borderBottom: 1, borderColor: 'divider' }}>
          {TOOLS.map((tool) => {
            const text = translate(tool.label);
            return (
              <Tooltip key={tool.command} title={text}>
                <IconButton size="small" aria-label={text} onMouseDown={(event) => event.preventDefault()} onClick={() => run(tool)}>
                  {tool.icon}
                </IconButton>
              </Tooltip>
            );
          })}
        </Box>
        <Box
          ref={area}
          role="textbox"
          aria-multiline="true"
          aria-labelledby={labelId}
          contentEditable
          suppressContentEditableWarning
          onInput={sync}
          onBlur={() => {
            sync();
            field.onBlur();
          }}
          sx={{ minHeight: 160, p: 1.5, outline: 'none', '& p': { my: 0.5 }, overflowWrap: 'anywhere' }}
        />
      </Paper>
      <FormHelperText>
        <InputHelperText error={error} helperText={helperText} />
      </FormHelperText>
    </FormControl>
  );
}
