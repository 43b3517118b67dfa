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
import { isOneOf } from '../../../../../contract/checks.js';
import { isLanguage, type Language } from '../../../../../contract/headers.js';
import { FieldInput, taskDefinition } from '../../../../pages/survey/QuickTaskForm.js';
import { usePrefixedTranslate } from '../../../../i18n/prefixed-translate.js';
import { keepValue } from '../../../inputs/input-props.js';
import {
  BUILDER_TYPES, fieldsOfForm, formOfFields, newField, problemsOf, TEXT_FORMATS, type BuilderField, type BuilderOption, type BuilderProblem,
} from './form-model.js';

const CHOICE_TYPES = new Set(['radio', 'select']);

function OptionRows({ options, onChange, invalid }: { options: BuilderOption[]; onChange: (options: BuilderOption[]) => void; invalid: boolean }) {
  const tr = usePrefixedTranslate('survey.formBuilder');
  const set = (index: number, change: Partial<BuilderOption>) => onChange(options.map((option, at) => (at === index ? { ...option, ...change } : option)));
  return (
    <Stack spacing={1}>
      <FormLabel error={invalid}>{tr('options')}</FormLabel>
      {options.map((option, index) => (
        <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
          <TextField size="small" label={tr('optionValue')} value={option.value} onChange={(event) => set(index, { value: event.target.value })} error={invalid && option.value.trim() === ''} />
          <TextField size="small" label={tr('labelZh')} value={option.zh} onChange={(event) => set(index, { zh: event.target.value })} />
          <TextField size="small" label={tr('labelEn')} value={option.en} onChange={(event) => set(index, { en: event.target.value })} />
          <Tooltip title={tr('removeOption')}>
            <IconButton aria-label={tr('removeOption')} onClick={() => onChange(options.filter((_item, at) => at !== index))}>
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        </Stack>
      ))}
      <Box>
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...options, { value: '', zh: '', en: '' }])}>
          {tr('addOption')}
        </Button>
      </Box>
    </Stack>
  );
}

