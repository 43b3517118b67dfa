import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Dialog, DialogContent, DialogTitle, IconButton, Typography } from '@mui/material';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { useRedirect, useResourceContext, useTranslate } from 'react-admin';
import { useFormTitle } from './form-title.js';
import { useDiscardGuard } from '../../components/discard-guard.js';
import { useFocusReturnToOpener } from '../../components/focus-return.js';
import type { LocalText } from '../../../schema/local-text.js';

/**
 * Set around a generated form, in a dialog or on a page of its own: the form's Cancel closes it
 * (asking first when something was typed), and it reports whether it holds unsaved input. In a dialog
 * the form also leaves the page chrome to the dialog.
 */
interface FormFrameControls {
  close(): void;
  setDirty(dirty: boolean): void;
  inDialog: boolean;
}

const FormFrameContext = createContext<FormFrameControls | undefined>(undefined);

export function useFormFrame(): FormFrameControls | undefined {
  return useContext(FormFrameContext);
}

/** Back to the list the dialog opened over, keeping its page, filters and order (react-admin's store). */
function useCloseForm(): () => void {
  const redirect = useRedirect();
  const resource = useResourceContext() ?? '';
  return useCallback(() => redirect('list', resource), [redirect, resource]);
}

/**
 * Add and edit as BuildAdmin has them: a dialog over the list, with a title, a close button,
 * Esc and Cancel; its routes (`/<resource>/create`, `/<resource>/:id`) stay, so deep links open it.
 * A click beside the dialog does not close it: what was typed would be lost; Esc, × and Cancel ask
 * before dropping typed input. Closed, it hands focus back to the control that opened it.
 */
export function FormDialog({ mode, resourceTitle, children }: { mode: 'add' | 'edit'; resourceTitle: LocalText; children: ReactNode }) {
  const translate = useTranslate();
  const guard = useDiscardGuard(useCloseForm());
  const controls = useMemo(() => ({ close: guard.requestClose, setDirty: guard.setDirty, inDialog: true }), [guard.requestClose, guard.setDirty]);
  useFocusReturnToOpener();
  // One row, named by the schema's singular title (the menu's title names the list).
  const title = useFormTitle(resourceTitle, mode);
  return (
    <>
      <Dialog
        open
        fullWidth
        maxWidth="md"
        scroll="paper"
        aria-labelledby="form-dialog-title"
        onClose={(_event, reason) => {
          if (reason !== 'backdropClick') guard.requestClose();
        }}
      >
        <DialogTitle id="form-dialog-title" sx={{ pr: 7 }}>
          {title}
        </DialogTitle>
        <IconButton aria-label={translate('ra.action.close')} onClick={guard.requestClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
        <DialogContent dividers sx={{ p: 0 }}>
          <FormFrameContext.Provider value={controls}>{children}</FormFrameContext.Provider>
        </DialogContent>
      </Dialog>
      {guard.confirm}
    </>
  );
}

/**
 * A form that is a page of its own (a hand-written create or edit screen: a group with its rule tree,
 * a menu rule, a config item): headed by its title, with a way back to the list above it; the way back
 * and the form's Cancel ask before dropping typed input, as a dialog's do.
 */
export function FormPage({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  const guard = useDiscardGuard(useCloseForm());
  const controls = useMemo(() => ({ close: guard.requestClose, setDirty: guard.setDirty, inDialog: false }), [guard.requestClose, guard.setDirty]);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, px: 2, pt: 1.5, pb: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Button color="inherit" size="small" startIcon={<ArrowBackIcon />} onClick={guard.requestClose}>
          {translate('generated.backToList')}
        </Button>
        <Typography variant="h6" component="h2" sx={{ fontSize: '1.0625rem', fontWeight: 600 }}>
          {title}
        </Typography>
      </Box>
      <FormFrameContext.Provider value={controls}>{children}</FormFrameContext.Provider>
      {guard.confirm}
    </>
  );
}
