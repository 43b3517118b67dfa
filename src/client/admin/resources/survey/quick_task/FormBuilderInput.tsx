import AddIcon from '@mui/icons-material/Add';
import ArrowDownIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import {
  Alert, Box, Button, Checkbox, FormControlLabel, FormHelperText, FormLabel, IconButton, MenuItem, Paper, Stack, TextField,
  ToggleButton, ToggleButtonGroup, Tooltip, Typography,
} from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useInput, useLocale, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { isLanguage, type Language } from '../../../../../contract/headers.js';
import { FieldInput, taskDefinition } from '../../../../pages/survey/QuickTaskForm.js';
import { keepValue } from '../../../inputs/input-props.js';
import {
  BUILDER_TYPES, fieldsOfForm, formOfFields, newField, problemsOf, TEXT_FORMATS, type BuilderField, type BuilderOption, type BuilderProblem,
} from './form-model.js';

/** English texts of the builder, used when its message file has not loaded (and as the reference wording). */
const TYPE_NAMES: Record<(typeof BUILDER_TYPES)[number], string> = {
  string: 'One-line text', textarea: 'Paragraph', number: 'Whole number', float: 'Number with decimals', radio: 'Radio buttons',
  select: 'Drop-down list', switch: 'Yes / no switch', date: 'Date', image: 'Image upload',
};
const FORMAT_NAMES: Record<(typeof TEXT_FORMATS)[number], string> = { '': 'Any text', email: 'Email address', uri: 'Web address (URL)', mobile: 'Mobile number' };
const PROBLEM_TEXTS: Record<string, string> = {
  noFields: 'Add at least one field',
  tooMany: 'A form holds at most 30 fields',
  name: 'The name must start with a lower-case letter and hold only a-z, 0-9 and _',
  duplicate: 'Another field has this name',
  label: 'Give the field a label, in Chinese, English or both',
  options: 'Give at least two options',
  optionValues: 'Every option needs a value of its own',
  maxLength: 'Longest answer: a whole number from 1 to 20000',
  pattern: 'This is not a valid regular expression',
  patternUnsupported: 'A back-reference (\\1, \\k<name>) cannot be checked quickly: write the pattern without it',
  patternTooLarge: 'The pattern is too large to check: write counted repetitions smaller, or use the longest answer instead',
  range: 'The smallest value must be a number not above the largest',
};

const CHOICE_TYPES = new Set(['radio', 'select']);

function useBuilderText() {
  const translate = useTranslate();
  return (key: string, fallback: string, options: Record<string, unknown> = {}) => translate(`survey.formBuilder.${key}`, { _: fallback, ...options });
}

function OptionRows({ options, onChange, invalid }: { options: BuilderOption[]; onChange: (options: BuilderOption[]) => void; invalid: boolean }) {
  const tr = useBuilderText();
  const set = (index: number, change: Partial<BuilderOption>) => onChange(options.map((option, at) => (at === index ? { ...option, ...change } : option)));
  return (
    <Stack spacing={1}>
      <FormLabel error={invalid}>{tr('options', 'Options')}</FormLabel>
      {options.map((option, index) => (
        <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
          <TextField size="small" label={tr('optionValue', 'Value (stored)')} value={option.value} onChange={(event) => set(index, { value: event.target.value })} error={invalid && option.value.trim() === ''} />
          <TextField size="small" label={tr('labelZh', 'Label (Chinese)')} value={option.zh} onChange={(event) => set(index, { zh: event.target.value })} />
          <TextField size="small" label={tr('labelEn', 'Label (English)')} value={option.en} onChange={(event) => set(index, { en: event.target.value })} />
          <Tooltip title={tr('removeOption', 'Remove option')}>
            <IconButton aria-label={tr('removeOption', 'Remove option')} onClick={() => onChange(options.filter((_item, at) => at !== index))}>
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        </Stack>
      ))}
      <Box>
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...options, { value: '', zh: '', en: '' }])}>
          {tr('addOption', 'Add option')}
        </Button>
      </Box>
    </Stack>
  );
}

