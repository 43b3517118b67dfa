import { isDeepStrictEqual } from 'node:util';
import type { LocalText } from '../../schema/local-text.js';
import type { Translate } from '../i18n.js';
import { isRecord } from '../../contract/checks.js';

/**
 * What one version of a designed module changed from another, as a list a person reads: each line names the
 * field as the designer's screen does (`价格 (price)`) and what changed about it (its label, type, choices,
 * list column, filter, …), in the reader's language; never JSON, a schema keyword or a path.
 */

type Raw = Record<string, unknown>;

/** A schema text (a plain text, or one per language) as both languages. */
function textOf(value: unknown, fallback: string): LocalText {
  if (typeof value === 'string' && value !== '') return { 'zh-cn': value, en: value };
  if (isRecord(value)) {
    const zh = typeof value['zh-cn'] === 'string' ? value['zh-cn'] : '';
    const en = typeof value.en === 'string' ? value.en : '';
    return { 'zh-cn': zh || en || fallback, en: en || zh || fallback };
  }
  return { 'zh-cn': fallback, en: fallback };
}

/** A text shown as it is in every language (a name, or words already translated). */
function verbatim(text: string): LocalText {
  return { 'zh-cn': text, en: text };
}

/** A field as the designer names it: `价格 (price)`, or its name alone. */
function fieldWords(name: string, property: unknown): LocalText {
  const title = textOf(isRecord(property) ? property.title : undefined, name);
  const shown = (text: string) => (text && text !== name ? `${text} (${name})` : name);
  return { 'zh-cn': shown(title['zh-cn']), en: shown(title.en) };
}

/** The parts of a field a person changes in the designer, each with the words that name it. */
const FIELD_ASPECTS: readonly { words: string; read(property: Raw): unknown }[] = [
  { words: 'its label', read: (property) => property.title },
  { words: 'its type', read: (property) => [property.type, property.format, property['x-storage'], property.maxLength, property.minimum, property.maximum, isRecord(property.items) ? property.items.type : undefined] },
  { words: 'its choices', read: (property) => [property.enum ?? (isRecord(property.items) ? property.items.enum : undefined), ui(property).options] },
  { words: 'its default', read: (property) => property.default },
  { words: 'whether it must be unique', read: (property) => property['x-unique'] },
  { words: 'its related resource', read: (property) => property['x-ref'] },
  { words: 'its list column', read: (property) => [ui(property).list, ui(property).sortable, ui(property).width, ui(property).render] },
  { words: 'its filter', read: (property) => ui(property).search },
  { words: 'its place in the form', read: (property) => [ui(property).form, ui(property).widget] },
];

function ui(property: Raw): Raw {
  return isRecord(property['x-ui']) ? property['x-ui'] : {};
}

function required(raw: Raw | null): Set<string> {
  return new Set(Array.isArray(raw?.required) ? raw.required.filter((name): name is string => typeof name === 'string') : []);
}

/** The module's parts outside its fields, each with the words that name it. */
const MODULE_ASPECTS: readonly { words: string; read(raw: Raw): unknown }[] = [
  { words: 'The module’s title changed', read: (raw) => raw.title },
  { words: 'Its menu changed (place, icon or order)', read: (raw) => (isRecord(raw['x-menu']) ? { ...raw['x-menu'], title: undefined } : undefined) },
  { words: 'Its quick search changed', read: (raw) => (isRecord(raw['x-list']) ? raw['x-list'].quickSearch : undefined) },
  { words: 'Its default order changed', read: (raw) => (isRecord(raw['x-list']) ? raw['x-list'].defaultSort : undefined) },
];

/** The changes from `before` to `after` (raw schemas; null: none yet, or deleted), worded by `t`. */
export function versionChanges(before: Raw | null, after: Raw | null, t: Translate): string[] {
  if (!after) return [t('The module was deleted')];
  const fieldsBefore = isRecord(before?.properties) ? before.properties : {};
  const fieldsAfter = isRecord(after.properties) ? after.properties : {};
  if (!before) return [t('The module was created with %d fields', [Object.keys(fieldsAfter).length])];
  const lines: string[] = [];
  for (const aspect of MODULE_ASPECTS) if (!isDeepStrictEqual(aspect.read(before), aspect.read(after))) lines.push(t(aspect.words));
  const mustBefore = required(before);
  const mustAfter = required(after);
  const renamed = new Map<string, string>();
  for (const [name, property] of Object.entries(fieldsAfter)) {
    const from = isRecord(property) ? property['x-renamedFrom'] : undefined;
    if (typeof from === 'string' && !(name in fieldsBefore) && from in fieldsBefore) renamed.set(from, name);
  }
  for (const [name, property] of Object.entries(fieldsBefore)) {
    if (!(name in fieldsAfter) && !renamed.has(name)) lines.push(t('Field %s was removed', [fieldWords(name, property)]));
  }
  for (const [name, property] of Object.entries(fieldsAfter)) {
    const from = [...renamed].find(([, to]) => to === name)?.[0];
    const old = from ?? name;
    if (!(old in fieldsBefore)) {
      lines.push(t('Field %s was added', [fieldWords(name, property)]));
      continue;
    }
    if (from) lines.push(t('Field %s was renamed to %s: its values are kept', [fieldWords(from, fieldsBefore[from]), verbatim(name)]));
    const a = isRecord(fieldsBefore[old]) ? fieldsBefore[old] : {};
    const b = isRecord(property) ? property : {};
    const changed = FIELD_ASPECTS.filter((aspect) => !isDeepStrictEqual(aspect.read(a), aspect.read(b))).map((aspect) => t(aspect.words));
    if (changed.length) lines.push(t('Field %s: %s changed', [fieldWords(name, property), verbatim(changed.join(t(', ')))]));
    if (mustBefore.has(old) !== mustAfter.has(name)) lines.push(t(mustAfter.has(name) ? 'Field %s is now required' : 'Field %s is no longer required', [fieldWords(name, property)]));
  }
  return lines;
}
