import { useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Alert, Box, Button, FormControl, FormControlLabel, FormHelperText, FormLabel, MenuItem, Radio, RadioGroup, Stack, Switch, TextField,
} from '@mui/material';
import AddPhotoAlternateOutlinedIcon from '@mui/icons-material/AddPhotoAlternateOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import type { Language } from '../../../contract/headers.js';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { normaliseResource } from '../../../schema/normalise.js';
import { createInputValidator } from '../../../schema/validate-input.js';
import { widgetOf } from '../../../schema/widget-of.js';
import { DateTextBox } from '../../components/DateTextBox.js';
import { loadServerPack, serverMessage } from '../../i18n/server-messages.js';
import type { Translate } from '../../i18n/translate.js';
import { fieldErrorsOf, messageOf } from '../../http/error-body.js';
import { type QuickTask, type SurveyApi } from './survey-api.js';

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

/** What a one-line text holds, by its format: the input type, and the keyboard a phone shows for it. */
function textKind(field: FieldDefinition): { type: 'email' | 'url' | 'tel' | 'text'; inputMode: 'email' | 'url' | 'tel' | 'text' } {
  switch (field.format) {
    case 'email':
      return { type: 'email', inputMode: 'email' };
    case 'uri':
      return { type: 'url', inputMode: 'url' };
    case 'mobile':
      return { type: 'tel', inputMode: 'tel' };
    default:
      return { type: 'text', inputMode: 'text' };
  }
}

function initialValue(field: FieldDefinition): unknown {
  if (field.default !== undefined) return field.default;
  return widgetOf(field) === 'switch' ? false : '';
}

/** Off-screen but focusable: the file input keeps the keyboard's focus while its button is what shows. */
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, margin: -1, padding: 0, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0 } as const;

interface FieldInputProps {
  field: FieldDefinition;
  value: unknown;
  onChange: (value: unknown) => void;
  api: Pick<SurveyApi, 'uploadImage'>;
  t: Translate;
  language: Language;
  required: boolean;
  /** why the answer was refused, shown under the field (which then reads as invalid) */
  error?: string;
}

/**
 * One field, drawn with the MUI control of the widget its schema declares (the member widgets: text,
 * long text, number, radio buttons, drop-down, switch, date, image); a one-line text takes the input
 * type and phone keyboard of its format. Under it: its refusal, else its help.
 */
