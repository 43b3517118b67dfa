/**
 * Colours of an enum value's chip, by what the value means: `success` (done, paid, enabled), `warning`
 * (waits for someone, needs a look), `danger` (refused, reversed, failed), `info` (in progress, set by
 * hand), `default` (neutral: a kind, a category, off), `primary` (highlighted). BuildAdmin's (Element
 * Plus) tag names, plus `default`. Schemas declare them per enum value (`x-enum`).
 */
export const TAG_COLORS = ['primary', 'success', 'info', 'warning', 'danger', 'default'] as const;
export type TagColor = (typeof TAG_COLORS)[number];

/** How a page in one language draws one value of an enum field: its label, and its chip's colour when the schema gives one. */
export interface ValueTag {
  label: string;
  color?: TagColor;
}

/**
 * Each listed enum field's values with their labels and chip colours, as the schema declares them: what a
 * member's list answer carries (`tags`), since the member pages are not drawn from definitions.
 */
export type ValueTags = Readonly<Record<string, Readonly<Record<string, ValueTag>>>>;
