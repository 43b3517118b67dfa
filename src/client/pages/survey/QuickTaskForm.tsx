import { useMemo, useState } from 'react';
import type { Language } from '../../../contract/headers.js';
import type { FieldDefinition } from '../../../schema/definition.js';
import { normaliseResource } from '../../../schema/normalise.js';
import { widgetOf } from '../../../schema/widget-of.js';
import type { Translate } from '../../i18n/translate.js';
import { fieldOf, messageOf, type QuickTask, type SurveyApi } from './survey-api.js';

type Answers = Record<string, unknown>;

/** The task's form as field definitions, normalised exactly as the server checks it. */
export function taskFields(task: Pick<QuickTask, 'title' | 'form'>): FieldDefinition[] {
  const definition = normaliseResource('form', {
    $id: 'survey/quick_task_form', title: task.title, type: 'object', 'x-table': 'quick_task_form', 'x-timestamps': false,
    required: task.form.required ?? [],
    properties: { id: { type: 'integer', readOnly: true }, ...task.form.properties } as never,
  });
  return definition.fields.filter((field) => field.name !== 'id');
}

function initialValue(field: FieldDefinition): unknown {
  if (field.default !== undefined) return field.default;
  return widgetOf(field) === 'switch' ? false : '';
}

/** One field, drawn with the widget its schema implies (the member widgets: text, number, choice, switch, date, image). */
function FieldInput({ field, value, onChange, api, t, language, required }: { field: FieldDefinition; value: unknown; onChange: (value: unknown) => void; api: SurveyApi; t: Translate; language: Language; required: boolean }) {
  const title = field.title[language];
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | undefined>(undefined);
  const id = `quick-task-${field.name}`;
  const text = value === null || value === undefined ? '' : String(value);
  const label = (
    <label htmlFor={id}>
      {title}
      {required && <span aria-hidden="true"> *</span>}
    </label>
  );
  switch (widgetOf(field)) {
    case 'textarea':
      return <>{label}<textarea id={id} value={text} maxLength={field.storage?.length} onChange={(event) => onChange(event.target.value)} rows={4} /></>;
    case 'number':
    case 'float':
      return <>{label}<input id={id} type="number" step={widgetOf(field) === 'float' ? 'any' : 1} value={text} onChange={(event) => onChange(event.target.value === '' ? '' : Number(event.target.value))} /></>;
    case 'radio':
    case 'select':
      return (
        <>
          {label}
          <select id={id} value={text} onChange={(event) => onChange(field.wireType === 'integer' ? Number(event.target.value) : event.target.value)}>
            <option value="">{t('survey.quickTask.choose')}</option>
            {(field.enum ?? []).map((option) => (
              <option key={String(option)} value={String(option)}>
                {field.ui.options?.[String(option)]?.[language] ?? String(option)}
              </option>
            ))}
          </select>
        </>
      );
    case 'switch':
      return (
        <label htmlFor={id} className="ba-survey__check">
          <input id={id} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} /> {title}
        </label>
      );
    case 'date':
      return <>{label}<input id={id} type="date" value={text} onChange={(event) => onChange(event.target.value)} /></>;
    case 'image':
      return (
        <>
          {label}
          <input
            id={id}
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
      return <>{label}<input id={id} type="text" value={text} maxLength={field.storage?.length} onChange={(event) => onChange(event.target.value)} /></>;
  }
}

/** A quick task's form: the server checks the answers and its refusal shows on the field it names. */
export function QuickTaskForm({ task, api, t, language, onSubmitted }: { task: QuickTask; api: SurveyApi; t: Translate; language: Language; onSubmitted: (message: string) => void }) {
  const fields = useMemo(() => taskFields(task), [task]);
  const required = new Set(task.form.required ?? []);
  const [answers, setAnswers] = useState<Answers>(() => Object.fromEntries(fields.map((field) => [field.name, initialValue(field)])));
  const [error, setError] = useState<{ field?: string; message: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await api.submitQuickTask(task.id, answers);
      onSubmitted(result.message);
    } catch (failure) {
      setError({ field: fieldOf(failure), message: messageOf(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="ba-survey__form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {fields.map((field) => (
        <div key={field.name} className="ba-survey__field">
          <FieldInput field={field} value={answers[field.name]} onChange={(value) => setAnswers({ ...answers, [field.name]: value })} api={api} t={t} language={language} required={required.has(field.name)} />
          {error?.field === field.name && <span className="ba-survey__error" role="alert">{error.message}</span>}
        </div>
      ))}
      {error && !fields.some((field) => field.name === error.field) && <p className="ba-survey__error" role="alert">{error.message}</p>}
      <div className="ba-survey__actions">
        <button type="submit" className="is-primary" disabled={busy}>{t('survey.quickTask.submit')}</button>
      </div>
    </form>
  );
}
