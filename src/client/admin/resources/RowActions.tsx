import { Stack, type Theme } from '@mui/material';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { EditButton, useCanAccess, useResourceContext } from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import type { LocalText } from '../../../schema/local-text.js';
import { NamedDeleteButton } from './DeleteButtons.js';
import { RecordDetailsButton, type DetailRenderers } from './RecordDetails.js';

/**
 * The cell holding `RowActions`, as narrow as it can be: its buttons show their icon, their label stays
 * their accessible name and shows on hover. It is the row's first column (after the checkbox), so a
 * list wider than its card (a phone, a list of many columns) scrolls its other columns sideways while
 * the actions stay in view at the row's start; a cell kept in view over the columns instead would hide
 * the one beneath it, such as a payout's amount or a member's join time. A line on its right sets it
 * apart from the row's data.
 */
export const ROW_ACTIONS_CELL_SX = {
  width: '1%',
  whiteSpace: 'nowrap',
  boxShadow: (theme: Theme) => `inset -1px 0 0 ${theme.palette.divider}`,
  '& .MuiButton-root': { minWidth: 0, px: 0.75, fontSize: 0, lineHeight: 0 },
  '& .MuiButton-startIcon': { m: 0 },
  '& .MuiButton-startIcon > :first-of-type': { fontSize: 20 },
} as const;

/** Each labelled button of the cell tells its label on hover too (the cell shows only icons). */
function useHoverLabels(): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const button of ref.current?.querySelectorAll('button[aria-label], a[aria-label]') ?? []) {
      if (!button.hasAttribute('title')) button.setAttribute('title', button.getAttribute('aria-label') ?? '');
    }
  });
  return ref;
}

interface RowActionsProps {
  editable?: boolean;
  /** the row's schema: a row the admin cannot edit, and without buttons of its own, gets "Details" */
  definition?: ResourceDefinition;
  /** fields the resource draws itself in those details */
  details?: DetailRenderers;
  /** the row's singular name, for the message a delete shows (by default the definition's title) */
  title?: LocalText;
  children?: ReactNode;
}

/**
 * Edit and delete of one row, after any buttons of the resource's own (`children`); each button shows
 * only where `canAccess` allows it. Where editing is not possible, "Details" shows the whole row.
 */
export function RowActions({ editable = true, definition, details: renderers, title, children }: RowActionsProps) {
  const resource = useResourceContext();
  const { canAccess: canEdit } = useCanAccess({ resource, action: 'edit' });
  const details = definition && !children && !(editable && canEdit === true);
  const ref = useHoverLabels();
  return (
    <Stack ref={ref} direction="row" spacing={0.5} onClick={(event) => event.stopPropagation()}>
      {children}
      {details && <RecordDetailsButton definition={definition} renderers={renderers} />}
      {editable && <EditButton />}
      <NamedDeleteButton title={title ?? definition?.title} />
    </Stack>
  );
}
