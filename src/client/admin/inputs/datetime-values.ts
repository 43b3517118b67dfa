import { toDate } from '../../format/datetime.js';
import type { FieldDefinition } from '../../../schema/definition.js';
import { formatDateTime } from '../fields/value-format.js';

/** Wire value (Unix seconds or `YYYY-MM-DD HH:mm:ss`) → `<input type="datetime-local" step="1">` text. */
export function toDateTimeLocal(value: unknown): string {
  const text = formatDateTime(value);
  return text ? text.replace(' ', 'T') : '';
}

/** `<input type="datetime-local">` text → the field's wire value (seconds for integer fields). */
export function fromDateTimeLocal(text: string, field: FieldDefinition): unknown {
  if (!text) return field.nullable ? null : field.wireType === 'integer' ? 0 : '';
  const date = toDate(text.replace('T', ' '));
  if (!date) return text;
  if (field.wireType === 'integer' || field.wireType === 'number') return Math.floor(date.getTime() / 1000);
  return formatDateTime(date);
}

/** `HH:mm` from a time input (when seconds are zero) → `HH:mm:ss`. */
export function toWireTime(text: string): string {
  return /^\d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
}
