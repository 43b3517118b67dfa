import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import { createContext, useCallback, useContext, useMemo, type ComponentType, type ReactNode } from 'react';
import { useRedirect, useResourceContext, useTranslate } from 'react-admin';
import { useFormTitle } from './form-title.js';
import { useDiscardGuard } from '../../components/discard-guard.js';
import { useFocusReturnToOpener } from '../../components/focus-return.js';
import type { LocalText } from '../../../schema/local-text.js';

/**
 * Set inside a form dialog: the form leaves the page chrome to the dialog, its Cancel closes it (asking
 * first when something was typed), and it reports whether it holds unsaved input.
 */
interface FormDialogControls {
  close(): void;
  setDirty(dirty: boolean): void;
}

const FormDialogContext = createContext<FormDialogControls | undefined>(undefined);

export function useFormDialog(): FormDialogControls | undefined {
  return useContext(FormDialogContext);
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
export function FormDialog({ list: List, mode, resourceTitle, children }: { list: ComponentType; mode: 'add' | 'edit'; resourceTitle: LocalText; children: ReactNode }) {
  const translate = useTranslate();
  const guard = useDiscardGuard(useCloseForm());
  const controls = useMemo(() => ({ close: guard.requestClose, setDirty: guard.setDirty }), [guard.requestClose, guard.setDirty]);
  useFocusReturnToOpener();
  // One row, named by the schema's singular title (the menu's title names the list).
  const title = useFormTitle(resourceTitle, mode);
  return (
    <>
      <List />
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
          <FormDialogContext.Provider value={controls}>{children}</FormDialogContext.Provider>
        </DialogContent>
      </Dialog>
      {guard.confirm}
    </>
  );
}
