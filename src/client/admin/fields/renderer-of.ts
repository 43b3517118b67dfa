import type { FieldDefinition } from '../../../schema/definition.js';

export type RendererName = 'none' | 'text' | 'datetime' | 'tag' | 'tags' | 'image' | 'switch' | 'url' | 'money' | 'percent' | 'icon' | 'color' | 'relation' | 'object';

const ALIASES: Readonly<Record<string, RendererName>> = {
  none: 'none', text: 'text', datetime: 'datetime', date: 'datetime', tag: 'tag', tags: 'tags', image: 'image', images: 'image',
  switch: 'switch', url: 'url', file: 'url', files: 'url', money: 'money', icon: 'icon', color: 'color', colour: 'color',
  relation: 'relation',
};

const FROM_WIDGET: Readonly<Record<string, RendererName>> = {
  switch: 'switch', image: 'image', images: 'image', file: 'url', files: 'url', icon: 'icon', color: 'color',
  datetime: 'datetime', date: 'datetime', money: 'money', radio: 'tag', select: 'tag', checkbox: 'tags', selects: 'tags',
  remoteSelect: 'relation', remoteSelects: 'relation',
};

/** Which list renderer a field gets: `x-ui.render`, else what its widget, reference, format or enum imply. */
export function rendererOf(field: FieldDefinition): RendererName {
  const declared = field.ui.render ? ALIASES[field.ui.render] : undefined;
  if (declared) return declared;
  if (field.ref) return 'relation';
  const fromWidget = field.ui.widget ? FROM_WIDGET[field.ui.widget] : undefined;
  if (fromWidget) return fromWidget;
  switch (field.format) {
    case 'money':
      return 'money';
    case 'percent':
      return 'percent';
    case 'date':
    case 'date-time':
      return 'datetime';
    case 'uri':
      return 'url';
    case 'color':
      return 'color';
  }
  if (field.enum) return 'tag';
  // Dates travel as Unix seconds; a column named as a moment (`create_time`, `expire_time`, `computed_at`)
  // holds one even where its schema names no renderer, and never reads as a 10-digit number.
  if (field.wireType === 'integer' && /(?:^|_)(?:time|at)$/.test(field.name)) return 'datetime';
  // A yes/no value reads as a labelled chip, never as `true` / `false`.
  if (field.wireType === 'boolean') return 'tag';
  if (field.wireType === 'array') return 'tags';
  if (field.wireType === 'object') return 'object';
  return 'text';
}