export function FieldInput({ field, value, onChange, api, t, language, required, error }: FieldInputProps) {
  const title = field.title[language];
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | undefined>(undefined);
  const id = `quick-task-${field.name}`;
  const helperId = `${id}-helper-text`;
  const text = value === null || value === undefined ? '' : String(value);
  const helper = error ?? field.help?.[language];
  const invalid = error !== undefined;
  // What every text-like field shares; MUI ties the helper text to the input (aria-describedby) and marks it aria-invalid.
  const common = { id, required, fullWidth: true, error: invalid, helperText: helper } as const;
  const labelId = `${id}-label`;
  // The question sits above its box, wrapping: a floating label is one line, and a long question was cut short on a phone.
  const labelled = (control: ReactNode) => (
    <div>
      <FormLabel id={labelId} htmlFor={id} required={required} error={invalid} sx={{ display: 'block', mb: 1 }}>
        {title}
      </FormLabel>
      {control}
    </div>
  );
  const choice = (raw: string) => (field.wireType === 'integer' || field.wireType === 'number' ? Number(raw) : raw);
  const optionLabel = (option: string | number) => field.ui.options?.[String(option)]?.[language] ?? String(option);
  const helperText = (message: string | undefined) => message && <FormHelperText id={helperId}>{message}</FormHelperText>;
  const described = (message: string | undefined) => ({ 'aria-describedby': message ? helperId : undefined, 'aria-invalid': invalid || undefined });
  switch (widgetOf(field)) {
    case 'textarea':
      return labelled(<TextField {...common} multiline minRows={4} value={text} onChange={(event) => onChange(event.target.value)} slotProps={{ htmlInput: { maxLength: field.storage?.length } }} />);
    case 'number':
    case 'float': {
      const float = widgetOf(field) === 'float';
      return labelled(
        <TextField
          {...common}
          type="number"
          value={text}
          onChange={(event) => onChange(event.target.value === '' ? '' : Number(event.target.value))}
          slotProps={{ htmlInput: { step: float ? 'any' : 1, inputMode: float ? 'decimal' : 'numeric' } }}
        />
      );
    }
    case 'radio':
      return (
        <FormControl component="fieldset" id={id} error={invalid} required={required} fullWidth {...described(helper)}>
          <FormLabel component="legend">{title}</FormLabel>
          <RadioGroup row name={id} value={text} onChange={(event) => onChange(choice(event.target.value))}>
            {(field.enum ?? []).map((option) => (
              <FormControlLabel key={String(option)} value={String(option)} control={<Radio />} label={optionLabel(option)} />
            ))}
          </RadioGroup>
          {helperText(helper)}
        </FormControl>
      );
    case 'select':
      return labelled(
        <TextField
          {...common}
          select
          value={text}
          onChange={(event) => onChange(event.target.value === '' ? '' : choice(event.target.value))}
          slotProps={{ select: { displayEmpty: true, labelId } }}
        >
          <MenuItem value="">{t('survey.quickTask.choose')}</MenuItem>
          {(field.enum ?? []).map((option) => (
            <MenuItem key={String(option)} value={String(option)}>
              {optionLabel(option)}
            </MenuItem>
          ))}
        </TextField>
      );
    case 'switch':
      return (
        <FormControl error={invalid} fullWidth>
          <FormControlLabel
            required={required}
            label={title}
            control={
              <Switch
                id={id}
                checked={value === true}
                onChange={(event) => onChange(event.target.checked)}
                // MUI stretches the transparent input to three thumbs' width, past the card's left edge on a phone;
                // the label around the switch already takes a click anywhere on it.
                slotProps={{ input: { ...described(helper), style: { left: 0, width: '100%' } } }}
              />
            }
          />
          {helperText(helper)}
        </FormControl>
      );
    case 'date':
      return labelled(<DateTextBox {...common} kind="date" value={text} onChange={onChange} t={t} />);
    case 'image': {
      const message = uploadError ?? helper;
      return (
        <FormControl error={invalid || uploadError !== undefined} required={required} fullWidth>
          <FormLabel htmlFor={id}>{title}</FormLabel>
          <Box sx={{ mt: 1 }}>
            {/* The MUI button is the visible control; the file input inside it is what the keyboard and a screen reader reach. */}
            <Button
              component="label"
              variant="outlined"
              tabIndex={-1}
              // a label, not a second button: MUI would name it one, around the input a person actually reaches
              role={undefined}
              disabled={uploading}
              startIcon={<AddPhotoAlternateOutlinedIcon />}
              sx={{ '&:has(input:focus-visible)': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 } }}
            >
              {uploading ? t('survey.quickTask.uploading') : t('survey.quickTask.pickImage')}
              <Box
                component="input"
                id={id}
                type="file"
                accept="image/*"
                disabled={uploading}
                aria-required={required || undefined}
                {...described(message)}
                sx={VISUALLY_HIDDEN}
                onChange={async (event: React.ChangeEvent<HTMLInputElement>) => {
                  const input = event.target;
                  const file = input.files?.[0];
                  // the same file may be chosen again after its image was removed
                  input.value = '';
                  if (!file) return;
                  setUploading(true);
                  setUploadError(undefined);
                  try {
                    onChange(await api.uploadImage(file));
                  } catch (failure) {
                    setUploadError(messageOf(failure));
                  } finally {
                    setUploading(false);
                  }
                }}
              />
            </Button>
          </Box>
          {text && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 1, mt: 1 }}>
              <Box component="img" src={text} alt={title} sx={{ display: 'block', maxWidth: '100%', width: 240, maxHeight: 160, objectFit: 'contain', objectPosition: 'left', borderRadius: 1 }} />
              {/* Taken back before submitting: the answer is empty again (a required one is then refused as unanswered). */}
              <Button
                size="small"
                color="error"
                startIcon={<DeleteOutlineIcon />}
                disabled={uploading}
                aria-label={t('survey.quickTask.removeImageOf', { name: title })}
                onClick={() => {
                  setUploadError(undefined);
                  onChange('');
                  document.getElementById(id)?.focus();
                }}
              >
                {t('survey.quickTask.removeImage')}
              </Button>
            </Box>
          )}
          {helperText(message)}
        </FormControl>
      );
    }
    default: {
      const { type, inputMode } = textKind(field);
      return labelled(<TextField {...common} type={type} value={text} onChange={(event) => onChange(event.target.value)} slotProps={{ htmlInput: { inputMode, maxLength: field.storage?.length } }} />);
    }
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
  const summary = useRef<HTMLDivElement>(null);

  const showErrors = (found: FieldErrors, message?: string) => {
    setFieldErrors(found);
    setFormError(message);
    // The summary takes the focus, so a screen reader hears how many answers need fixing.
    requestAnimationFrame(() => summary.current?.focus());
  };

  const submit = async () => {
    const checked = validate(answers, 'add');
    if (!checked.ok) {
      // The messages are the server pack's, fetched the first time an answer is refused.
      await loadServerPack(language);
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
    <Stack
      component="form"
      spacing={2.5}
      noValidate
      sx={{ mt: 2 }}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {(errorCount > 0 || formError) && (
        <Alert ref={summary} tabIndex={-1} severity="error">
          {formError ?? t('survey.quickTask.fix', { count: errorCount })}
        </Alert>
      )}
      {fields.map((field) => (
        <FieldInput
          key={field.name}
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
          error={fieldErrors[field.name]}
        />
      ))}
      <Box>
        <Button type="submit" variant="contained" size="large" disabled={busy} sx={{ width: { xs: '100%', sm: 'auto' } }}>
          {t('survey.quickTask.submit')}
        </Button>
      </Box>
    </Stack>
  );
}
