import CloseIcon from '@mui/icons-material/Close';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { Box, Dialog, DialogActions, DialogContent, DialogTitle, Button as MuiButton, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { createContext, isValidElement, useContext, type ReactNode } from 'react';
import { Button, useTranslate } from 'react-admin';
import { textOf } from '../fields/TextValueField.js';

/**
 * True inside a dialog's actions: a button there shows its words beside its icon at every width (on a
 * phone react-admin's Button draws its icon alone, which in a row of decisions reads as bare symbols).
 */
const ActionsWithText = createContext(false);

/** Whether the button being drawn sits among a dialog's actions, where it must show its label. */
export function useActionsWithText(): boolean {
  return useContext(ActionsWithText);
}

/** A row's "Details" button and the dialog it opens, titled `title`, holding `children` (and `actions` beside Close). */
export function DetailsDialogButton({ title, open, onOpenChange, children, actions }: { title: string; open: boolean; onOpenChange(open: boolean): void; children: ReactNode; actions?: ReactNode }) {
  const translate = useTranslate();
  return (
    <>
      <Button label={title} onClick={() => onOpenChange(true)}>
        <InfoOutlinedIcon />
      </Button>
      <Dialog open={open} onClose={() => onOpenChange(false)} maxWidth="md" fullWidth aria-label={title}>
        <DialogTitle>{title}</DialogTitle>
        {/* Focusable, so a keyboard can scroll details longer than the screen (a phone), which may hold no control. */}
        <DialogContent dividers tabIndex={0} role="region" aria-label={title}>
          {children}
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
          <ActionsWithText.Provider value={true}>{actions}</ActionsWithText.Provider>
          <MuiButton startIcon={<CloseIcon />} onClick={() => onOpenChange(false)}>
            {translate('ra.action.close')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * A value as readable text, wrapped: objects and lists (also as JSON text) as indented JSON; an element
 * as it is; nothing (no value, an empty text or list) as a muted "Not set" in the reader's language.
 */
function ValueText({ value }: { value: unknown }) {
  const translate = useTranslate();
  if (isValidElement(value)) return value;
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        {translate('generated.notSet')}
      </Typography>
    );
  }
  const structured = typeof value === 'string' ? parsedJson(value) : value;
  if (structured !== null && typeof structured === 'object') {
    return (
      <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: '0.8125rem' }}>
        {JSON.stringify(structured, null, 2)}
      </Box>
    );
  }
  return (
    <Typography component="span" variant="body2" sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
      {textOf(value)}
    </Typography>
  );
}

/** A text holding a non-empty JSON object or array, decoded; anything else: undefined. */
function parsedJson(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && Object.keys(parsed).length > 0 ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Label / value pairs as a two-column table; on a phone each label stands above its value, so neither is squeezed. */
export function DetailTable({ rows, label }: { rows: [label: string, value: unknown][]; label?: string }) {
  return (
    <Table size="small" aria-label={label}>
      <TableBody>
        {rows.map(([name, value], index) => (
          <TableRow key={`${name}-${index}`}>
            <TableCell component="th" scope="row" sx={{ width: { sm: '30%' }, fontWeight: 500, verticalAlign: 'top', display: { xs: 'block', sm: 'table-cell' }, borderBottom: { xs: 'none', sm: undefined }, pb: { xs: 0, sm: undefined } }}>
              {name}
            </TableCell>
            <TableCell sx={{ display: { xs: 'block', sm: 'table-cell' } }}>
              <ValueText value={value} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
