import ScienceIcon from '@mui/icons-material/ScienceOutlined';
import {
  Alert, Box, Button as MuiButton, Dialog, DialogActions, DialogContent, DialogTitle, Divider, FormControl, FormControlLabel, FormLabel,
  MenuItem, Radio, RadioGroup, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography, useMediaQuery, type Theme,
} from '@mui/material';
import { useId, useRef, useState } from 'react';
import { Button, useCanAccess, useDataProvider, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import {
  TOOL_OUTCOMES, type ParameterRole, type ToolBuildInput, type ToolBuilt, type ToolCheck, type ToolOutcome, type ToolRequest, type ToolSent,
} from '../../../../../contract/provider-tool.js';
import { isOneOf } from '../../../../../contract/checks.js';
import { usePrefixedTranslate } from '../../../../i18n/prefixed-translate.js';
import type { ActionDataProvider } from '../../../../providers/data-provider.js';
import { fieldOf, type ResourceDefinition } from '../../../../../schema/definition.js';
import { optionLabel } from '../../../fields/enum-options.js';
import { errorMessageOf } from '../../error-report.js';
import { useSchemaTranslate } from '../../schema-i18n.js';
import { CopyField } from '../../../../components/CopyField.js';
import { reversalOfValue } from './recipe-model.js';

const mono = { fontFamily: 'monospace', wordBreak: 'break-all' } as const;
/** A name reads whole where it can; a long value breaks anywhere rather than run out of a phone's screen. */
const monoName = { fontFamily: 'monospace', overflowWrap: 'anywhere' } as const;
/** Messages quote addresses and signed texts: they wrap anywhere inside the alert. */
/** The methods a test request may go out with. */
const METHODS = ['GET', 'POST'] as const;

const ALERT_SX = { '& .MuiAlert-message': { minWidth: 0, overflowWrap: 'anywhere' } } as const;

type Part = 'build' | 'check' | 'send';

/** `Name: value` lines of a request's headers, as the check's headers box takes them. */
function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\n');
}

/** One built request: its method and address, headers and body when it has them, what was signed and the signature. */
function RequestView({ title, request, onCheck }: { title: string; request: ToolRequest; onCheck: () => void }) {
  const tr = usePrefixedTranslate('survey.providerTest');
  const copied = tr('copied');
  const copy = (label: string, value: string) => (
    <CopyField label={label} value={value} copyLabel={tr('copy', { name: label })} copiedLabel={copied} />
  );
  const headers = headerLines(request.headers);
  return (
    <Box component="section" aria-label={title} sx={{ mt: 1.5 }}>
      <Typography variant="subtitle2" component="h4">{title}</Typography>
      {copy(tr('request'), `${request.method} ${request.url}`)}
      {headers && copy(tr('headers'), headers)}
      {request.body && copy(tr('body'), request.body)}
      {copy(tr('signedText'), request.signedText)}
      {request.signature && copy(tr('signature'), request.signature)}
      <MuiButton size="small" onClick={onCheck} sx={{ mt: 0.5 }}>{tr('useInCheck')}</MuiButton>
    </Box>
  );
}

