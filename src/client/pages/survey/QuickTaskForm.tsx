import { useMemo, useRef, useState } from 'react';
import type { Language } from '../../../contract/headers.js';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { normaliseResource } from '../../../schema/normalise.js';
import { createInputValidator } from '../../../schema/validate-input.js';
import { widgetOf } from '../../../schema/widget-of.js';
import { serverMessage } from '../../i18n/server-messages.js';
import type { Translate } from '../../i18n/translate.js';
import { fieldErrorsOf, messageOf, type QuickTask, type SurveyApi } from './survey-api.js';

type Answers = Record<string, unknown>;
type FieldErrors = Record<string, string>;

/** The task's form as a resource definition, normalised exactly as the server checks it. */
export function taskDefinition(task: Pick<QuickTask, 'title' | 'form'>): ResourceDefinition {
  return normaliseResource('form', {
    $id: 'survey/quick_task_form', title: task.title, type: 'object', 'x-table': 'quick_task_form', 'x-timestamps': false,
    required: task.form.required ?? [],
    properties: { id: { type: 'integer', readOnly: true }, ...task.form.properties } as never,
  });
}

/** The member-facing fields of a task's form (its `id` is ours). */
export function taskFields(task: Pick<QuickTask, 'title' | 'form'>): FieldDefinition[] {
  return taskDefinition(task).fields.filter((field) => field.name !== 'id');
}

/** The input type of a one-line text: what its format says it holds (phones show the matching keyboard). */
function textInputType(field: FieldDefinition): 'email' | 'url' | 'tel' | 'text' {
  switch (field.format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'mobile':
      return 'tel';
    default:
      return 'text';
  }
}

function initialValue(field: FieldDefinition): unknown {
  if (field.default !== undefined) return field.default;
  return widgetOf(field) === 'switch' ? false : '';
}

export interface FieldInputProps {
  field: FieldDefinition;
  value: unknown;
  onChange: (value: unknown) => void;
  api: Pick<SurveyApi, 'uploadImage'>;
  t: Translate;
  language: Language;
  required: boolean;
  /** the id of the message under the input, when it has one */
  errorId?: string;
}

/**
 * One field, drawn with the widget its schema declares (the member widgets: text, long text, number,
 * radio buttons, drop-down, switch, date, image); a one-line text takes the input type of its format.
 */
export function FieldInput({ field, value, onChange, api, t, language, required, errorId }: FieldInputProps) {
  const title = field.title[language];
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | undefined>(undefined);
  const id = `quick-task-${field.name}`;
  const text = value === null || value === undefined ? '' : String(value);
  const invalid = { 'aria-invalid': errorId ? true : undefined, 'aria-describedby': errorId, 'aria-required': required || undefined } as const;
  const mark = required && <span aria-hidden="true"> *</span>;
  const label = (
    <label htmlFor={id}>
      {title}
      {mark}
    </label>
  );
  const choice = (raw: string) => (field.wireType === 'integer' || field.wireType === 'number' ? Number(raw) : raw);
  const optionLabel = (option: string | number) => field.ui.options?.[String(option)]?.[language] ?? String(option);
  switch (widgetOf(field)) {
    case 'textarea':
      return <>{label}<textarea id={id} {...invalid} value={text} maxLength={field.storage?.length} onChange={(event) => onChange(event.target.value)} rows={4} /></>;
    case 'number':
    case 'float':
      return <>{label}<input id={id} {...invalid} type="number" step={widgetOf(field) === 'float' ? 'any' : 1} value={text} onChange={(event) => onChange(event.target.value === '' ? '' : Number(event.target.value))} /></>;
    case 'radio':
      return (
        <fieldset id={id} className="ba-survey__radios" aria-describedby={errorId} aria-invalid={errorId ? true : undefined}>
          <legend>
            {title}
            {mark}
          </legend>
          {(field.enum ?? []).map((option) => (
            <label key={String(option)} className="ba-survey__check">
              <input type="radio" name={id} value={String(option)} checked={text === String(option)} onChange={(event) => onChange(choice(event.target.value))} />
              {optionLabel(option)}
            </label>
          ))}
        </fieldset>
      );
    case 'select':
      return (
        <>
          {label}
          <select id={id} {...invalid} value={text} onChange={(event) => onChange(event.target.value === '' ? '' : choice(event.target.value))}>
            <option value="">{t('survey.quickTask.choose')}</option>
            {(field.enum ?? []).map((option) => (
              <option key={String(option)} value={String(option)}>
                {optionLabel(option)}
              </option>
            ))}
          </select>
        </>
      );
    case 'switch':
      return (
        <label htmlFor={id} className="ba-survey__check">
          <input id={id} {...invalid} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} /> {title}
        </label>
      );
    case 'date':
      return <>{label}<input id={id} {...invalid} type="date" value={text} onChange={(event) => onChange(event.target.value)} /></>;
    case 'image':
      return (
        <>
          {label}
          <input
            id={id}
            {...invalid}
            type="file"
            accept="image/*"
            disabled={uploading}
            onChange={async (event) => {
              const file = event.target.files?.[0];
              if (!file) return;
              setUploading(true);
              setUploadError(undefined);
              try {
                onChange(await api.uploadImage(file));
              } catch (error) {
                setUploadError(messageOf(error));
              } finally {
                setUploading(false);
              }
            }}
          />
          {uploading && <span className="ba-survey__muted">{t('survey.quickTask.uploading')}</span>}
          {uploadError && <span className="ba-survey__error">{uploadError}</span>}
          {text && <img className="ba-survey__preview" src={text} alt={title} />}
        </>
      );
    default:
      return <>{label}<input id={id} {...invalid} type={textInputType(field)} value={text} maxLength={field.storage?.length} onChange={(event) => onChange(event.target.value)} /></>;
  }
}

