import { useEffect, useMemo, useState } from 'react';
import { Alert, Box, Button, Divider, Paper, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ResourceDefinition } from '../../../../schema/definition.js';
import { useDebouncedValue } from '../../inputs/use-debounced-value.js';
import { crudApi, refusalOf, type TextGap } from './crud-api.js';
import { DesignPreview } from './DesignPreview.js';
import { newField, problemsOf, requestBodyOf, type DesignDraft, type DesignType, type FieldDraft, type TableDraft } from './design-model.js';
import { FieldEditor } from './FieldEditor.js';
import { FieldList } from './FieldList.js';
import { GenerateDialog } from './GenerateDialog.js';
import { TableSettings } from './TableSettings.js';

/**
 * The design of one module: its table settings, its fields (a list to pick from, the picked one's
 * settings beside it), the live preview below, and "Generate". Side by side on a desktop, stacked on a phone.
 */

/** Quiet time after the last edit before the preview asks the server again. */
const PREVIEW_DELAY_MS = 500;

interface DesignerProps {
  initial: DesignDraft;
  onBack(): void;
  onGenerated(id: string): void;
}

export function Designer({ initial, onBack, onGenerated }: DesignerProps) {
  const translate = useTranslate();
  const [design, setDesign] = useState(initial);
  const [selected, setSelected] = useState<string | undefined>(initial.fields.find((field) => field.designType !== 'pk')?.key ?? initial.fields[0]?.key);
  const [generating, setGenerating] = useState(false);
  const [preview, setPreview] = useState<{ definition?: ResourceDefinition; textGaps?: TextGap[]; problem?: string; loading: boolean }>({ loading: false });

  const problems = problemsOf(design);
  const settled = useDebouncedValue(design, PREVIEW_DELAY_MS);
  const body = useMemo(() => (problemsOf(settled).length ? undefined : JSON.stringify(requestBodyOf(settled))), [settled]);
  useEffect(() => {
    if (!body) return;
    let alive = true;
    setPreview((current) => ({ ...current, loading: true }));
    crudApi.preview(JSON.parse(body) as Record<string, unknown>).then(
      (answer) => alive && setPreview({ definition: answer.definition, textGaps: answer.textGaps, loading: false }),
      (error: unknown) => alive && setPreview((current) => ({ definition: current.definition, textGaps: current.textGaps, problem: refusalOf(error).message, loading: false })),
    );
    return () => {
      alive = false;
    };
  }, [body]);

  const setTable = (patch: Partial<TableDraft>) => setDesign((current) => ({ ...current, table: { ...current.table, ...patch } }));
  const setField = (key: string, patch: Partial<FieldDraft>) =>
    setDesign((current) => {
      const before = current.fields.find((field) => field.key === key);
      const fields = current.fields.map((field) => (field.key === key ? { ...field, ...patch } : field));
      // A renamed field keeps its place in quick search and as the default order.
      const renamed = before && patch.name !== undefined && patch.name !== before.name ? [before.name, patch.name] : undefined;
      const table = renamed
        ? { ...current.table, quickSearch: current.table.quickSearch.map((name) => (name === renamed[0] ? renamed[1] : name)), sortField: current.table.sortField === renamed[0] ? renamed[1] : current.table.sortField }
        : current.table;
      return { ...current, fields, table };
    });
  const move = (key: string, by: -1 | 1) =>
    setDesign((current) => {
      const fields = [...current.fields];
      const index = fields.findIndex((field) => field.key === key);
      const [field] = fields.splice(index, 1);
      fields.splice(Math.max(0, Math.min(fields.length, index + by)), 0, field);
      return { ...current, fields };
    });
  const remove = (key: string) => {
    setDesign((current) => ({ ...current, fields: current.fields.filter((field) => field.key !== key) }));
    if (selected === key) setSelected(undefined);
  };
  const add = (type: DesignType) => {
    const taken = new Set(design.fields.map((field) => field.name));
    // `string_field`, `remote_select_field`: a valid name to start from (a bare `select` is an SQL word).
    const base = type === 'pk' ? 'id' : `${type.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}_field`;
    let name = base;
    for (let index = 2; taken.has(name); index += 1) name = `${base}_${index}`;
    const field = newField(type, name);
    // Before the two timestamps, so they stay last as in every module.
    setDesign((current) => {
      const at = current.fields.findIndex((item) => item.name === 'create_time');
      const fields = [...current.fields];
      fields.splice(at < 0 ? fields.length : at, 0, field);
      return { ...current, fields };
    });
    setSelected(field.key);
  };

  const field = design.fields.find((item) => item.key === selected);
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 200 }}>
          {translate(design.source === 'log' ? 'crud.design.editing' : 'crud.design.new', { name: design.table.name || '…' })}
        </Typography>
        <Button color="inherit" onClick={onBack}>
          {translate('crud.design.back')}
        </Button>
        <Button variant="contained" onClick={() => setGenerating(true)} disabled={problems.length > 0}>
          {translate('crud.generate.button')}
        </Button>
      </Stack>
      {problems.length > 0 && (
        <Alert severity="info">
          {problems.map((problem) => (
            <div key={problem.key + (problem.params?.name ?? '')}>{translate(problem.key, problem.params)}</div>
          ))}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <TableSettings design={design} nameLocked={design.source === 'log'} onChange={setTable} />
      </Paper>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'minmax(260px, 340px) 1fr' }, alignItems: 'start' }}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
            {translate('crud.fields.title')}
          </Typography>
          <FieldList fields={design.fields} selected={selected} onSelect={setSelected} onMove={move} onRemove={remove} onAdd={add} />
        </Paper>
        <Paper variant="outlined" sx={{ p: 2 }}>
          {field ? (
            <FieldEditor key={field.key} field={field} onChange={(patch) => setField(field.key, patch)} />
          ) : (
            <Typography color="text.secondary">{translate('crud.fields.pick')}</Typography>
          )}
        </Paper>
      </Box>
      <Divider />
      <DesignPreview definition={preview.definition} textGaps={preview.textGaps} problem={problems.length ? undefined : preview.problem} loading={preview.loading} />
      {generating && <GenerateDialog design={design} onClose={() => setGenerating(false)} onGenerated={onGenerated} />}
    </Stack>
  );
}
