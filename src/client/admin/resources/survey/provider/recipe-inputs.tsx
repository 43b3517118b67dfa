import { FormControl, FormControlLabel, FormHelperText, FormLabel, MenuItem, Switch, TextField, Box } from '@mui/material';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useInput } from 'react-admin';
import {
  CHAIN_SOURCES, EXPIRY_KINDS, EXPIRY_PLACES, EXPIRY_UNITS, RECIPE_ALGORITHMS, RECIPE_CUTS, RECIPE_ENCODINGS, RECIPE_KEYS, RECIPE_PLACES, RECIPE_TEXTS, REVERSAL_KINDS,
  type RecipeChainKey, type RecipeValue, type ReversalValue,
} from '../../../../../contract/provider-tool.js';
import { isOneOf } from '../../../../../contract/checks.js';
import { usePrefixedTranslate } from '../../../../i18n/prefixed-translate.js';
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

interface ChoiceProps<T extends string> {
  label: string;
  help?: string;
  /** the stored value, which may be none of the choices */
  value: string;
  choices: readonly T[];
  labelOf: (choice: T) => string;
  onChange: (value: T) => void;
  onBlur?: () => void;
}

/** A labelled drop-down of fixed choices (MUI's select: Tab to it, Enter or the arrows open it). */
function Choice<T extends string>({ label, help, value, choices, labelOf, onChange, onBlur }: ChoiceProps<T>) {
  return (
    <TextField select size="small" label={label} helperText={help} value={value} onChange={(event) => { if (isOneOf(choices, event.target.value)) onChange(event.target.value); }} onBlur={onBlur} fullWidth>
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
  const tr = usePrefixedTranslate('survey.providerForm.recipe');
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
    <Group label={label ?? tr('title')} help={tr('help')} error={fieldState.error?.message}>
      <Choice
        {...common}
        label={tr('text')}
        help={tr('textHelp')}
        value={recipe.text}
        choices={RECIPE_TEXTS}
        labelOf={(choice) => tr(`texts.${choice}`)}
        onChange={(value) => update({ text: value })}
      />
      <Choice
        {...common}
        label={tr('in')}
        help={tr('inHelp')}
        value={recipe.in}
        choices={RECIPE_PLACES}
        labelOf={(choice) => tr(`places.${choice}`)}
        onChange={(value) => update({ in: value })}
      />
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Text
          {...common}
          label={tr('aliases')}
          help={tr('aliasesHelp')}
          value={aliases}
          onChange={setAliases}
        />
      </Box>
      {cutMatters(recipe) && (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <Choice
            {...common}
            label={tr('cut')}
            help={tr('cutHelp')}
            value={recipe.cut ?? 'pair'}
            choices={RECIPE_CUTS}
            labelOf={(choice) => tr(`cuts.${choice}`)}
            onChange={(value) => update({ cut: value })}
          />
        </Box>
      )}
      {recipe.text === 'values' && (
        <>
          <Text {...common} label={tr('names')} help={tr('namesHelp')} value={names} onChange={setNames} />
          <Text {...common} label={tr('separator')} help={tr('separatorHelp')} value={recipe.separator ?? ''} onChange={(value) => update({ separator: value })} />
        </>
      )}
      {recipe.text === 'template' && (
        <Box sx={{ gridColumn: '1 / -1' }}>
          <Text {...common} label={tr('template')} help={tr('templateHelp')} value={recipe.template ?? ''} onChange={(value) => update({ template: value })} />
        </Box>
      )}
      <Choice
        {...common}
        label={tr('key')}
        help={tr('keyHelp')}
        value={recipe.key}
        choices={RECIPE_KEYS}
        labelOf={(choice) => tr(`keys.${choice}`)}
        onChange={(value) => update({ key: value })}
      />
      {keyed && (
        <Text {...common} label={tr('keySeparator')} help={tr('keySeparatorHelp')} value={recipe.keySeparator ?? ''} onChange={(value) => update({ keySeparator: value })} />
      )}
      {recipe.key === 'hmac_chain' && (
        <>
          <Box sx={{ gridColumn: '1 / -1' }}>
            <Choice
              {...common}
              label={tr('chainLength')}
              help={tr('chainHelp')}
              value={String(chain.length)}
              choices={CHAIN_LENGTHS}
              labelOf={(choice) => choice}
              onChange={(value) => update({ chain: chainOfLength(chain, Number(value)) })}
            />
          </Box>
          {chain.map((step, index) => (
            <ChainStep key={index} index={index} step={step} onBlur={field.onBlur} onChange={(changed) => updateStep(index, changed)} />
          ))}
        </>
      )}
      {recipe.key !== 'none' && (
        <>
          <Choice
            {...common}
            label={tr('textHash')}
            help={tr('textHashHelp')}
            value={recipe.textHash ?? NO_TEXT_HASH}
            choices={[NO_TEXT_HASH, ...RECIPE_ALGORITHMS]}
            labelOf={(choice) => (choice === NO_TEXT_HASH ? tr('textHashes.none') : tr(`algorithms.${choice}`))}
            onChange={(value) => update({ textHash: value === NO_TEXT_HASH ? undefined : value })}
          />
          <Choice
            {...common}
            label={tr('algorithm')}
            help={tr('algorithmHelp')}
            value={recipe.algorithm}
            choices={RECIPE_ALGORITHMS}
            labelOf={(choice) => tr(`algorithms.${choice}`)}
            onChange={(value) => update({ algorithm: value })}
          />
          <Choice
            {...common}
            label={tr('encoding')}
            help={tr('encodingHelp')}
            value={recipe.encoding}
            choices={RECIPE_ENCODINGS}
            labelOf={(choice) => tr(`encodings.${choice}`)}
            onChange={(value) => update({ encoding: value })}
          />
        </>
      )}
      <Box sx={{ gridColumn: '1 / -1' }}>
        <FormControlLabel
          control={<Switch checked={expiry !== null} onChange={(event) => update({ expiry: event.target.checked ? { ...DEFAULT_EXPIRY } : null })} onBlur={field.onBlur} />}
          label={tr('expiry')}
        />
        <FormHelperText sx={{ mt: 0, mx: 0 }}>{tr('expiryHelp')}</FormHelperText>
      </Box>
      {expiry && (
        <>
          <Choice
            {...common}
            label={tr('expiryKind')}
            help={tr('expiryKindHelp')}
            value={expiry.kind ?? 'timestamp'}
            choices={EXPIRY_KINDS}
            labelOf={(choice) => tr(`expiryKinds.${choice}`)}
            onChange={(value) => {
              const { kind: _kind, ...rest } = expiry;
              update({ expiry: value === 'deadline' ? { ...rest, kind: 'deadline' } : rest });
            }}
          />
          <Choice
            {...common}
            label={tr('expiryIn')}
            help={tr('expiryInHelp')}
            value={expiry.in}
            choices={EXPIRY_PLACES}
            labelOf={(choice) => tr(`expiryPlaces.${choice}`)}
            onChange={(value) => update({ expiry: { ...expiry, in: value } })}
          />
          <Text {...common} label={tr('expiryName')} help={tr('expiryNameHelp')} value={expiry.name} onChange={(value) => update({ expiry: { ...expiry, name: value } })} />
          <Choice
            {...common}
            label={tr('expiryUnit')}
            help={tr('expiryUnitHelp')}
            value={expiry.unit}
            choices={EXPIRY_UNITS}
            labelOf={(choice) => tr(`units.${choice}`)}
            onChange={(value) => update({ expiry: { ...expiry, unit: value } })}
          />
          <Text
            {...common}
            label={expiry.kind === 'deadline' ? tr('skewDeadline') : tr('skew')}
            help={expiry.kind === 'deadline' ? tr('skewDeadlineHelp') : tr('skewHelp')}
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
function ChainStep({ index, step, onBlur, onChange }: { index: number; step: RecipeChainKey; onBlur: () => void; onChange: (step: RecipeChainKey) => void }) {
  const tr = usePrefixedTranslate('survey.providerForm.recipe');
  const number = { number: index + 1 };
  return (
    <>
      <Choice
        label={tr('chainFrom', number)}
        help={tr('chainFromHelp')}
        value={step.in}
        choices={CHAIN_SOURCES}
        labelOf={(choice) => tr(`chainSources.${choice}`)}
        onChange={(source) => onChange(source === 'secret' ? { in: 'secret' } : { in: source, name: step.in === 'secret' ? '' : step.name })}
        onBlur={onBlur}
      />
      {step.in === 'secret' ? (
        <Box />
      ) : (
        <Text label={tr('chainName', number)} help={tr('chainNameHelp')} value={step.name} onChange={(name) => onChange({ in: step.in, name })} onBlur={onBlur} />
      )}
    </>
  );
}

/** The `reversal` column: how the provider says a credited transaction is taken back. */
export function ReversalInput({ source = 'reversal', label }: { source?: string; label?: string }) {
  const { field, fieldState } = useInput({ source, parse: keepValue });
  const tr = usePrefixedTranslate('survey.providerForm.reversal');
  const rule = reversalOfValue(field.value);
  const update = (change: Partial<ReversalValue>) => field.onChange(reversalToValue({ ...rule, ...change }));
  const [value, setValue] = useListText(reversalValueText(rule), (typed) => update({ value: typed }));
  const uses = rule.by === 'status' || rule.by === 'flag' || rule.by === 'prefix' ? rule.by : undefined;
  return (
    <Group label={label ?? tr('title')} help={tr('byHelp')} error={fieldState.error?.message}>
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Choice
          label={tr('by')}
          value={rule.by}
          choices={REVERSAL_KINDS}
          labelOf={(choice) => tr(`kinds.${choice}`)}
          onChange={(by) => update({ by })}
          onBlur={field.onBlur}
        />
      </Box>
      {uses && (
        <>
          <Text label={tr('param')} help={tr(`paramHelp.${uses}`)} value={rule.param ?? ''} onChange={(param) => update({ param })} onBlur={field.onBlur} />
          <Text label={tr(`value.${uses}`)} help={tr(`valueHelp.${uses}`)} value={uses === 'status' ? value : reversalValueText(rule)} onChange={uses === 'status' ? setValue : (typed) => update({ value: typed })} onBlur={field.onBlur} />
        </>
      )}
    </Group>
  );
}
