import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import { createContext, useCallback, useContext, type ComponentType, type ReactNode } from 'react';
import { useRedirect, useResourceContext, useTranslate } from 'react-admin';
import { useFormTitle } from './form-title.js';
import type { LocalText } from '../../../schema/local-text.js';

/** Set inside a form dialog: the form leaves the page chrome to the dialog and its Cancel closes it. */
const FormDialogContext = createContext<{ close(): void } | undefined>(undefined);

export function useFormDialog(): { close(): void } | undefined {
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
 * A click beside the dialog does not close it: what was typed would be lost.
 */
export function FormDialog({ list: List, mode, resourceTitle, children }: { list: ComponentType; mode: 'add' | 'edit'; resourceTitle: LocalText; children: ReactNode }) {
  const translate = useTranslate();
  const close = useCloseForm();
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
          if (reason !== 'backdropClick') close();
        }}
      >
        <DialogTitle id="form-dialog-title" sx={{ pr: 7 }}>
          {title}
        </DialogTitle>
        <IconButton aria-label={translate('ra.action.close')} onClick={close} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
        <DialogContent dividers sx={{ p: 0 }}>
          <FormDialogContext.Provider value={{ close }}>{children}</FormDialogContext.Provider>
        </DialogContent>
      </Dialog>
    </>
  );
}
