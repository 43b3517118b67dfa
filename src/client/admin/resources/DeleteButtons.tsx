import ActionDelete from '@mui/icons-material/Delete';
import { humanize, singularize } from 'inflection';
import { useQuery } from '@tanstack/react-query';
import { isValidElement, useState, type ReactNode } from 'react';
import {
  BulkDeleteButton, Button, Confirm, useCanAccess, useDataProvider, useDelete, useGetRecordRepresentation, useListContext, useNotify, useRecordContext,
  useRedirect, useResourceContext, useResourceTranslation, useTranslate, useUnselect, type RaRecord,
} from 'react-admin';
import type { LocalText } from '../../../schema/local-text.js';
import type { ActionDataProvider } from '../../providers/data-provider.js';
import { keepFocusInPage } from '../../components/page-focus.js';
import { inSentence, useDeletedNotice } from './form-title.js';
import { useSchemaTranslate } from './schema-i18n.js';
import { propertyOf } from '../../../contract/checks.js';

/*
 * react-admin's delete buttons say "Element deleted": their own message goes through a translation
 * whose default wins over any text of ours, so these buttons take the success step over, saying what
 * was deleted, and keep react-admin's other step (the deleted rows leave the selection). The button
 * that had focus leaves with its row: focus then goes to the page's heading, not to the document.
 */

/**
 * What becomes of the rows a confirmation is about to delete, as `GET del` tells (docs/wire-contract.md#recycle-bin):
 * kept in the recycle bin, to restore from there, or gone for good. Asked once per screen while a
 * confirmation is open (or rows are selected); nothing is said until the answer is in.
 */
function useRecycleNote(resource: string, asking: boolean): string | undefined {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ActionDataProvider>();
  const { data } = useQuery({
    queryKey: [resource, 'delete-fate'],
    queryFn: async () => (await dataProvider.action<{ recycle: boolean }>(resource, 'del', { method: 'GET' })).data,
    enabled: asking,
    staleTime: 30_000,
    retry: false,
  });
  if (!data) return undefined;
  return data.recycle ? translate('generated.deleteFate.recycled') : translate('generated.deleteFate.gone');
}

/** The confirmation's question, and under it what becomes of the rows once deleted. */
function DeleteQuestion({ question, note }: { question: ReactNode; note: string | undefined }) {
  return (
    <>
      {question}
      {note && (
        <>
          <br />
          <strong>{note}</strong>
        </>
      )}
    </>
  );
}

/**
 * Deletes one row once the server answers and confirmed, and says "<Name> deleted"; shown only where
 * `canAccess` allows deleting the row.
 */
export function NamedDeleteButton({ title }: { title: LocalText | undefined }) {
  const record = useRecordContext();
  const resource = useResourceContext() ?? '';
  const { canAccess, isPending } = useCanAccess({ action: 'delete', resource, record });
  if (!record || record.id == null || !canAccess || isPending) return null;
  return <ConfirmedDeleteButton record={record} resource={resource} title={title} />;
}

/**
 * The button and its confirmation, with react-admin's texts (its `DeleteWithConfirmButton`'s label,
 * dialog title and question, and their translation keys). Written here because react-admin's reads
 * the surrounding form (react-hook-form), a library a list otherwise never loads.
 */
