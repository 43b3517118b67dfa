import { Chip } from '@mui/material';
import type { ValueTag } from '../../schema/definition.js';
import { chipColour } from './tag-colour.js';

/**
 * Each listed enum field's values with their labels and chip colours, as the schema declares them: what a
 * member's list answer carries (`tags`), since the member pages are not drawn from definitions.
 */
export type ValueTags = Readonly<Record<string, Readonly<Record<string, ValueTag>>>>;

/** A value of an enum field as a chip, labelled and coloured as its schema declares (the raw value only if the answer names none). */
export function ValueChip({ tags, field, value }: { tags: ValueTags | undefined; field: string; value: string }) {
  const tag = tags?.[field]?.[value];
  return <Chip size="small" variant="outlined" color={chipColour(tag?.color)} label={tag?.label ?? value} />;
}
