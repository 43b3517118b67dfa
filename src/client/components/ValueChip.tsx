import { Chip } from '@mui/material';
import type { ValueTags } from '../../contract/value-tags.js';
import { chipColour } from './tag-colour.js';


/** A value of an enum field as a chip, labelled and coloured as its schema declares (the raw value only if the answer names none). */
export function ValueChip({ tags, field, value }: { tags: ValueTags | undefined; field: string; value: string }) {
  const tag = tags?.[field]?.[value];
  return <Chip size="small" variant="outlined" color={chipColour(tag?.color)} label={tag?.label ?? value} />;
}
