import { createElement, Fragment, type ComponentType, type ReactElement } from 'react';
import type { RaRecord } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { writableFields, type ResourceDefinition } from '../../../schema/definition.js';
import { FormDialog } from './FormDialog.js';
import { GeneratedCreate, GeneratedEdit } from './lazy-forms.js';
import type { InputOverrides } from './GeneratedInputs.js';
import { firstPageQuery, GeneratedList } from './GeneratedList.js';
import { representationFieldOf } from './list-columns.js';
import { adminGroupOverride } from './system/admin_group/index.js';
import { adminRuleOverride } from './system/admin_rule/index.js';
import { configOverride } from './system/config/index.js';
import { userGroupOverride } from './system/user_group/index.js';
import { userRuleOverride } from './system/user_rule/index.js';
import { recycleRuleInputs } from './system/security_data_recycle/index.js';
import { sensitiveRuleInputs } from './system/security_sensitive_data/index.js';
import { dataRecycleLogOverride } from './system/security_data_recycle_log/index.js';
import { sensitiveDataLogOverride } from './system/security_sensitive_data_log/index.js';
import { participationOverride } from './survey/participation/index.js';
import { providerInputs, providerOverride } from './survey/provider/index.js';
import { quickTaskInputs } from './survey/quick_task/index.js';
import { quickTaskSubmissionOverride } from './survey/quick_task_submission/index.js';
import { payoutOverride } from './user/payout/index.js';

/** What a `<Resource>` takes, the shape react-admin's CRM example exports per resource folder. */
export interface ResourceDescriptor {
  list: ComponentType;
  create?: ComponentType;
  edit?: ComponentType;
  show?: ComponentType;
  /** the add or edit screen is a dialog drawn by `list` (so `create` or `edit` is not a route of its own) */
  hasCreate?: boolean;
  hasEdit?: boolean;
  recordRepresentation?: string | ((record: RaRecord) => string) | ReactElement;
}

/** A hand-written screen override, merged over the generated descriptor. */
type ResourceOverride = (definition: ResourceDefinition, generated: ResourceDescriptor) => Partial<ResourceDescriptor>;

/**
 * Overrides by schema `$id`; the override of `<area>/<name>` is exported by `./<area>/<name>/index.tsx`,
 * the path rule the server's hooks follow too (`src/server/resources/<area>/<name>.ts`).
 * tests/ui/resources/override-registry.test.ts fails when a key names no schema in `schemas/`.
 */
export const SCREEN_OVERRIDES: Readonly<Record<string, ResourceOverride>> = {
  'system/admin_group': adminGroupOverride,
  'system/admin_rule': adminRuleOverride,
  'system/config': configOverride,
  'system/user_group': userGroupOverride,
  'system/user_rule': userRuleOverride,
  'system/security_data_recycle_log': dataRecycleLogOverride,
  'system/security_sensitive_data_log': sensitiveDataLogOverride,
  'survey/participation': participationOverride,
  'survey/provider': providerOverride,
  'survey/quick_task_submission': quickTaskSubmissionOverride,
  'user/payout': payoutOverride,
};

/** Inputs of the generated add and edit forms replaced by a widget of their own (the forms stay dialogs); same keys and paths. */
export const FORM_INPUTS: Readonly<Record<string, (definition: ResourceDefinition) => InputOverrides>> = {
  'survey/provider': providerInputs,
  'survey/quick_task': quickTaskInputs,
  'system/security_data_recycle': recycleRuleInputs,
  'system/security_sensitive_data': sensitiveRuleInputs,
};

function named<P extends object>(name: string, render: (props: P) => ReactElement): ComponentType<P> {
  const component = (props: P) => render(props);
  component.displayName = name;
  return component;
}

/** The generated list screens, by the schema each draws (a hand-written list is not among them). */
const generatedLists = new WeakMap<ComponentType, ResourceDefinition>();

