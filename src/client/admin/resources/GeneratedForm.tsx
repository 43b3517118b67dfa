import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useFormState } from 'react-hook-form';
import { Button } from '@mui/material';
import { Loading, SaveButton, SimpleForm, Toolbar, useLocale, useTranslate } from 'react-admin';
import { writableFields, type ResourceDefinition, type Row } from '../../../schema/definition.js';
import type { WriteMode } from '../../../schema/validate-input.js';
import { createFormValidator } from './form-validation.js';
import { GeneratedInputs, type InputOverrides } from './GeneratedInputs.js';
import { useSchemaTranslate } from './schema-i18n.js';
import { loadServerPack, useServerPack } from '../../i18n/server-messages.js';
import { currentLanguage } from '../../i18n/store-config.js';
import { FormPage, useFormFrame } from './FormDialog.js';
import { useFormTitle, useSavedNotice } from './form-title.js';
import { labelColumnSx } from './form-layout.js';
import { useSaveWithServerErrors } from './server-errors.js';
import { StaleRecordDialog, type StaleSave } from './StaleRecordDialog.js';

interface GeneratedFormProps {
  definition: ResourceDefinition;
  mode: WriteMode;
  overrides?: InputOverrides;
  /** replaces the generated inputs entirely (they stay available as `<GeneratedInputs>`) */
  children?: ReactNode;
}

// The form's messages are the server pack's: fetched as soon as the form's code is here.
void loadServerPack(currentLanguage());

/** Field defaults of a new row, from the schema (`default`, else the type's zero value). */
export function defaultValuesOf(definition: ResourceDefinition): Row {
  const values: Row = {};
  for (const field of writableFields(definition)) {
    if (field.default === undefined) continue;
    // A zero value outside the enum ('' for a radio) would pre-select nothing and fail validation.
    if (field.enum && !field.enum.map(String).includes(String(field.default))) continue;
    values[field.name] = structuredClone(field.default);
  }
  return values;
}

/**
 * A refetched row (the edit screen first shows the list's cached copy, then the `edit` answer) resets
 * the form; what the user has already typed survives it.
 */
const KEEP_TYPED_VALUES = { keepDirtyValues: true } as const;

/**
 * Save is always enabled: pressed on an untouched form it shows what is missing on the fields, rather
 * than staying grey with nothing saying why. Cancel goes back to the list (in a dialog the bar stays in
 * view); the dialog or page learns here whether anything typed would be lost.
 */
function FormToolbar() {
  const translate = useTranslate();
  const frame = useFormFrame();
  const { dirtyFields } = useFormState();
  const dirty = Object.keys(dirtyFields).length > 0;
  useEffect(() => frame?.setDirty(dirty), [frame, dirty]);
  return (
    <Toolbar sx={{ gap: 1, justifyContent: 'flex-end', ...(frame?.inDialog ? { position: 'sticky', bottom: 0, zIndex: 1 } : {}) }}>
      {frame && (
        <Button color="inherit" onClick={frame.close}>
          {translate('ra.action.cancel')}
        </Button>
      )}
      <SaveButton alwaysEnable />
    </Toolbar>
  );
}

/**
 * The form of Create and Edit: the schema validator runs on blur and on submit (messages under the
 * inputs before anything is sent), and field errors from the server land on their input.
 */
function GeneratedForm({ definition, mode, overrides, children }: GeneratedFormProps) {
  const t = useSchemaTranslate();
  const validate = useMemo(() => createFormValidator(definition, mode, t), [definition, mode, t]);
  const fieldNames = useMemo(() => definition.fields.map((field) => field.name), [definition]);
  const [stale, setStale] = useState<StaleSave | undefined>(undefined);
  const stampField = mode === 'edit' ? definition.timestamps.update : undefined;
  const onStale = useCallback((values: Row, updateTime: number) => setStale({ values, updateTime }), []);
  const onSubmit = useSaveWithServerErrors(fieldNames, stampField ? onStale : undefined);
  const defaultValues = useMemo(() => (mode === 'add' ? defaultValuesOf(definition) : undefined), [definition, mode]);
  // Until the server pack is in, a check's message would show its key: the form waits for its words.
  const packIn = useServerPack(useLocale());
  if (!packIn) return <Loading />;
  return (
    // noValidate: the browser's own checks (required, type=email) would block the submit with its own
    // bubbles before the schema's translated messages could show.
    <SimpleForm sx={labelColumnSx} validate={validate} onSubmit={onSubmit} mode="onBlur" reValidateMode="onChange" defaultValues={defaultValues} resetOptions={KEEP_TYPED_VALUES} toolbar={<FormToolbar />} noValidate>
      {children ?? <GeneratedInputs definition={definition} mode={mode} overrides={overrides} />}
      {stampField && <StaleRecordDialog stale={stale} stampField={stampField} onClose={() => setStale(undefined)} onSubmit={onSubmit} />}
    </SimpleForm>
  );
}

/** What the add and edit pages take. */
export type GeneratedFormPageProps = Omit<GeneratedFormProps, 'mode'>;

/**
 * What the add and edit pages share: react-admin's page props (the saved notice; inside a form dialog
 * the page draws no chrome, the dialog has it) and the generated form, on a page of its own headed by
 * the schema's singular ("Add admin group") with a way back to the list.
 */
export function useGeneratedFormPage({ definition, overrides, children }: GeneratedFormPageProps, mode: 'add' | 'edit') {
  const inDialog = useFormFrame()?.inDialog === true;
  const title = useFormTitle(definition.title, mode);
  const onSuccess = useSavedNotice(definition, mode);
  const page = { mutationOptions: { onSuccess }, title: false, ...(inDialog ? ({ component: 'div', actions: false } as const) : {}) } as const;
  const form = (
    <GeneratedForm definition={definition} mode={mode} overrides={overrides}>
      {children}
    </GeneratedForm>
  );
  return { page, form: inDialog ? form : <FormPage title={title}>{form}</FormPage> };
}
