import { FormControl, FormControlLabel, FormHelperText, FormLabel, MenuItem, Switch, TextField, Box } from '@mui/material';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useInput, useTranslate } from 'react-admin';
import {
  CHAIN_SOURCES, EXPIRY_KINDS, EXPIRY_PLACES, EXPIRY_UNITS, RECIPE_ALGORITHMS, RECIPE_CUTS, RECIPE_ENCODINGS, RECIPE_KEYS, RECIPE_PLACES, RECIPE_TEXTS, REVERSAL_KINDS,
  type RecipeChainKey, type RecipeValue, type ReversalValue,
} from '../../../../../contract/provider-tool.js';
import { keepValue } from '../../../inputs/input-props.js';
import {
  CHAIN_LENGTHS, chainOfLength, cutMatters, DEFAULT_CHAIN, DEFAULT_EXPIRY, namesOfText, recipeOfValue, recipeToValue, reversalOfValue, reversalToValue, reversalValueText,
} from './recipe-model.js';

/** "No" in the drop-down of textHash: the text is keyed as it is. */
const NO_TEXT_HASH = 'none';

/**
 * The structured editors of a provider's two JSON columns: the signature recipe (what is signed, how the
 * secret goes in, the algorithm and encoding, where the signature travels, an optional expiring
 * timestamp) and the reversal rule. Each part has a label and a help text with an example in the admin's
 * language; parts that do not apply to the choices made are not drawn (and not saved).
 */

/** Inner inputs: one column on a phone, two from `sm` up. */
const GRID_SX = { display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }, columnGap: 2, rowGap: 1.5 } as const;

type Translate = (key: string, fallback: string, options?: Record<string, unknown>) => string;

function useTexts(prefix: string): Translate {
  const translate = useTranslate();
  return (key, fallback, options = {}) => translate(`survey.providerForm.${prefix}.${key}`, { _: fallback, ...options });
}

interface ChoiceProps<T extends string> {
  label: string;
  help?: string;
  value: T;
  choices: readonly T[];
  labelOf: (choice: T) => string;
  onChange: (value: T) => void;
  onBlur?: () => void;
}

/** A labelled drop-down of fixed choices (MUI's select: Tab to it, Enter or the arrows open it). */
function Choice<T extends string>({ label, help, value, choices, labelOf, onChange, onBlur }: ChoiceProps<T>) {
  return (
    <TextField select size="small" label={label} helperText={help} value={value} onChange={(event) => onChange(event.target.value as T)} onBlur={onBlur} fullWidth>
      {choices.map((choice) => (
        <MenuItem key={choice} value={choice}>{labelOf(choice)}</MenuItem>
      ))}
    </TextField>
  );
}

function Text({ label, help, value, onChange, onBlur, mono = true, inputMode }: { label: string; help: string; value: string; onChange: (value: string) => void; onBlur?: () => void; mono?: boolean; inputMode?: 'numeric' }) {
  return (
    <TextField
      size="small"
      label={label}
      helperText={help}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      fullWidth
      slotProps={{ htmlInput: { spellCheck: false, ...(mono ? { style: { fontFamily: 'monospace' } } : {}), ...(inputMode ? { inputMode } : {}) } }}
    />
  );
}

/**
 * A list typed as comma-separated text ("subId, transId"): the text is kept as typed while the list it
 * gives is written, so a trailing comma survives the next keystroke; a list set from outside (a preset
 * chosen, a record loaded) replaces the text.
 */
function useListText(list: string, write: (text: string) => void): [string, (text: string) => void] {
  const [typed, setTyped] = useState(list);
  const written = useRef(list);
  useEffect(() => {
    if (list !== written.current) {
      written.current = list;
      setTyped(list);
    }
  }, [list]);
  return [
    typed,
    (next) => {
      setTyped(next);
      write(next);
      written.current = namesOfText(next).join(', ');
    },
  ];
}

/** A group of inputs named by its legend, laid out like the form's other inputs (label at the left from `sm` up). */
function Group({ label, help, error, children }: { label: string; help: string; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <FormControl role="group" aria-labelledby={`${id}-label`} aria-describedby={`${id}-help`} error={Boolean(error)} sx={{ mb: 2 }} fullWidth>
      <FormLabel id={`${id}-label`} sx={{ mb: 1 }}>{label}</FormLabel>
      <Box>
        <FormHelperText id={`${id}-help`} sx={{ mt: 0, mb: 1.5, mx: 0 }}>{help}</FormHelperText>
        <Box sx={GRID_SX}>{children}</Box>
        {error && <FormHelperText sx={{ mx: 0 }}>{error}</FormHelperText>}
      </Box>
    </FormControl>
  );
}

