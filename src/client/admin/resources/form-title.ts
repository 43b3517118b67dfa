import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNotify, useRedirect, useResourceContext, useTranslate } from 'react-admin';
import { fieldOf, type ResourceDefinition } from '../../../schema/definition.js';
import type { LocalText } from '../../../schema/local-text.js';
import { refreshLists } from './list-refresh.js';
import { useSchemaTranslate } from './schema-i18n.js';

/**
 * A title as a word inside a sentence: English titles are in sentence case, so "Quick task" reads "Add
 * quick task"; a title that starts with an abbreviation ("SMS template") keeps it, and a script without
 * case is as it is.
 */
export function inSentence(name: string): string {
  return /^\p{Lu}\p{Ll}/u.test(name) ? name.charAt(0).toLowerCase() + name.slice(1) : name;
}

/**
 * Forms and their messages name one row by the schema's `title`, the singular ("Add survey" rather than
 * the menu's "Survey list"; "Survey created" rather than "Element created"), in the reader's language.
 */
export function useFormTitle(title: LocalText, mode: 'add' | 'edit'): string {
  const translate = useTranslate();
  const name = useSchemaTranslate()(title);
  return translate(`generated.dialog.${mode}`, { name, inSentence: inSentence(name) });
}

/**
 * The `onSuccess` of a create or edit: "<Name> created" / "<Name> saved", then back to the list, as
 * react-admin's own would do with its nameless message; the list fetches its rows once (`refreshLists`). A row saved with the status `draft` (a survey, a
 * quick task: new ones start as drafts) is one members do not see yet, and the message says so, naming the
 * status that publishes it.
 */
export function useSavedNotice(definition: ResourceDefinition, mode: 'add' | 'edit'): (saved?: unknown, variables?: unknown) => void {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const queryClient = useQueryClient();
  const resource = useResourceContext() ?? '';
  const schemaTranslate = useSchemaTranslate();
  const name = schemaTranslate(definition.title);
  const status = fieldOf(definition, 'status');
  const active = status?.ui.options?.draft && status.ui.options.active ? schemaTranslate(status.ui.options.active) : undefined;
  return useCallback(
    (saved?: unknown, variables?: unknown) => {
      if (active !== undefined && (statusIn(saved) ?? statusIn(dataIn(variables))) === 'draft') {
        notify(translate('generated.saved.draft', { name, active }), { type: 'warning', multiLine: true });
      } else {
        const key = mode === 'add' ? 'generated.saved.created' : 'generated.saved.updated';
        notify(translate(key, { name }), { type: 'info' });
      }
      refreshLists(queryClient, resource);
      redirect('list', resource);
    },
    [translate, notify, redirect, queryClient, resource, name, mode, active],
  );
}

/** The status a save left the row with: the server's answer when it carries the row, else what was sent. */
function statusIn(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'status' in value ? value.status : undefined;
}

function dataIn(variables: unknown): unknown {
  return typeof variables === 'object' && variables !== null && 'data' in variables ? variables.data : undefined;
}

/**
 * What a delete of `count` rows says once done: "Survey deleted", "3 survey rows deleted" (已删除 1 条问卷,
 * 已删除 3 条问卷) rather than react-admin's nameless "Element deleted". Given to the delete buttons as
 * their `successMessage`, already in the reader's language.
 */
export function useDeletedNotice(title: LocalText | undefined, count = 1): string | undefined {
  const translate = useTranslate();
  const schemaTranslate = useSchemaTranslate();
  if (!title) return undefined;
  const name = schemaTranslate(title);
  return translate('generated.saved.deleted', { name, inSentence: inSentence(name), smart_count: count });
}