function FieldEditor({ field, index, count, problems, onChange, onMove, onRemove }: {
  field: BuilderField; index: number; count: number; problems: BuilderProblem[];
  onChange: (field: BuilderField) => void; onMove: (by: number) => void; onRemove: () => void;
}) {
  const tr = usePrefixedTranslate('survey.formBuilder');
  const problem = (part: BuilderProblem['part']) => problems.find((item) => item.part === part);
  const message = (part: BuilderProblem['part']) => {
    const found = problem(part);
    return found ? tr(`problems.${found.key}`) : undefined;
  };
  const set = (change: Partial<BuilderField>) => onChange({ ...field, ...change });
  const heading = field.zh || field.en || field.name;
  return (
    <Paper variant="outlined" component="fieldset" sx={{ p: 2, m: 0 }} aria-label={tr('fieldNumber', { number: index + 1 })}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {index + 1}. {heading}
        </Typography>
        <Tooltip title={tr('moveUp')}>
          <span>
            <IconButton aria-label={tr('moveUp')} disabled={index === 0} onClick={() => onMove(-1)} size="small"><ArrowUpIcon /></IconButton>
          </span>
        </Tooltip>
        <Tooltip title={tr('moveDown')}>
          <span>
            <IconButton aria-label={tr('moveDown')} disabled={index === count - 1} onClick={() => onMove(1)} size="small"><ArrowDownIcon /></IconButton>
          </span>
        </Tooltip>
        <Tooltip title={tr('removeField')}>
          <IconButton aria-label={tr('removeField')} onClick={onRemove} size="small"><DeleteIcon /></IconButton>
        </Tooltip>
      </Stack>
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            label={tr('type')}
            value={field.type}
            onChange={(event) => {
              const type = event.target.value;
              if (!isOneOf(BUILDER_TYPES, type)) return;
              set({ type, options: CHOICE_TYPES.has(type) && field.options.length === 0 ? [{ value: '', zh: '', en: '' }, { value: '', zh: '', en: '' }] : field.options });
            }}
            sx={{ minWidth: 200 }}
          >
            {BUILDER_TYPES.map((type) => (
              <MenuItem key={type} value={type}>{tr(`types.${type}`)}</MenuItem>
            ))}
          </TextField>
          <TextField
            label={tr('name')}
            value={field.name}
            onChange={(event) => set({ name: event.target.value })}
            error={Boolean(problem('name'))}
            helperText={message('name') ?? tr('nameHelp')}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField label={tr('labelZh')} value={field.zh} onChange={(event) => set({ zh: event.target.value })} error={Boolean(problem('label'))} helperText={message('label')} fullWidth />
          <TextField label={tr('labelEn')} value={field.en} onChange={(event) => set({ en: event.target.value })} error={Boolean(problem('label'))} fullWidth />
        </Stack>
        <FormControlLabel control={<Checkbox checked={field.required} onChange={(event) => set({ required: event.target.checked })} />} label={tr('required')} />
        {CHOICE_TYPES.has(field.type) && (
          <Box>
            <OptionRows options={field.options} onChange={(options) => set({ options })} invalid={Boolean(problem('options'))} />
            {message('options') && <FormHelperText error>{message('options')}</FormHelperText>}
          </Box>
        )}
        {field.type === 'string' && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {/* 'any' stands for no format: a select shows an empty value as blank. */}
            <TextField select label={tr('format')} value={field.format || 'any'} onChange={(event) => { const format = event.target.value === 'any' ? '' : event.target.value; if (isOneOf(TEXT_FORMATS, format)) set({ format }); }} sx={{ minWidth: 200 }}>
              {TEXT_FORMATS.map((format) => (
                <MenuItem key={format || 'any'} value={format || 'any'}>{tr(`formats.${format || 'any'}`)}</MenuItem>
              ))}
            </TextField>
            <TextField
              label={tr('pattern')}
              value={field.pattern}
              onChange={(event) => set({ pattern: event.target.value })}
              error={Boolean(problem('pattern'))}
              helperText={message('pattern') ?? tr('patternHelp')}
              fullWidth
            />
          </Stack>
        )}
        {(field.type === 'string' || field.type === 'textarea') && (
          <TextField
            label={tr('maxLength')}
            value={field.maxLength}
            onChange={(event) => set({ maxLength: event.target.value })}
            error={Boolean(problem('maxLength'))}
            helperText={message('maxLength') ?? tr('maxLengthHelp', { count: field.type === 'string' ? 255 : 2000 })}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            sx={{ maxWidth: 280 }}
          />
        )}
        {(field.type === 'number' || field.type === 'float') && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField label={tr('minimum')} value={field.minimum} onChange={(event) => set({ minimum: event.target.value })} error={Boolean(problem('range'))} helperText={message('range')} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
            <TextField label={tr('maximum')} value={field.maximum} onChange={(event) => set({ maximum: event.target.value })} error={Boolean(problem('range'))} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** The member's form as it will look, drawn by the member page's own widgets. */
function Preview({ form, language }: { form: Record<string, unknown>; language: Language }) {
  const tr = usePrefixedTranslate('survey.formBuilder');
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
  const memberWords: Record<string, string> = {
    'survey.quickTask.choose': 'choose',
    'survey.quickTask.uploading': 'uploading',
    'survey.quickTask.pickImage': 'pickImage',
  };
  const t = (key: string, options?: Record<string, unknown>) => {
    const stand = memberWords[key];
    return stand ? tr(stand, options) : translate(key, { _: key, ...options });
  };
  if (!fields) return <Typography color="text.secondary">{tr('previewPending')}</Typography>;
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
  const tr = usePrefixedTranslate('survey.formBuilder');
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
          <ToggleButton value="builder" disabled={asJson && !canBuild}>{tr('builder')}</ToggleButton>
          <ToggleButton value="json">{tr('json')}</ToggleButton>
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
          helperText={canBuild ? tr('jsonHelp') : tr('jsonOnly')}
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
            {formProblems.map((problem) => <Alert key={problem.key} severity="warning">{tr(`problems.${problem.key}`)}</Alert>)}
            <Box>
              <Button variant="outlined" startIcon={<AddIcon />} onClick={() => update([...(fields ?? []), newField((fields?.length ?? 0) + 1)])}>
                {tr('addField')}
              </Button>
            </Box>
          </Stack>
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={tr('preview')}>
            <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1, gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="subtitle2" component="h3">{tr('preview')}</Typography>
              <ToggleButtonGroup size="small" exclusive value={previewLanguage} onChange={(_event, value: Language | null) => value && setPreviewLanguage(value)} aria-label={tr('previewLanguage')}>
                <ToggleButton value="zh-cn" lang="zh-cn">中文</ToggleButton>
                <ToggleButton value="en" lang="en">English</ToggleButton>
              </ToggleButtonGroup>
            </Stack>
            {problems.length > 0 ? (
              <Typography color="text.secondary">{tr('previewPending')}</Typography>
            ) : (
              <Preview form={form} language={previewLanguage} />
            )}
          </Paper>
        </Box>
      )}
      {shownProblems.length > 0 && !asJson ? (
        <FormHelperText error role="alert">{tr('fix', { count: shownProblems.length })}</FormHelperText>
      ) : (
        error && <FormHelperText error>{error}</FormHelperText>
      )}
    </Box>
  );
}
