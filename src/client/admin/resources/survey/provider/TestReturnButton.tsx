import ScienceIcon from '@mui/icons-material/ScienceOutlined';
import {
  Alert, Box, Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, Divider, FormControl, FormControlLabel, FormLabel,
  Radio, RadioGroup, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography, useMediaQuery, type Theme,
} from '@mui/material';
import { useId, useState } from 'react';
import { Button, useCanAccess, useDataProvider, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { fieldOf, type ResourceDefinition } from '../../../../../schema/definition.js';
import { enumChoices, optionLabel } from '../../../fields/enum-options.js';
import { errorMessageOf } from '../../error-report.js';
import { useSchemaTranslate } from '../../schema-i18n.js';

/** An outcome a provider reports: one of the values its exit-code map may name (`exit_map`'s `x-ui.options`). */
type Outcome = string;
const ROLE_NAMES = { rid: 'RID', status: 'Status', signature: 'Signature', other: 'Not used' } as const;

interface SignedRequest {
  url: string;
  signedText: string;
  signature: string;
}

interface Built {
  rid: string;
  redirect: SignedRequest;
  callback: SignedRequest & { method: string; status: string };
}

interface Check {
  ok: boolean;
  signatureValid: boolean;
  kind: 'redirect' | 'callback' | 'unknown';
  outcome?: Outcome;
  signedText: string;
  expectedSignature: string;
  receivedSignature: string;
  parameters: { name: string; value: string; role: 'rid' | 'status' | 'signature' | 'other' }[];
  problems: string[];
  warnings: string[];
}

const mono = { fontFamily: 'monospace', wordBreak: 'break-all' } as const;

/** A read-only text to copy (a URL, a signature), labelled. */
function CopyText({ label, value }: { label: string; value: string }) {
  return <TextField label={label} value={value} fullWidth margin="dense" multiline slotProps={{ htmlInput: { readOnly: true, style: mono } }} />;
}

/**
 * "Test returns" on a provider's row: build the signed return URL and callback for an outcome, and check
 * a pasted URL. Both run on the server with the stored secret and the code that verifies real returns.
 */
export function TestReturnButton({ definition }: { definition: ResourceDefinition }) {
  const resource = useResourceContext() ?? '';
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource, action: 'testReturn' });
  const translate = useTranslate();
  const t = useSchemaTranslate();
  const dataProvider = useDataProvider<ActionDataProvider>();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>('complete');
  const [rid, setRid] = useState('');
  const [built, setBuilt] = useState<Built | undefined>(undefined);
  const [pasted, setPasted] = useState('');
  const [check, setCheck] = useState<Check | undefined>(undefined);
  const [error, setError] = useState<{ part: 'build' | 'check'; message: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const tr = (key: string, fallback: string, options: Record<string, unknown> = {}) => translate(`survey.providerTest.${key}`, { _: fallback, ...options });
  if (canAccess !== true || !record) return null;

  // The outcomes in the order the schema lists them, labelled as every screen labels them.
  const exitMap = fieldOf(definition, 'exit_map');
  const outcomes = exitMap ? enumChoices(exitMap) : [];
  const outcomeLabel = (value: Outcome) => (exitMap ? t(optionLabel(exitMap, value)) : value);
  const call = async <T,>(part: 'build' | 'check', data: Record<string, unknown>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return (await dataProvider.action<T>(resource, 'testReturn', { data: { id: record.id, mode: part, ...data } })).data;
    } catch (failure) {
      setError({ part, message: translate(errorMessageOf(failure), { _: errorMessageOf(failure) }) });
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  const build = async () => {
    const answer = await call<Built>('build', { outcome, ...(rid.trim() ? { rid: rid.trim() } : {}) });
    setBuilt(answer);
    if (answer) setPasted(answer.redirect.url);
  };
  const runCheck = async () => setCheck(await call<Check>('check', { url: pasted }));
  const roleLabel = (role: Check['parameters'][number]['role']) => tr(`roles.${role}`, ROLE_NAMES[role]);

  return (
    <>
      <Button label={tr('button', 'Test returns')} onClick={() => setOpen(true)}>
        <ScienceIcon />
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{tr('title', 'Test returns of %{name}', { name: String(record.name ?? record.code ?? '') })}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="subtitle1" component="h3">{tr('buildTitle', 'Build a signed return')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {tr('buildHelp', 'Choose how the attempt ended: the tool signs the return URL and the callback with this provider\'s settings and secret, exactly as the provider must.')}
          </Typography>
          <FormControl component="fieldset" margin="dense">
            <FormLabel component="legend">{tr('outcome', 'Outcome')}</FormLabel>
            <RadioGroup row value={outcome} onChange={(event) => setOutcome(event.target.value as Outcome)}>
              {outcomes.map((choice) => (
                <FormControlLabel key={String(choice.id)} value={String(choice.id)} control={<Radio />} label={t(choice.name)} />
              ))}
            </RadioGroup>
          </FormControl>
          <TextField
            label={tr('rid', 'RID')}
            helperText={tr('ridHelp', 'Leave blank for a test RID (test-…), which no attempt has: a return with it records nothing. A real attempt\'s RID can be signed only with the right to reconcile participations.')}
            value={rid}
            onChange={(event) => setRid(event.target.value)}
            fullWidth
            margin="dense"
          />
          <Box sx={{ mt: 1 }}>
            <MuiButton variant="outlined" onClick={() => void build()} disabled={busy}>{tr('build', 'Build')}</MuiButton>
          </Box>
          {error?.part === 'build' && <Alert severity="error" sx={{ mt: 2 }}>{error.message}</Alert>}
          {built && (
            <Box sx={{ mt: 1 }}>
              <CopyText label={tr('returnUrl', 'Return URL (the provider sends the browser here)')} value={built.redirect.url} />
              <CopyText label={tr('callbackUrl', 'Callback (the provider calls it with GET or POST)')} value={`${built.callback.method} ${built.callback.url}`} />
              <CopyText label={tr('signedText', 'Signed text')} value={built.redirect.signedText} />
              {built.redirect.signature && <CopyText label={tr('signature', 'Signature')} value={built.redirect.signature} />}
            </Box>
          )}
          <Divider sx={{ my: 2 }} />
          <Typography variant="subtitle1" component="h3">{tr('checkTitle', 'Check a URL')}</Typography>
          <TextField
            label={tr('pasted', 'Return URL or callback, as the provider sends it')}
            value={pasted}
            onChange={(event) => {
              setPasted(event.target.value);
              setCheck(undefined);
            }}
            fullWidth
            multiline
            minRows={2}
            margin="dense"
            slotProps={{ htmlInput: { style: mono } }}
          />
          <Box sx={{ mt: 1 }}>
            <MuiButton variant="outlined" onClick={() => void runCheck()} disabled={busy}>{tr('check', 'Check')}</MuiButton>
          </Box>
          {error?.part === 'check' && <Alert severity="error" sx={{ mt: 2 }}>{error.message}</Alert>}
          {check && (
            <Stack spacing={1} sx={{ mt: 2 }} role="status">
              {check.ok ? (
                <Alert severity="success">
                  {tr('valid', 'The signature verifies: a real return would record "%{outcome}".', { outcome: outcomeLabel(check.outcome ?? 'complete') })}
                </Alert>
              ) : (
                <Alert severity="error">
                  {tr('invalid', 'This URL would not be accepted:')}
                  <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                    {check.problems.map((problem) => <li key={problem}>{problem}</li>)}
                  </Box>
                </Alert>
              )}
              {check.warnings.map((warning) => <Alert key={warning} severity="warning">{warning}</Alert>)}
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small" aria-label={tr('parameters', 'Parameters')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{tr('parameter', 'Parameter')}</TableCell>
                      <TableCell>{tr('value', 'Value')}</TableCell>
                      <TableCell>{tr('role', 'Read as')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {check.parameters.map((parameter, index) => (
                      <TableRow key={`${parameter.name}-${index}`}>
                        <TableCell sx={mono}>{parameter.name}</TableCell>
                        <TableCell sx={mono}>{parameter.value}</TableCell>
                        <TableCell>{roleLabel(parameter.role)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
              <CopyText label={tr('signedText', 'Signed text')} value={check.signedText} />
              {check.expectedSignature && <CopyText label={tr('expected', 'Expected signature')} value={check.expectedSignature} />}
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setOpen(false)} disabled={busy}>{translate('ra.action.close')}</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
