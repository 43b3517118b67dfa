import { Box, Typography } from '@mui/material';
import { Fragment, useMemo, type ReactNode } from 'react';
import { RecordContextProvider, useRecordContext, useTranslate } from 'react-admin';
import type { FieldDefinition, ResourceDefinition } from '../../../../../schema/definition.js';
import { normaliseResource } from '../../../../../schema/normalise.js';
import { widgetOf } from '../../../../../schema/widget-of.js';
import { taskFields } from '../../../../pages/survey/QuickTaskForm.js';
import type { QuickTask } from '../../../../pages/survey/survey-api.js';
import { ImageField } from '../../../fields/ImageField.js';
import { ValueChip } from '../../../fields/TagField.js';
import { textOf } from '../../../fields/TextValueField.js';
import { useSchemaTranslate } from '../../schema-i18n.js';

type Answers = Record<string, unknown>;

/** The fields of the task's form as the member saw them, or none when the stored form cannot be read. */
function formFieldsOf(form: unknown): FieldDefinition[] {
  try {
    const parsed = (typeof form === 'string' ? JSON.parse(form) : form) as QuickTask['form'];
    return parsed && typeof parsed === 'object' && parsed.properties ? taskFields({ title: '', form: parsed }) : [];
  } catch {
    return [];
  }
}

/** The resource the answer renderers read their field from: the task's form, as the member's page builds it. */
function formDefinition(fields: FieldDefinition[]): ResourceDefinition {
  const definition = normaliseResource('form', { $id: 'survey/quick_task_form', title: '', type: 'object', 'x-table': 'quick_task_form', 'x-timestamps': false, properties: { id: { type: 'integer', readOnly: true } } });
  return { ...definition, fields };
}

/**
 * One answer drawn by its field's widget: an image as a thumbnail, a choice or a yes/no as its labelled chip, text
 * whole; a field left unanswered as the muted "Not set" the generated details show.
 */
function AnswerValue({ field, value, definition }: { field: FieldDefinition; value: unknown; definition: ResourceDefinition }): ReactNode {
  const translate = useTranslate();
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        {translate('generated.notSet')}
      </Typography>
    );
  }
  switch (widgetOf(field)) {
    case 'image':
      return <ImageField field={field} definition={definition} />;
    case 'radio':
    case 'select':
    case 'switch':
      return <ValueChip field={field} value={value} />;
    default:
      return (
        <Typography component="span" variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {textOf(value)}
        </Typography>
      );
  }
}

/**
 * A submission's answers under the labels of the task's form fields (the task comes with each list row):
 * what the reviewer approves or rejects. An answer to a field the form no longer has keeps its key.
 */
export function AnswersField() {
  const record = useRecordContext();
  const translate = useTranslate();
  const t = useSchemaTranslate();
  const task = record?.task as { form?: unknown } | null | undefined;
  const fields = useMemo(() => formFieldsOf(task?.form), [task?.form]);
  const definition = useMemo(() => formDefinition(fields), [fields]);
  const answers = (record?.answers && typeof record.answers === 'object' ? record.answers : {}) as Answers;
  const known = new Set(fields.map((field) => field.name));
  const rows: [string, ReactNode][] = [
    ...fields.map((field): [string, ReactNode] => [t(field.title), <AnswerValue field={field} value={answers[field.name]} definition={definition} />]),
    ...Object.entries(answers)
      .filter(([name]) => !known.has(name))
      .map(([name, value]): [string, ReactNode] => [name, <span title={translate('survey.answers.other')}>{textOf(value)}</span>]),
  ];
  if (rows.length === 0) return <Typography variant="body2">{translate('survey.answers.none')}</Typography>;
  return (
    <RecordContextProvider value={answers}>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(6rem, max-content) 1fr', columnGap: 1.5, rowGap: 0.75, alignItems: 'center' }}>
        {rows.map(([label, value], index) => (
          <Fragment key={`${label}-${index}`}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Box component="dd" sx={{ m: 0 }}>
              {value}
            </Box>
          </Fragment>
        ))}
      </Box>
    </RecordContextProvider>
  );
}