/** The `signature` column: the provider's signature recipe. */
export function RecipeInput({ source = 'signature', label }: { source?: string; label?: string }) {
  const { field, fieldState } = useInput({ source, parse: keepValue });
  const tr = useTexts('recipe');
  const recipe = recipeOfValue(field.value);
  const update = (change: Partial<RecipeValue>) => field.onChange(recipeToValue({ ...recipe, ...change }));
  const [names, setNames] = useListText((recipe.names ?? []).join(', '), (typed) => update({ names: namesOfText(typed) }));
  const [aliases, setAliases] = useListText((recipe.signatureAliases ?? []).join(', '), (typed) => update({ signatureAliases: namesOfText(typed) }));
  const chain = recipe.chain ?? [...DEFAULT_CHAIN];
  const updateStep = (index: number, step: RecipeChainKey) => update({ chain: chain.map((existing, at) => (at === index ? step : existing)) });
  const common = { onBlur: field.onBlur };
  const expiry = recipe.expiry;
  const keyed = recipe.key === 'append' || recipe.key === 'prepend';

  return (
    <Group label={label ?? tr('title', 'Signature recipe')} help={tr('help', "How the provider signs its returns and callbacks. A preset fills this in; the provider's integration guide says what applies.")} error={fieldState.error?.message}>
      <Choice
        {...common}
        label={tr('text', 'What is signed')}
        help={tr('textHelp', 'Example: for …/api/survey/callback/acme?rid=8f3a&status=10&sig=…, “path and query” signs /api/survey/callback/acme?rid=8f3a&status=10.')}
        value={recipe.text}
        choices={RECIPE_TEXTS}
        labelOf={(choice) => tr(`texts.${choice}`, choice)}
        onChange={(value) => update({ text: value })}
      />
      <Choice
        {...common}
        label={tr('in', 'Where the signature is')}
        help={tr('inHelp', 'Its name is the signature parameter below. Example: a query parameter sig gives …&sig=3f9a…')}
        value={recipe.in}
        choices={RECIPE_PLACES}
        labelOf={(choice) => tr(`places.${choice}`, choice)}
        onChange={(value) => update({ in: value })}
      />
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Text
          {...common}
          label={tr('aliases', 'Other names of the signature')}
          help={tr('aliasesHelp', 'Optional, comma-separated: names the signature also travels under, looked for after the signature parameter, the first present counting. Example: ps_s_hash (PureSpectrum names it so on reconciliations)')}
          value={aliases}
          onChange={setAliases}
        />
      </Box>
      {cutMatters(recipe) && (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <Choice
            {...common}
            label={tr('cut', 'How the signature is taken out')}
            help={tr('cutHelp', 'Of the signed address or body. Example: for …?a=1&sig=3f9a, “Its pair and its &” signs …?a=1, “Its pair, the & before it kept” signs …?a=1&, “Its value only” signs …?a=1&sig=')}
            value={recipe.cut ?? 'pair'}
            choices={RECIPE_CUTS}
            labelOf={(choice) => tr(`cuts.${choice}`, choice)}
            onChange={(value) => update({ cut: value })}
          />
        </Box>
      )}
      {recipe.text === 'values' && (
        <>
          <Text {...common} label={tr('names', 'Parameter names, in order')} help={tr('namesHelp', 'Comma-separated; their decoded values are joined. Example: subId, transId, reward')} value={names} onChange={setNames} />
          <Text {...common} label={tr('separator', 'Separator between values')} help={tr('separatorHelp', 'Put between the values; may be empty. Example: “:” gives 8f3a:T123:1.25')} value={recipe.separator ?? ''} onChange={(value) => update({ separator: value })} />
        </>
      )}
      {recipe.text === 'template' && (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <Text {...common} label={tr('template', 'Template')} help={tr('templateHelp', "Literal text with {name} where a parameter's decoded value goes. Example: {subId}{transId}{reward}")} value={recipe.template ?? ''} onChange={(value) => update({ template: value })} />
        </Box>
      )}
      <Choice
        {...common}
        label={tr('key', 'How the secret is used')}
        help={tr('keyHelp', 'Example: “MD5 of the text followed by the secret” is “text, then secret” with MD5.')}
        value={recipe.key}
        choices={RECIPE_KEYS}
        labelOf={(choice) => tr(`keys.${choice}`, choice)}
        onChange={(value) => update({ key: value })}
      />
      {keyed && (
        <Text {...common} label={tr('keySeparator', 'Between text and secret')} help={tr('keySeparatorHelp', 'Usually empty. Example: “-” hashes text-secret')} value={recipe.keySeparator ?? ''} onChange={(value) => update({ keySeparator: value })} />
      )}
      {recipe.key === 'hmac_chain' && (
        <>
          <Box sx={{ gridColumn: '1 / -1' }}>
            <Choice
              {...common}
              label={tr('chainLength', 'Keys in the chain')}
              help={tr('chainHelp', 'Each HMAC is keyed by the next key in turn, over the hex of the one before (the first over the text). Example: Dynata REX keys by expiration, then access_key, then the secret.')}
              value={String(chain.length) as (typeof CHAIN_LENGTHS)[number]}
              choices={CHAIN_LENGTHS}
              labelOf={(choice) => choice}
              onChange={(value) => update({ chain: chainOfLength(chain, Number(value)) })}
            />
          </Box>
          {chain.map((step, index) => (
            <ChainStep key={index} tr={tr} index={index} step={step} onBlur={field.onBlur} onChange={(changed) => updateStep(index, changed)} />
          ))}
        </>
      )}
      {recipe.key !== 'none' && (
        <>
          <Choice
            {...common}
            label={tr('textHash', 'Hash the text first')}
            help={tr('textHashHelp', 'Optional: the text is replaced by the hex of its own hash before the secret is used. Example: Dynata signs the SHA-256 of the canonical query.')}
            value={recipe.textHash ?? NO_TEXT_HASH}
            choices={[NO_TEXT_HASH, ...RECIPE_ALGORITHMS]}
            labelOf={(choice) => (choice === NO_TEXT_HASH ? tr('textHashes.none', 'No') : tr(`algorithms.${choice}`, choice))}
            onChange={(value) => update({ textHash: value === NO_TEXT_HASH ? undefined : value })}
          />
          <Choice
            {...common}
            label={tr('algorithm', 'Algorithm')}
            help={tr('algorithmHelp', 'Example: HMAC-SHA256 is HMAC with SHA-256; its hex signature has 64 characters.')}
            value={recipe.algorithm}
            choices={RECIPE_ALGORITHMS}
            labelOf={(choice) => tr(`algorithms.${choice}`, choice)}
            onChange={(value) => update({ algorithm: value })}
          />
          <Choice
            {...common}
            label={tr('encoding', 'Encoding')}
            help={tr('encodingHelp', 'Example: a SHA-1 has 40 characters in hex, 28 in base64 (27 in base64url).')}
            value={recipe.encoding}
            choices={RECIPE_ENCODINGS}
            labelOf={(choice) => tr(`encodings.${choice}`, choice)}
            onChange={(value) => update({ encoding: value })}
          />
        </>
      )}
      <Box sx={{ gridColumn: '1 / -1' }}>
        <FormControlLabel
          control={<Switch checked={expiry !== null} onChange={(event) => update({ expiry: event.target.checked ? { ...DEFAULT_EXPIRY } : null })} onBlur={field.onBlur} />}
          label={tr('expiry', 'The request carries a timestamp that expires')}
        />
        <FormHelperText sx={{ mt: 0, mx: 0 }}>{tr('expiryHelp', 'Refuses a request whose timestamp is further from now than the allowed difference, such as a link opened long after the provider signed it')}</FormHelperText>
      </Box>
      {expiry && (
        <>
          <Choice
            {...common}
            label={tr('expiryKind', 'The time says')}
            help={tr('expiryKindHelp', 'When the request was made, or until when it is good. Example: Dynata REX sends expiration=2026-01-01T00:05:00.000Z, a deadline.')}
            value={expiry.kind ?? 'timestamp'}
            choices={EXPIRY_KINDS}
            labelOf={(choice) => tr(`expiryKinds.${choice}`, choice)}
            onChange={(value) => {
              const { kind: _kind, ...rest } = expiry;
              update({ expiry: value === 'deadline' ? { ...rest, kind: 'deadline' } : rest });
            }}
          />
          <Choice
            {...common}
            label={tr('expiryIn', 'Timestamp is in')}
            help={tr('expiryInHelp', 'Example: a query parameter named ts, or a header named X-Timestamp')}
            value={expiry.in}
            choices={EXPIRY_PLACES}
            labelOf={(choice) => tr(`expiryPlaces.${choice}`, choice)}
            onChange={(value) => update({ expiry: { ...expiry, in: value } })}
          />
          <Text {...common} label={tr('expiryName', 'Timestamp name')} help={tr('expiryNameHelp', 'Example: ts or X-Timestamp')} value={expiry.name} onChange={(value) => update({ expiry: { ...expiry, name: value } })} />
          <Choice
            {...common}
            label={tr('expiryUnit', 'Unit')}
            help={tr('expiryUnitHelp', 'Seconds or milliseconds: the time counted from 1 January 1970 (UTC), 10 digits in seconds, 13 in milliseconds; RFC 3339: a date and time written out, such as 2026-01-01T00:00:00Z')}
            value={expiry.unit}
            choices={EXPIRY_UNITS}
            labelOf={(choice) => tr(`units.${choice}`, choice)}
            onChange={(value) => update({ expiry: { ...expiry, unit: value } })}
          />
          <Text
            {...common}
            label={expiry.kind === 'deadline' ? tr('skewDeadline', 'Furthest ahead a deadline may lie (seconds)') : tr('skew', 'Allowed difference (seconds)')}
            help={expiry.kind === 'deadline' ? tr('skewDeadlineHelp', 'A deadline further ahead is refused, so a signed request cannot be replayed for ever. Example: 86400 is one day') : tr('skewHelp', 'Example: 300 accepts five minutes either way')}
            value={String(expiry.skewSeconds)}
            inputMode="numeric"
            onChange={(value) => {
              // whole seconds, up to six digits; any other keystroke is not taken
              if (/^\d{0,6}$/.test(value.trim())) update({ expiry: { ...expiry, skewSeconds: Number(value.trim() || 0) } });
            }}
          />
        </>
      )}
    </Group>
  );
}

