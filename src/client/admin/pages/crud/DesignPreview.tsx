import { useMemo } from 'react';
import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { AuthContext, ListContextProvider, ResourceContextProvider, SimpleForm, useAuthProvider, useList, useTranslate, type AuthProvider } from 'react-admin';
import { writableFields, type ResourceDefinition, type Row } from '../../../../schema/definition.js';
import { labelColumnSx } from '../../resources/form-layout.js';
import { createFormValidator } from '../../resources/form-validation.js';
import { defaultValuesOf } from '../../resources/GeneratedForm.js';
import { GeneratedInputs } from '../../resources/GeneratedInputs.js';
import { GeneratedTable } from '../../resources/GeneratedTable.js';
import { useSchemaTranslate } from '../../resources/schema-i18n.js';
import type { TextGap } from './crud-api.js';
import { MissingTexts } from './MissingTexts.js';

/**
 * The live preview: the list and the add form the module will have, drawn by the same components the
 * generated screens use, from the definition the server made of the design (nothing is stored). The list
 * shows two example rows; the form checks what is typed as the real one does.
 */

/** The resource name of the preview: no menu has it, so no row button of a real module shows. */
const PREVIEW_RESOURCE = 'crud-designer-preview';

/** An example value of a field, so each column shows how it renders. */
function exampleOf(definition: ResourceDefinition, name: string, index: number, title: string): unknown {
  const field = definition.fields.find((item) => item.name === name);
  if (!field) return null;
  if (name === definition.primaryKey) return index + 1;
  if (field.enum?.length) return field.enum[index % field.enum.length];
  if (field.wireType === 'array') return field.itemType === 'string' && field.ui.options ? Object.keys(field.ui.options).slice(0, index + 1) : [];
  if (field.ref) return null;
  if (field.format === 'money') return (index + 1) * 12.5;
  if (field.format === 'date') return `2026-0${index + 1}-15`;
  if (field.format === 'color') return index ? '#409eff' : '#67c23a';
  if (field.ui.widget === 'datetime' || field.ui.render === 'datetime') return 1_780_000_000 + index * 86_400;
  if (field.ui.widget === 'image' || field.ui.widget === 'file' || field.ui.widget === 'city') return '';
  if (field.ui.widget === 'icon') return 'fa fa-star';
  if (field.wireType === 'integer' || field.wireType === 'number') return field.name === definition.list.weighField ? index : index + 1;
  if (field.wireType === 'boolean') return index === 0;
  return `${title} ${index + 1}`;
}

function ExampleList({ definition }: { definition: ResourceDefinition }) {
  const t = useSchemaTranslate();
  const rows = useMemo(
    () => [0, 1].map((index) => Object.fromEntries(definition.fields.map((field) => [field.name, exampleOf(definition, field.name, index, t(field.title))])) as Row & { id: number }),
    [definition, t],
  );
  const list = useList({ data: rows, perPage: 10 });
  // Example rows are not rows: no delete, sort-by-drag or bulk button is offered on them.
  const auth = useAuthProvider();
  const readOnly = useMemo<AuthProvider | undefined>(() => (auth ? { ...auth, canAccess: () => Promise.resolve(false) } : undefined), [auth]);
  return (
    <AuthContext.Provider value={readOnly}>
      <ListContextProvider value={list}>
        <Box sx={{ overflowX: 'auto' }}>
          <GeneratedTable definition={definition} editable={false} />
        </Box>
      </ListContextProvider>
    </AuthContext.Provider>
  );
}

function ExampleForm({ definition }: { definition: ResourceDefinition }) {
  const t = useSchemaTranslate();
  const validate = useMemo(() => createFormValidator(definition, 'add', t), [definition, t]);
  const defaults = useMemo(() => defaultValuesOf(definition), [definition]);
  if (writableFields(definition).filter((field) => field.ui.form !== false).length === 0) return null;
  return (
    <SimpleForm sx={labelColumnSx} validate={validate} mode="onBlur" reValidateMode="onChange" defaultValues={defaults} toolbar={false} onSubmit={() => undefined} noValidate>
      <GeneratedInputs definition={definition} mode="add" />
    </SimpleForm>
  );
}

interface DesignPreviewProps {
  definition?: ResourceDefinition;
  /** the design's texts with nothing in a language */
  textGaps?: readonly TextGap[];
  /** the server's refusal of the design as it stands */
  problem?: string;
  loading: boolean;
}

export function DesignPreview({ definition, textGaps = [], problem, loading }: DesignPreviewProps) {
  const translate = useTranslate();
  return (
    <Stack spacing={2} component="section" aria-label={translate('crud.preview.title')} aria-busy={loading}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {translate('crud.preview.title')}
        </Typography>
        {loading && <CircularProgress size={16} aria-label={translate('crud.preview.updating')} />}
      </Stack>
      {problem && (
        <Alert severity="warning" role="status">
          {problem}
        </Alert>
      )}
      {definition && <MissingTexts gaps={textGaps} />}
      {definition && (
        // A key per definition: the form starts again from the new defaults when the design changes.
        <ResourceContextProvider value={PREVIEW_RESOURCE}>
          <Typography variant="body2" color="text.secondary" component="h3">
            {translate('crud.preview.list')}
          </Typography>
          <ExampleList definition={definition} />
          <Typography variant="body2" color="text.secondary" component="h3">
            {translate('crud.preview.form')}
          </Typography>
          <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }} data-testid="crud-preview-form">
            <ExampleForm key={JSON.stringify(definition.fields.map((field) => [field.name, field.wireType, field.default]))} definition={definition} />
          </Box>
        </ResourceContextProvider>
      )}
    </Stack>
  );
}
