import type { TagColor } from '../../schema/meta-schema.js';

/** The colours an MUI chip takes. */
export type ChipColour = Exclude<TagColor, 'danger'> | 'error';

/**
 * MUI's colour of a chip whose value the schema gives a meaning: its declared colour (BuildAdmin's
 * `danger` is MUI's `error`), else neutral. Back office and member pages draw chips through this one rule.
 */
export function chipColour(declared: TagColor | undefined): ChipColour {
  return declared === 'danger' ? 'error' : (declared ?? 'default');
}