/** The screens a schema yields with no other code: list, create and edit (when it has writable fields). */
function generatedResource(definition: ResourceDefinition): ResourceDescriptor {
  const writable = writableFields(definition).length > 0;
  const overrides = FORM_INPUTS[definition.id]?.(definition);
  const label = definition.id.replace(/[^a-z0-9]+(.)?/gi, (_match, next: string | undefined) => (next ?? '').toUpperCase());
  const list = named(`${label}List`, () => createElement(GeneratedList, { definition, creatable: writable, editable: writable }));
  generatedLists.set(list, definition);
  return {
    list,
    ...(writable
      ? {
          create: named(`${label}Create`, () => createElement(GeneratedCreate, { definition, overrides })),
          edit: named(`${label}Edit`, () => createElement(GeneratedEdit, { definition, overrides })),
        }
      : {}),
    recordRepresentation: representationFieldOf(definition),
  };
}

function inDialog(definition: ResourceDefinition, form: ComponentType, mode: 'add' | 'edit'): ComponentType {
  return named(`${form.displayName ?? 'Form'}Dialog`, () => createElement(FormDialog, { mode, resourceTitle: definition.title, children: createElement(form) }));
}

/**
 * The list with its add and edit dialogs routed under it (`create`, `:id`): the list stays mounted while
 * one opens and closes, so its rows are not fetched again (nothing was saved; a save refetches them,
 * `useSavedNotice`), and its scroll, focus and selection stay as they were. A dialog that were a route
 * beside the list would draw a new list under it, which asks for its rows again, and again on closing.
 */
function withDialogs(List: ComponentType, dialogs: { create?: ComponentType; edit?: ComponentType }): ComponentType {
  return named(`${List.displayName ?? 'List'}WithDialogs`, () =>
    createElement(
      Fragment,
      null,
      createElement(List),
      createElement(
        Routes,
        null,
        dialogs.create && createElement(Route, { path: 'create/*', element: createElement(dialogs.create) }),
        dialogs.edit && createElement(Route, { path: ':id/*', element: createElement(dialogs.edit) }),
        // the list's own path: no dialog
        createElement(Route, { path: '*', element: null }),
      ),
    ),
  );
}

// One descriptor per schema for the page's lifetime, so re-rendering the shell never remounts screens.
const descriptors = new Map<ResourceDefinition, ResourceDescriptor>();

/** The screens of a schema: generated, with its override (if any) merged over them. */
export function resourceFor(definition: ResourceDefinition): ResourceDescriptor {
  const known = descriptors.get(definition);
  if (known) return known;
  const generated = generatedResource(definition);
  const override = SCREEN_OVERRIDES[definition.id];
  const { create, edit, ...merged } = override ? { ...generated, ...override(definition, generated) } : generated;
  // The generated forms open as dialogs over the resource's list (its override's, if any); a
  // hand-written create or edit screen stays the page it was written as.
  const dialogCreate = create && create === generated.create ? inDialog(definition, create, 'add') : undefined;
  const dialogEdit = edit && edit === generated.edit ? inDialog(definition, edit, 'edit') : undefined;
  const list = dialogCreate || dialogEdit ? withDialogs(merged.list, { create: dialogCreate, edit: dialogEdit }) : merged.list;
  if (merged.list === generated.list) generatedLists.set(list, definition);
  const descriptor: ResourceDescriptor = {
    ...merged,
    list,
    ...(dialogCreate ? { hasCreate: true } : create ? { create } : {}),
    ...(dialogEdit ? { hasEdit: true } : edit ? { edit } : {}),
  };
  descriptors.set(definition, descriptor);
  return descriptor;
}

/**
 * What the list screen of a schema asks for when it opens with nothing chosen yet, when that screen
 * is the generated list (a hand-written list asks for what it wants): undefined otherwise.
 */
export function firstListQueryOf(definition: ResourceDefinition): ReturnType<typeof firstPageQuery> | undefined {
  return generatedLists.get(resourceFor(definition).list) === definition ? firstPageQuery(definition) : undefined;
}

// The forms (their inputs, editors and checks) load when one opens: nothing here imports them eagerly.
export { GeneratedCreate, GeneratedEdit } from './lazy-forms.js';
export type { InputOverrides } from './GeneratedInputs.js';
export { GeneratedList, LIST_SCREEN_CHECKS } from './GeneratedList.js';
export { GeneratedTable } from './GeneratedTable.js';
export { filterKeyOf, filterInputsFor, QUICK_SEARCH_KEY, quickSearchPlaceholder } from './list-filters.js';
export { resourceNameOf, referencedResourceName } from './resource-name.js';
export { useSchemaTranslate, formatMessage } from './schema-i18n.js';
