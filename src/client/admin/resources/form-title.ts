import { useCallback } from 'react';
import { useNotify, useRedirect, useResourceContext, useTranslate } from 'react-admin';
import type { ResourceDefinition } from '../../../schema/definition.js';
import type { LocalText } from '../../../schema/local-text.js';
import { useSchemaTranslate } from './schema-i18n.js';

/**
 * Forms and their messages name one row by the schema's `title`, the singular ("Add survey" rather than
 * the menu's "Survey list"; "Survey created" rather than "Element created"), in the reader's language.
 */
export function useFormTitle(title: LocalText, mode: 'add' | 'edit'): string {
  const translate = useTranslate();
  const name = useSchemaTranslate()(title);
  return translate(`generated.dialog.${mode}`, { name, _: mode === 'add' ? `Add ${name}` : `Edit ${name}` });
}

/**
 * The `onSuccess` of a create or edit: "<Name> created" / "<Name> saved", then back to the list, as
 * react-admin's own would do with its nameless message.
 */
export function useSavedNotice(definition: ResourceDefinition, mode: 'add' | 'edit'): () => void {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const resource = useResourceContext() ?? '';
  const name = useSchemaTranslate()(definition.title);
  return useCallback(() => {
    const key = mode === 'add' ? 'generated.saved.created' : 'generated.saved.updated';
    notify(translate(key, { name, _: mode === 'add' ? `${name} created` : `${name} saved` }), { type: 'info' });
    redirect('list', resource);
  }, [translate, notify, redirect, resource, name, mode]);
}

/**
 * What a delete of `count` rows says once done: "Survey deleted", "3 Survey rows deleted" (已删除 1 条问卷,
 * 已删除 3 条问卷) rather than react-admin's nameless "Element deleted". Given to the delete buttons as
 * their `successMessage`, already in the reader's language.
 */
export function useDeletedNotice(title: LocalText | undefined, count = 1): string | undefined {
  const translate = useTranslate();
  const schemaTranslate = useSchemaTranslate();
  if (!title) return undefined;
  const name = schemaTranslate(title);
  return translate('generated.saved.deleted', { name, smart_count: count, _: `${name} deleted` });
}
