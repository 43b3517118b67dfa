import { Stack, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { DeleteButton, EditButton } from 'react-admin';

/** The cell holding `RowActions` stays in view at the right edge when the columns scroll sideways. */
export const ROW_ACTIONS_CELL_SX = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  boxShadow: (theme: Theme) => `inset 1px 0 0 ${theme.palette.divider}`,
} as const;

/**
 * Edit and delete of one row, after any buttons of the resource's own (`children`); each button shows
 * only where `canAccess` allows it.
 */
export function RowActions({ editable = true, children }: { editable?: boolean; children?: ReactNode }) {
  return (
    <Stack direction="row" spacing={0.5} onClick={(event) => event.stopPropagation()}>
      {children}
      {editable && <EditButton />}
      <DeleteButton mutationMode="pessimistic" />
    </Stack>
  );
}