/**
 * A quick task's form: the answers are checked in the browser by the validator the server runs, and
 * every problem shows at once under its field; the server's refusal, also of every field, shows the same.
 */
export function QuickTaskForm({ task, api, t, language, onSubmitted }: { task: QuickTask; api: SurveyApi; t: Translate; language: Language; onSubmitted: (message: string) => void }) {
  const definition = useMemo(() => taskDefinition(task), [task]);
  const fields = useMemo(() => definition.fields.filter((field) => field.name !== 'id'), [definition]);
  const validate = useMemo(() => createInputValidator(definition), [definition]);
  const required = new Set(task.form.required ?? []);
  const [answers, setAnswers] = useState<Answers>(() => Object.fromEntries(fields.map((field) => [field.name, initialValue(field)])));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const summary = useRef<HTMLParagraphElement>(null);

  const showErrors = (found: FieldErrors, message?: string) => {
    setFieldErrors(found);
    setFormError(message);
    // The summary takes the focus, so a screen reader hears how many answers need fixing.
    requestAnimationFrame(() => summary.current?.focus());
  };

  const submit = async () => {
    const checked = validate(answers, 'add');
    if (!checked.ok) {
      const found: FieldErrors = {};
      for (const issue of checked.issues) found[issue.field] ??= serverMessage(language, issue.message, issue.params);
      showErrors(found);
      return;
    }
    setBusy(true);
    setFieldErrors({});
    setFormError(undefined);
    try {
      const result = await api.submitQuickTask(task.id, answers);
      onSubmitted(result.message);
    } catch (failure) {
      const found = fieldErrorsOf(failure);
      const onFields = Object.fromEntries(Object.entries(found).filter(([name]) => fields.some((field) => field.name === name)));
      showErrors(onFields, Object.keys(onFields).length === 0 ? messageOf(failure) : undefined);
    } finally {
      setBusy(false);
    }
  };

  const errorCount = Object.keys(fieldErrors).length;
  return (
    <form
      className="ba-survey__form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {(errorCount > 0 || formError) && (
        <p ref={summary} tabIndex={-1} className="ba-survey__error" role="alert">
          {formError ?? t('survey.quickTask.fix', { count: errorCount })}
        </p>
      )}
      {fields.map((field) => {
        const errorId = fieldErrors[field.name] ? `quick-task-${field.name}-error` : undefined;
        return (
          <div key={field.name} className="ba-survey__field">
            <FieldInput
              field={field}
              value={answers[field.name]}
              onChange={(value) => {
                setAnswers({ ...answers, [field.name]: value });
                if (fieldErrors[field.name]) setFieldErrors(Object.fromEntries(Object.entries(fieldErrors).filter(([name]) => name !== field.name)));
              }}
              api={api}
              t={t}
              language={language}
              required={required.has(field.name)}
              errorId={errorId}
            />
            {field.help && <span className="ba-survey__muted">{field.help[language]}</span>}
            {errorId && <span id={errorId} className="ba-survey__error">{fieldErrors[field.name]}</span>}
          </div>
        );
      })}
      <div className="ba-survey__actions">
        <button type="submit" className="is-primary" disabled={busy}>{t('survey.quickTask.submit')}</button>
      </div>
    </form>
  );
}
