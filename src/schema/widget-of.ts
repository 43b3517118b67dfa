import type { FieldDefinition } from './definition.js';
import { WIDGETS, type WidgetName } from './meta-schema.js';

const ALIASES: Readonly<Record<string, WidgetName>> = {
  text: 'string', input: 'string', colour: 'color', richText: 'editor', richtext: 'editor', integer: 'number',
  remoteselect: 'remoteSelect', remoteselects: 'remoteSelects',
};

function isWidget(name: string): name is WidgetName {
  return (WIDGETS as readonly string[]).includes(name);
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
    return field.enum.length <= 4 ? 'radio' : 'select';
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
  switch (field.wireType) {
    case 'boolean':
      return 'switch';
    case 'integer':
      return 'number';
    case 'number':
      return 'float';
    case 'object':
      return 'array';
    case 'array':
      return 'selects';
  }
  if (field.writeOnly && /password/i.test(field.name)) return 'password';
  if (field.storage?.type === 'text') return 'textarea';
  return 'string';
}
