import { Stack, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { DeleteButton, EditButton, useCanAccess, useResourceContext } from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import { RecordDetailsButton, type DetailRenderers } from './RecordDetails.js';

/** The cell holding `RowActions` stays in view at the right edge when the columns scroll sideways. */
export const ROW_ACTIONS_CELL_SX = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  boxShadow: (theme: Theme) => `inset 1px 0 0 ${theme.palette.divider}`,
} as const;

interface RowActionsProps {
  editable?: boolean;
  /** the row's schema: a row the admin cannot edit, and without buttons of its own, gets "Details" */
  definition?: ResourceDefinition;
  /** fields the resource draws itself in those details */
  details?: DetailRenderers;
  children?: ReactNode;
}

/**
 * Edit and delete of one row, after any buttons of the resource's own (`children`); each button shows
 * only where `canAccess` allows it. Where editing is not possible, "Details" shows the whole row.
 */
export function RowActions({ editable = true, definition, details: renderers, children }: RowActionsProps) {
  const resource = useResourceContext();
  const { canAccess: canEdit } = useCanAccess({ resource, action: 'edit' });
  const details = definition && !children && !(editable && canEdit === true);
  return (
    <Stack direction="row" spacing={0.5} onClick={(event) => event.stopPropagation()}>
      {children}
      {details && <RecordDetailsButton definition={definition} renderers={renderers} />}
      {editable && <EditButton />}
      <DeleteButton mutationMode="pessimistic" />
    </Stack>
  );
}
