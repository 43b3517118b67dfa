import { BulkDeleteButton, DeleteButton, useListContext, useNotify, useRecordContext, useResourceContext, useUnselect } from 'react-admin';
import type { LocalText } from '../../../schema/local-text.js';
import { keepFocusInPage } from '../../components/page-focus.js';
import { useDeletedNotice } from './form-title.js';

/*
 * react-admin's delete buttons say "Element deleted": their own message goes through a translation
 * whose default wins over any text of ours, so these buttons take the success step over, saying what
 * was deleted, and keep react-admin's other step (the deleted rows leave the selection). The button
 * that had focus leaves with its row: focus then goes to the page's heading, not to the document.
 */

/** Deletes one row once the server answers, and says "<Name> deleted". */
export function NamedDeleteButton({ title }: { title: LocalText | undefined }) {
  const notify = useNotify();
  const record = useRecordContext();
  const unselect = useUnselect(useResourceContext() ?? '');
  const deleted = useDeletedNotice(title);
  if (!deleted) return <DeleteButton mutationMode="pessimistic" />;
  const onSuccess = () => {
    notify(deleted, { type: 'info' });
    if (record) unselect([record.id]);
    keepFocusInPage();
  };
  return <DeleteButton mutationMode="pessimistic" mutationOptions={{ onSuccess }} />;
}

/** Deletes the selected rows once the server answers, and says how many of what were deleted. */
export function NamedBulkDeleteButton({ title }: { title: LocalText }) {
  const notify = useNotify();
  const { selectedIds, onUnselectItems } = useListContext();
  const deleted = useDeletedNotice(title, selectedIds.length) ?? '';
  const onSuccess = () => {
    notify(deleted, { type: 'info' });
    onUnselectItems(true);
    keepFocusInPage();
  };
  return <BulkDeleteButton mutationMode="pessimistic" mutationOptions={{ onSuccess }} />;
}
