import { rulesOf, type ConfigItem } from '../../../../../contract/config-values.js';
import type { FieldDefinition, ResourceDefinition, WireType } from '../../../../../schema/definition.js';
import { sameText } from '../../../../../schema/local-text.js';

/** How each config type's value travels (see `src/contract/config-values.ts`). */
const WIRE_TYPES: Readonly<Record<string, WireType>> = {
  switch: 'boolean',
  checkbox: 'array',
  selects: 'array',
  array: 'array',
  city: 'array',
  images: 'array',
  files: 'array',
  number: 'number',
};

/**
 * What the two columns of a key/value item hold, in the screen's words (message keys of the config screen);
 * an item not named here reads the generic "Key" and "Value".
 */
const KEY_VALUE_COLUMNS: Readonly<Record<string, { key: string; value: string }>> = {
  // a button's title, and the back-office address it opens
  config_quick_entrance: { key: 'config.columns.quickEntrance.key', value: 'config.columns.quickEntrance.value' },
};

/** Types that need settings the config screen does not have (a referenced resource) show as text. */
const AS_TEXT: ReadonlySet<string> = new Set(['remoteSelect', 'remoteSelects']);

/**
 * A config item as a form field, so the screen reuses the schema widgets: its type is the widget,
 * its dictionary the choices, its `required` rule the required mark.
 */
function configFieldOf(item: ConfigItem, translate: (key: string) => string): FieldDefinition {
  const columns = item.type === 'array' ? KEY_VALUE_COLUMNS[item.name] : undefined;
  const dictionary = item.content === '' ? undefined : item.content;
  const wireType = AS_TEXT.has(item.type) ? 'string' : (WIRE_TYPES[item.type] ?? 'string');
  return {
    name: item.name,
    // the server sends config titles and choices already in the admin's language
    title: sameText(item.title),
    wireType,
    storage: null,
    nullable: false,
    default: '',
    enum: dictionary ? Object.keys(dictionary) : undefined,
    // key/value rows (`array`) have object items; the other lists hold strings
    itemType: wireType === 'array' && item.type !== 'array' ? 'string' : undefined,
    readOnly: false,
    writeOnly: item.type === 'password',
    unique: false,
    uniqueWhenSet: false,
    ui: {
      widget: AS_TEXT.has(item.type) ? 'string' : item.type,
      options: dictionary && Object.fromEntries(Object.entries(dictionary).map(([value, label]) => [value, sameText(label)])),
      ...(columns ? { columns: { key: sameText(translate(columns.key)), value: sameText(translate(columns.value)) } } : {}),
    },
  };
}

/** The items of one group as a resource definition the schema widgets can read; `translate` gives the screen's own words. */
export function configDefinitionOf(base: ResourceDefinition, items: readonly ConfigItem[], translate: (key: string) => string): ResourceDefinition {
  return {
    ...base,
    fields: items.map((item) => configFieldOf(item, translate)),
    rowSchema: { ...base.rowSchema, required: items.filter((item) => rulesOf(item.rule).includes('required')).map((item) => item.name) },
  };
}