/**
 * "Test returns" on a provider's row: a hash calculator over the provider's saved recipe and secret. It
 * builds the signed return (project) or callback for an outcome, checks a pasted request (address,
 * headers, body) with the very check the callback endpoint makes and explains a wrong signature, and sends
 * a test callback through our real callback address. Everything runs on the server; test RIDs and member
 * IDs only, unless the admin may reconcile participations.
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
  const checkUrlRef = useRef<HTMLTextAreaElement | null>(null);
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<ToolOutcome>('complete');
  const [rid, setRid] = useState('');
  const [member, setMember] = useState('');
  const [amount, setAmount] = useState('');
  const [transaction, setTransaction] = useState('');
  const [built, setBuilt] = useState<ToolBuilt | undefined>(undefined);
  const [sent, setSent] = useState<ToolSent | undefined>(undefined);
  const [pasted, setPasted] = useState('');
  const [method, setMethod] = useState<(typeof METHODS)[number]>('GET');
  const [headers, setHeaders] = useState('');
  const [body, setBody] = useState('');
  const [check, setCheck] = useState<ToolCheck | undefined>(undefined);
  const [error, setError] = useState<{ part: Part; message: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const tr = usePrefixedTranslate('survey.providerTest');
  if (canAccess !== true || !record) return null;

  const wall = record.kind === 'wall';
  const exitMap = fieldOf(definition, 'exit_map');
  const amountIn = fieldOf(definition, 'amount_in');
  const reverses = reversalOfValue(record.reversal).by !== 'none';
  const outcomes = TOOL_OUTCOMES.filter((choice) => choice !== 'reversal' || reverses);
  const outcomeLabel = (value: string) => (value === 'reversal' ? tr('outcomes.reversal') : exitMap ? t(optionLabel(exitMap, value)) : value);

  const call = async <T,>(part: Part, data: Record<string, unknown>): Promise<T | undefined> => {
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
  const buildInput = (): ToolBuildInput => {
    const given = (value: string) => (value.trim() === '' ? undefined : value.trim());
    const input: ToolBuildInput = { outcome };
    if (wall) Object.assign(input, { member: given(member), amount: given(amount), transaction: given(transaction) });
    else Object.assign(input, { rid: given(rid) });
    return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as unknown as ToolBuildInput;
  };
  const toCheck = (request: ToolRequest, focus = true) => {
    setPasted(request.url);
    setMethod(request.method);
    setHeaders(headerLines(request.headers));
    setBody(request.body);
    setCheck(undefined);
    if (focus) checkUrlRef.current?.focus();
  };
  const build = async () => {
    setSent(undefined);
    const answer = await call<ToolBuilt>('build', { ...buildInput() });
    setBuilt(answer);
    // Ready to check as it is, or once edited; the focus stays with the results.
    if (answer) toCheck(answer.redirect ?? answer.callback, false);
  };
  const send = async () => {
    // The very ids just built, so the call sent is the one shown.
    const ids = built ? { ...(built.rid ? { rid: built.rid } : {}), ...(built.member ? { member: built.member } : {}), ...(built.transaction ? { transaction: built.transaction } : {}) } : {};
    setSent(await call<ToolSent>('send', { ...buildInput(), ...ids }));
  };
  const runCheck = async () => setCheck(await call<ToolCheck>('check', { url: pasted, method, headers, body }));
  const roleLabel = (role: ParameterRole) => tr(`roles.${role}`);
  const errorOf = (part: Part) => (error?.part === part ? <Alert severity="error" sx={{ mt: 2, ...ALERT_SX }}>{error.message}</Alert> : null);
  const copied = tr('copied');
  const copy = (label: string, value: string) => <CopyField label={label} value={value} copyLabel={tr('copy', { name: label })} copiedLabel={copied} />;

  return (
    <>
      <Button label={tr('button')} onClick={() => setOpen(true)}>
        <ScienceIcon />
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{tr('title', { name: String(record.name ?? record.code ?? '') })}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {tr('intro')}
          </Typography>

          <Typography variant="subtitle1" component="h3">{tr('buildTitle')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {tr('buildHelp')}
          </Typography>
          <FormControl component="fieldset" margin="dense">
            <FormLabel component="legend">{tr('outcome')}</FormLabel>
            <RadioGroup row value={outcome} onChange={(event) => { if (isOneOf(TOOL_OUTCOMES, event.target.value)) setOutcome(event.target.value); }}>
              {outcomes.map((choice) => (
                <FormControlLabel key={choice} value={choice} control={<Radio />} label={outcomeLabel(choice)} />
              ))}
            </RadioGroup>
          </FormControl>
          {wall ? (
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(3, minmax(0, 1fr))' }, columnGap: 2 }}>
              <TextField label={tr('member')} helperText={tr('memberHelp')} value={member} onChange={(event) => setMember(event.target.value)} margin="dense" />
              <TextField
                label={tr('amount')}
                helperText={tr('amountHelp', { unit: amountIn ? t(optionLabel(amountIn, record.amount_in)) : String(record.amount_in ?? '') })}
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                margin="dense"
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              />
              <TextField label={tr('transaction')} helperText={tr('transactionHelp')} value={transaction} onChange={(event) => setTransaction(event.target.value)} margin="dense" />
            </Box>
          ) : (
            <TextField
              label={tr('rid')}
              helperText={tr('ridHelp')}
              value={rid}
              onChange={(event) => setRid(event.target.value)}
              fullWidth
              margin="dense"
            />
          )}
          <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }}>
            <MuiButton variant="outlined" onClick={() => void build()} disabled={busy}>{tr('build')}</MuiButton>
          </Stack>
          {errorOf('build')}
          {built && (
            <Box>
              {built.notes.map((note) => <Alert key={note} severity="info" sx={{ mt: 1.5, ...ALERT_SX }}>{note}</Alert>)}
              {built.redirect && <RequestView title={tr('returnUrl')} request={built.redirect} onCheck={() => toCheck(built.redirect as ToolRequest)} />}
              <RequestView title={tr('callback')} request={built.callback} onCheck={() => toCheck(built.callback)} />
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
                {tr('sendHelp')}
              </Typography>
              <MuiButton variant="outlined" onClick={() => void send()} disabled={busy} sx={{ mt: 1 }}>{tr('send')}</MuiButton>
              {errorOf('send')}
              {sent && (
                <Stack spacing={1} sx={{ mt: 1 }} role="status">
                  <Alert severity={sent.response.status >= 200 && sent.response.status < 300 && !/"code"\s*:\s*0\b/.test(sent.response.body) ? 'success' : 'warning'}>
                    {tr('sent', { status: sent.response.status })}
                  </Alert>
                  {copy(tr('answer'), sent.response.body)}
                </Stack>
              )}
            </Box>
          )}

          <Divider sx={{ my: 2 }} />
          <Typography variant="subtitle1" component="h3">{tr('checkTitle')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {tr('checkHelp')}
          </Typography>
          <TextField
            label={tr('pasted')}
            value={pasted}
            inputRef={checkUrlRef}
            onChange={(event) => {
              setPasted(event.target.value);
              setCheck(undefined);
            }}
            fullWidth
            multiline
            minRows={2}
            margin="dense"
            slotProps={{ htmlInput: { style: mono, spellCheck: false } }}
          />
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '8rem minmax(0, 1fr) minmax(0, 1fr)' }, columnGap: 2 }}>
            <TextField select label={tr('method')} value={method} onChange={(event) => { if (isOneOf(METHODS, event.target.value)) setMethod(event.target.value); }} margin="dense">
              <MenuItem value="GET">GET</MenuItem>
              <MenuItem value="POST">POST</MenuItem>
            </TextField>
            <TextField
              label={tr('headersInput')}
              helperText={tr('headersHelp')}
              value={headers}
              onChange={(event) => setHeaders(event.target.value)}
              multiline
              minRows={2}
              margin="dense"
              slotProps={{ htmlInput: { style: mono, spellCheck: false } }}
            />
            <TextField
              label={tr('bodyInput')}
              helperText={tr('bodyHelp')}
              value={body}
              onChange={(event) => setBody(event.target.value)}
              multiline
              minRows={2}
              margin="dense"
              slotProps={{ htmlInput: { style: mono, spellCheck: false } }}
            />
          </Box>
          <Box sx={{ mt: 1 }}>
            <MuiButton variant="outlined" onClick={() => void runCheck()} disabled={busy}>{tr('check')}</MuiButton>
          </Box>
          {errorOf('check')}
          {check && (
            <Stack spacing={1} sx={{ mt: 2 }} role="status">
              {check.ok ? (
                <Alert severity="success" sx={ALERT_SX}>
                  {check.outcome
                    ? tr('valid', { outcome: outcomeLabel(check.outcome) })
                    : tr('validNoOutcome')}
                </Alert>
              ) : (
                <Alert severity="error" sx={ALERT_SX}>
                  {tr('invalid')}
                  <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                    {check.problems.map((problem) => <li key={problem}>{problem}</li>)}
                  </Box>
                </Alert>
              )}
              {check.warnings.map((warning) => <Alert key={warning} severity="warning" sx={ALERT_SX}>{warning}</Alert>)}
              <Typography variant="body2">
                {tr('verdict')}: <strong>{tr(`verdicts.${check.verdict}`)}</strong>
              </Typography>
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small" aria-label={tr('parameters')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{tr('parameter')}</TableCell>
                      <TableCell>{tr('value')}</TableCell>
                      <TableCell>{tr('role')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {check.parameters.map((parameter, index) => (
                      <TableRow key={`${parameter.name}-${index}`}>
                        <TableCell sx={monoName}>{parameter.name}</TableCell>
                        <TableCell sx={mono}>{parameter.value}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{roleLabel(parameter.role)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
              {copy(tr('signedText'), check.signedText)}
              {check.verdict !== 'unsigned' && copy(tr('expected'), check.expectedSignature || tr('withheld'))}
              {copy(tr('received'), check.receivedSignature)}
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