function FieldEditor({ field, index, count, problems, onChange, onMove, onRemove }: {
  field: BuilderField; index: number; count: number; problems: BuilderProblem[];
  onChange: (field: BuilderField) => void; onMove: (by: number) => void; onRemove: () => void;
}) {
  const tr = useBuilderText();
  const problem = (part: BuilderProblem['part']) => problems.find((item) => item.part === part);
  const message = (part: BuilderProblem['part']) => {
    const found = problem(part);
    return found ? tr(`problems.${found.key}`, PROBLEM_TEXTS[found.key]) : undefined;
  };
  const set = (change: Partial<BuilderField>) => onChange({ ...field, ...change });
  const heading = field.zh || field.en || field.name;
  return (
    <Paper variant="outlined" component="fieldset" sx={{ p: 2, m: 0 }} aria-label={tr('fieldNumber', 'Field %{number}', { number: index + 1 })}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {index + 1}. {heading}
        </Typography>
        <Tooltip title={tr('moveUp', 'Move up')}>
          <span>
            <IconButton aria-label={tr('moveUp', 'Move up')} disabled={index === 0} onClick={() => onMove(-1)} size="small"><ArrowUpIcon /></IconButton>
          </span>
        </Tooltip>
        <Tooltip title={tr('moveDown', 'Move down')}>
          <span>
            <IconButton aria-label={tr('moveDown', 'Move down')} disabled={index === count - 1} onClick={() => onMove(1)} size="small"><ArrowDownIcon /></IconButton>
          </span>
        </Tooltip>
        <Tooltip title={tr('removeField', 'Remove field')}>
          <IconButton aria-label={tr('removeField', 'Remove field')} onClick={onRemove} size="small"><DeleteIcon /></IconButton>
        </Tooltip>
      </Stack>
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            label={tr('type', 'Type')}
            value={field.type}
            onChange={(event) => {
              const type = event.target.value as BuilderField['type'];
              set({ type, options: CHOICE_TYPES.has(type) && field.options.length === 0 ? [{ value: '', zh: '', en: '' }, { value: '', zh: '', en: '' }] : field.options });
            }}
            sx={{ minWidth: 200 }}
          >
            {BUILDER_TYPES.map((type) => (
              <MenuItem key={type} value={type}>{tr(`types.${type}`, TYPE_NAMES[type])}</MenuItem>
            ))}
          </TextField>
          <TextField
            label={tr('name', 'Name (stored with the answer)')}
            value={field.name}
            onChange={(event) => set({ name: event.target.value })}
            error={Boolean(problem('name'))}
            helperText={message('name') ?? tr('nameHelp', 'Lower-case letters, digits and _, e.g. order_number')}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField label={tr('labelZh', 'Label (Chinese)')} value={field.zh} onChange={(event) => set({ zh: event.target.value })} error={Boolean(problem('label'))} helperText={message('label')} fullWidth />
          <TextField label={tr('labelEn', 'Label (English)')} value={field.en} onChange={(event) => set({ en: event.target.value })} error={Boolean(problem('label'))} fullWidth />
        </Stack>
        <FormControlLabel control={<Checkbox checked={field.required} onChange={(event) => set({ required: event.target.checked })} />} label={tr('required', 'Required')} />
        {CHOICE_TYPES.has(field.type) && (
          <Box>
            <OptionRows options={field.options} onChange={(options) => set({ options })} invalid={Boolean(problem('options'))} />
            {message('options') && <FormHelperText error>{message('options')}</FormHelperText>}
          </Box>
        )}
        {field.type === 'string' && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {/* 'any' stands for no format: a select shows an empty value as blank. */}
            <TextField select label={tr('format', 'Must be')} value={field.format || 'any'} onChange={(event) => set({ format: (event.target.value === 'any' ? '' : event.target.value) as BuilderField['format'] })} sx={{ minWidth: 200 }}>
              {TEXT_FORMATS.map((format) => (
                <MenuItem key={format || 'any'} value={format || 'any'}>{tr(`formats.${format || 'any'}`, FORMAT_NAMES[format])}</MenuItem>
              ))}
            </TextField>
            <TextField
              label={tr('pattern', 'Pattern (regular expression)')}
              value={field.pattern}
              onChange={(event) => set({ pattern: event.target.value })}
              error={Boolean(problem('pattern'))}
              helperText={message('pattern') ?? tr('patternHelp', 'Optional, e.g. ^[A-Z]{2}\\d{6}$ for two capitals and six digits')}
              fullWidth
            />
          </Stack>
        )}
        {(field.type === 'string' || field.type === 'textarea') && (
          <TextField
            label={tr('maxLength', 'Longest answer (characters)')}
            value={field.maxLength}
            onChange={(event) => set({ maxLength: event.target.value })}
            error={Boolean(problem('maxLength'))}
            helperText={message('maxLength') ?? tr('maxLengthHelp', 'Blank: %{count}', { count: field.type === 'string' ? 255 : 2000 })}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            sx={{ maxWidth: 280 }}
          />
        )}
        {(field.type === 'number' || field.type === 'float') && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField label={tr('minimum', 'Smallest value')} value={field.minimum} onChange={(event) => set({ minimum: event.target.value })} error={Boolean(problem('range'))} helperText={message('range')} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
            <TextField label={tr('maximum', 'Largest value')} value={field.maximum} onChange={(event) => set({ maximum: event.target.value })} error={Boolean(problem('range'))} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** The member's form as it will look, drawn by the member page's own widgets. */
function Preview({ form, language }: { form: Record<string, unknown>; language: Language }) {
  const tr = useBuilderText();
  const translate = useTranslate();
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const fields = useMemo(() => {
    try {
      return taskDefinition({ title: 'preview', form: form as never }).fields.filter((field) => field.name !== 'id');
    } catch {
      return undefined;
    }
  }, [form]);
  const required = new Set((form.required as string[] | undefined) ?? []);
  // A picked image shows from the admin's own disk: nothing is uploaded from the preview.
  const previewApi = { uploadImage: async (file: File) => URL.createObjectURL(file) };
  // The member page's own words (`survey.quickTask.*`) are not loaded in the back office: the builder's copies stand in.
  const memberWords: Record<string, [string, string]> = {
    'survey.quickTask.choose': ['choose', 'Choose…'],
    'survey.quickTask.uploading': ['uploading', 'Uploading…'],
    'survey.quickTask.pickImage': ['pickImage', 'Choose an image'],
  };
  const t = (key: string, options?: Record<string, unknown>) => {
    const stand = memberWords[key];
    return stand ? tr(stand[0], stand[1], options) : translate(key, { _: key, ...options });
  };
  if (!fields) return <Typography color="text.secondary">{tr('previewPending', 'The preview shows once the fields are complete.')}</Typography>;
  return (
    <Stack spacing={2.5} lang={language}>
      {fields.map((field) => (
        <FieldInput key={field.name} field={field} value={answers[field.name] ?? ''} onChange={(value) => setAnswers({ ...answers, [field.name]: value })} api={previewApi} t={t} language={language} required={required.has(field.name)} />
      ))}
    </Stack>
  );
}

interface FormBuilderInputProps {
  source: string;
  label: string;
  helperText?: string;
}

/**
 * The quick task's form, built field by field (type, label in both languages, required, options,
 * validation) beside a preview of what the member sees; stored as the JSON schema the server checks.
 * A form the builder cannot draw (hand-written JSON using other keywords) is edited as JSON.
 */
export function FormBuilderInput({ source, label, helperText }: FormBuilderInputProps) {
  const tr = useBuilderText();
  const locale = useLocale();
  const { field: input, fieldState } = useInput({ source, parse: keepValue, format: keepValue });
  const stored = typeof input.value === 'string' ? input.value : '';
  const [fields, setFields] = useState<BuilderField[] | undefined>(() => fieldsOfForm(stored));
  const [asJson, setAsJson] = useState(() => fields === undefined);
  const [previewLanguage, setPreviewLanguage] = useState<Language>(isLanguage(locale) ? locale : 'zh-cn');
  const problems = useMemo(() => (fields ? problemsOf(fields) : []), [fields]);
  // A new form is incomplete by nature: its problems show once the operator has changed it or tried to save.
  const [changed, setChanged] = useState(false);
  const { submitCount } = useFormState();
  const showProblems = changed || fieldState.isTouched || submitCount > 0;
  const shownProblems = showProblems ? problems : [];
  const form = useMemo(() => formOfFields(fields ?? []), [fields]);
  // What the builder itself last wrote: any other change of the value (the edited row arriving after the
  // form opened, a reset) is read into the builder.
  const written = useRef(stored);
  useEffect(() => {
    if (stored === written.current) return;
    written.current = stored;
    if (asJson) return;
    const parsed = fieldsOfForm(stored);
    if (parsed) setFields(parsed);
    else setAsJson(true);
  }, [stored, asJson]);

  const update = (next: BuilderField[]) => {
    setFields(next);
    setChanged(true);
    // While a field has a problem nothing valid can be stored: the empty value keeps Save from sending it.
    const value = problemsOf(next).length > 0 ? '' : JSON.stringify(formOfFields(next), null, 2);
    written.current = value;
    input.onChange(value);
  };
  const switchTo = (json: boolean) => {
    if (json) {
      setAsJson(true);
      return;
    }
    const parsed = fieldsOfForm(stored);
    if (parsed) {
      setFields(parsed);
      setAsJson(false);
    }
  };
  const canBuild = fieldsOfForm(stored) !== undefined;
  const formProblems = shownProblems.filter((problem) => problem.index < 0);
  const error = fieldState.error?.message;

  return (
    <Box sx={{ width: '100%', my: 1 }} data-widget="form-builder">
      <Stack direction="row" alignItems="center" spacing={2} sx={{ mb: 1, flexWrap: 'wrap' }}>
        <FormLabel component="legend" required>{label}</FormLabel>
        <ToggleButtonGroup size="small" exclusive value={asJson ? 'json' : 'builder'} onChange={(_event, value: string | null) => value && switchTo(value === 'json')} aria-label={label}>
          <ToggleButton value="builder" disabled={asJson && !canBuild}>{tr('builder', 'Fields')}</ToggleButton>
          <ToggleButton value="json">{tr('json', 'JSON')}</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      {helperText && <FormHelperText sx={{ mt: 0, mb: 1 }}>{helperText}</FormHelperText>}
      {asJson ? (
        <TextField
          value={stored}
          onChange={(event) => input.onChange(event.target.value)}
          multiline
          minRows={8}
          fullWidth
          error={Boolean(error)}
          helperText={canBuild ? tr('jsonHelp', 'The form as a JSON schema; switch to Fields to build it field by field.') : tr('jsonOnly', 'This form uses keywords the field builder does not draw, so it is edited as JSON.')}
          slotProps={{ htmlInput: { 'aria-label': label, style: { fontFamily: 'monospace' } } }}
        />
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 3fr) minmax(0, 2fr)' }, alignItems: 'start' }}>
          <Stack spacing={2}>
            {(fields ?? []).map((field, index) => (
              <FieldEditor
                key={index}
                field={field}
                index={index}
                count={fields?.length ?? 0}
                problems={shownProblems.filter((problem) => problem.index === index)}
                onChange={(changed) => update((fields ?? []).map((item, at) => (at === index ? changed : item)))}
                onMove={(by) => {
                  const next = [...(fields ?? [])];
                  [next[index], next[index + by]] = [next[index + by], next[index]];
                  update(next);
                }}
                onRemove={() => update((fields ?? []).filter((_item, at) => at !== index))}
              />
            ))}
            {formProblems.map((problem) => <Alert key={problem.key} severity="warning">{tr(`problems.${problem.key}`, PROBLEM_TEXTS[problem.key])}</Alert>)}
            <Box>
              <Button variant="outlined" startIcon={<AddIcon />} onClick={() => update([...(fields ?? []), newField((fields?.length ?? 0) + 1)])}>
                {tr('addField', 'Add field')}
              </Button>
            </Box>
          </Stack>
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={tr('preview', 'Preview of the member\'s form')}>
            <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1, gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="subtitle2" component="h3">{tr('preview', 'Preview of the member\'s form')}</Typography>
              <ToggleButtonGroup size="small" exclusive value={previewLanguage} onChange={(_event, value: Language | null) => value && setPreviewLanguage(value)} aria-label={tr('previewLanguage', 'Language of the preview')}>
                <ToggleButton value="zh-cn" lang="zh-cn">中文</ToggleButton>
                <ToggleButton value="en" lang="en">English</ToggleButton>
              </ToggleButtonGroup>
            </Stack>
            {problems.length > 0 ? (
              <Typography color="text.secondary">{tr('previewPending', 'The preview shows once the fields are complete.')}</Typography>
            ) : (
              <Preview form={form} language={previewLanguage} />
            )}
          </Paper>
        </Box>
      )}
      {shownProblems.length > 0 && !asJson ? (
        <FormHelperText error role="alert">{tr('fix', 'Fix the problems marked in the fields before saving (%{count})', { count: shownProblems.length })}</FormHelperText>
      ) : (
        error && <FormHelperText error>{error}</FormHelperText>
      )}
    </Box>
  );
}
