/**
 * How a table's body cells wrap: between words only, Chinese included, so that a short label or name
 * ("默认分组", "Reason") stays whole in a narrow column instead of breaking after any character, as the
 * columns' titles do; the table grows (and scrolls sideways) rather than cut it. Longer text still wraps
 * at its spaces and punctuation, and a single word too long for the cell's room breaks where it must.
 */
export const CELL_WORDS_SX = { wordBreak: 'keep-all', overflowWrap: 'break-word' } as const;