function ConfirmedDeleteButton({ record, resource, title }: { record: RaRecord; resource: string; title: LocalText | undefined }) {
  const translate = useTranslate();
  const schemaTranslate = useSchemaTranslate();
  const notify = useNotify();
  const unselect = useUnselect(resource);
  const redirect = useRedirect();
  const deleted = useDeletedNotice(title);
  const [open, setOpen] = useState(false);
  // The confirmation exists from the first click on and is then kept (so it can fade out): a list of
  // many rows does not draw a closed dialog in each of them.
  const [asked, setAsked] = useState(false);
  const [deleteOne, { isPending }] = useDelete();
  const represent = useGetRecordRepresentation(resource);
  const representation = represent(record);
  // A representation drawn as an element cannot go into a text.
  const recordRepresentation = isValidElement(representation) ? `#${record.id}` : representation;
  // The row's kind by the schema's singular title ("Delete Mail template #4"); react-admin's own
  // naming, from the resource's address, only where a screen has no title.
  const name = title
    ? schemaTranslate(title)
    : translate(`resources.${resource}.forcedCaseName`, {
        smart_count: 1,
        _: humanize(translate(`resources.${resource}.name`, { smart_count: 1, _: singularize(resource) }), true),
      });
  const texts = { recordRepresentation, name, id: record.id };
  const label = useResourceTranslation({ resourceI18nKey: `resources.${resource}.action.delete`, baseI18nKey: 'ra.action.delete', options: { name, recordRepresentation } });
  const confirmTitle = useResourceTranslation({ resourceI18nKey: `resources.${resource}.message.delete_title`, baseI18nKey: 'ra.message.delete_title', options: texts });
  const confirmContent = useResourceTranslation({ resourceI18nKey: `resources.${resource}.message.delete_content`, baseI18nKey: 'ra.message.delete_content', options: texts });
  const note = useRecycleNote(resource, open);

  const onSuccess = () => {
    setOpen(false);
    unselect([record.id]);
    if (deleted) {
      notify(deleted, { type: 'info' });
      keepFocusInPage();
      return;
    }
    notify(`resources.${resource}.notifications.deleted`, { type: 'info', messageArgs: { smart_count: 1, _: translate('ra.notification.deleted', { smart_count: 1 }) } });
    redirect('list', resource);
  };
  const onError = (error: unknown) => {
    setOpen(false);
    const given = typeof error === 'string' ? error : propertyOf(error, 'message');
    const message = typeof given === 'string' ? given : undefined;
    notify(message || 'ra.notification.http_error', { type: 'error', messageArgs: { _: message } });
  };
  const confirm = () => deleteOne(resource, { id: record.id, previousData: record }, { mutationMode: 'pessimistic', onSuccess, onError });
  return (
    <>
      <Button
        onClick={(event) => {
          event.stopPropagation();
          setAsked(true);
          setOpen(true);
        }}
        label={<>{label}</>}
        aria-label={typeof label === 'string' ? label : undefined}
        className="ra-delete-button"
        color="error"
      >
        <ActionDelete />
      </Button>
      {asked && (
        <Confirm
          isOpen={open}
          loading={isPending}
          title={<>{confirmTitle}</>}
          content={<DeleteQuestion question={confirmContent} note={note} />}
          confirmColor="primary"
          onConfirm={confirm}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/** Deletes the selected rows once the server answers, and says how many of what were deleted. */
export function NamedBulkDeleteButton({ title }: { title: LocalText }) {
  const notify = useNotify();
  const translate = useTranslate();
  const schemaTranslate = useSchemaTranslate();
  const resource = useResourceContext() ?? '';
  const { selectedIds, onUnselectItems } = useListContext();
  const deleted = useDeletedNotice(title, selectedIds.length) ?? '';
  const note = useRecycleNote(resource, selectedIds.length > 0);
  // The question names the rows by the schema's title, not by the resource's address, and counts
  // them as rows (react-admin's English would say "Delete 2 Mail template").
  const texts = { smart_count: selectedIds.length, name: schemaTranslate(title), inSentence: inSentence(schemaTranslate(title)) };
  const onSuccess = () => {
    notify(deleted, { type: 'info' });
    onUnselectItems(true);
    keepFocusInPage();
  };
  return (
    <BulkDeleteButton
      mutationMode="pessimistic"
      mutationOptions={{ onSuccess }}
      confirmTitle={<>{translate('generated.bulkDelete.title', { ...texts, _: translate('ra.message.bulk_delete_title', texts) })}</>}
      confirmContent={<DeleteQuestion question={translate('generated.bulkDelete.content', { ...texts, _: translate('ra.message.bulk_delete_content', texts) })} note={note} />}
    />
  );
}