/** One key of an HMAC chain: where it comes from, and its name unless it is the secret. */
function ChainStep({ tr, index, step, onBlur, onChange }: { tr: Translate; index: number; step: RecipeChainKey; onBlur: () => void; onChange: (step: RecipeChainKey) => void }) {
  const number = { number: index + 1 };
  return (
    <>
      <Choice
        label={tr('chainFrom', 'Key %{number} is', number)}
        help={tr('chainFromHelp', 'The secret, a request parameter or a header. Example: the parameter expiration')}
        value={step.in}
        choices={CHAIN_SOURCES}
        labelOf={(choice) => tr(`chainSources.${choice}`, choice)}
        onChange={(source) => onChange(source === 'secret' ? { in: 'secret' } : { in: source, name: step.in === 'secret' ? '' : step.name })}
        onBlur={onBlur}
      />
      {step.in === 'secret' ? (
        <Box />
      ) : (
        <Text label={tr('chainName', 'Key %{number} name', number)} help={tr('chainNameHelp', 'Example: access_key or dynata-access-key')} value={step.name} onChange={(name) => onChange({ in: step.in, name })} onBlur={onBlur} />
      )}
    </>
  );
}

/** The `reversal` column: how the provider says a credited transaction is taken back. */
export function ReversalInput({ source = 'reversal', label }: { source?: string; label?: string }) {
  const { field, fieldState } = useInput({ source, parse: keepValue });
  const tr = useTexts('reversal');
  const rule = reversalOfValue(field.value);
  const update = (change: Partial<ReversalValue>) => field.onChange(reversalToValue({ ...rule, ...change }));
  const [value, setValue] = useListText(reversalValueText(rule), (typed) => update({ value: typed }));
  const uses = rule.by === 'status' || rule.by === 'flag' || rule.by === 'prefix' ? rule.by : undefined;
  const paramHelp = { status: 'The parameter holding the status. Example: status', flag: 'The parameter holding the flag. Example: is_chargeback', prefix: 'The parameter holding the transaction ID. Example: transId' };
  const valueLabel = { status: 'Status codes meaning a reversal', flag: 'Flag value', prefix: 'Prefix' };
  const valueHelp = { status: 'Comma-separated. Example: 2 or 2, 3', flag: 'Example: 1 or true', prefix: 'Example: r- (r-T123 reverses T123)' };
  return (
    <Group label={label ?? tr('title', 'Reversal rule')} help={tr('byHelp', 'A reversal debits what that transaction credited, once. Example: BitLabs sends type=RECONCILIATION.')} error={fieldState.error?.message}>
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Choice
          label={tr('by', 'How the provider sends a reversal')}
          value={rule.by}
          choices={REVERSAL_KINDS}
          labelOf={(choice) => tr(`kinds.${choice}`, choice)}
          onChange={(by) => update({ by })}
          onBlur={field.onBlur}
        />
      </Box>
      {uses && (
        <>
          <Text label={tr('param', 'Parameter')} help={tr(`paramHelp.${uses}`, paramHelp[uses])} value={rule.param ?? ''} onChange={(param) => update({ param })} onBlur={field.onBlur} />
          <Text label={tr(`value.${uses}`, valueLabel[uses])} help={tr(`valueHelp.${uses}`, valueHelp[uses])} value={uses === 'status' ? value : reversalValueText(rule)} onChange={uses === 'status' ? setValue : (typed) => update({ value: typed })} onBlur={field.onBlur} />
        </>
      )}
    </Group>
  );
}
