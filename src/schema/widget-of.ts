import type { FieldDefinition } from './definition.js';
import { WIDGETS, type WidgetName } from './meta-schema.js';
import { isOneOf } from '../contract/checks.js';

const ALIASES: Readonly<Record<string, WidgetName>> = {
  text: 'string', input: 'string', colour: 'color', richText: 'editor', richtext: 'editor', integer: 'number',
  remoteselect: 'remoteSelect', remoteselects: 'remoteSelects',
};

function isWidget(name: string): name is WidgetName {
  return isOneOf(WIDGETS, name);
}

/** A fixed list of choices: radio buttons for a few, a select for more. */
export function choiceWidget(count: number): 'radio' | 'select' {
  return count <= 4 ? 'radio' : 'select';
}

/** The widget a JSON type implies by itself: a switch for a boolean, a whole or a decimal number box. */
export function widgetOfType(type: unknown): 'switch' | 'number' | 'float' | undefined {
  if (type === 'boolean') return 'switch';
  if (type === 'integer') return 'number';
  return type === 'number' ? 'float' : undefined;
}

/**
 * The widget of a field: `x-ui.widget`, else what its reference, type, format and enum imply. The
 * screens draw it; the server checks what a member's form may use.
 */
export function widgetOf(field: FieldDefinition): WidgetName {
  const declared = field.ui.widget;
  if (declared) {
    if (isWidget(declared)) return declared;
    const alias = ALIASES[declared] ?? ALIASES[declared.toLowerCase()];
    if (alias) return alias;
  }
  if (field.ref) return field.ref.many ? 'remoteSelects' : 'remoteSelect';
  if (field.enum) {
    if (field.wireType === 'array') return 'selects';
    return choiceWidget(field.enum.length);
  }
  switch (field.format) {
    case 'money':
      return 'money';
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime';
    case 'time':
      return 'time';
    case 'color':
      return 'color';
  }
  if (field.wireType === 'array' && field.itemType === undefined) return 'array';
  const typed = widgetOfType(field.wireType);
  if (typed) return typed;
  if (field.wireType === 'object') return 'array';
  if (field.wireType === 'array') return 'selects';
  if (field.writeOnly && /password/i.test(field.name)) return 'password';
  if (field.storage?.type === 'text') return 'textarea';
  return 'string';
}
