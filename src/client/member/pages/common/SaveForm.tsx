import { Box, Button, Stack } from '@mui/material';
import type { FormEvent, ReactNode } from 'react';
import { useTranslate } from 'react-admin';

interface SaveFormProps {
  /** the form's accessible name: the page title */
  label: string;
  onSubmit(event: FormEvent): Promise<void>;
  /** disables Save while the request runs */
  busy: boolean;
  children: ReactNode;
}

/** A member page's form of stacked fields and one Save button under them. */
export function SaveForm({ label, onSubmit, busy, children }: SaveFormProps) {
  const translate = useTranslate();
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label={label}>
      <Stack spacing={2.5}>
        {children}
        <Box>
          <Button type="submit" variant="contained" disabled={busy}>
            {translate('ra.action.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
