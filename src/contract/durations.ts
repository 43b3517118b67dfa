/**
 * Durations kept as whole seconds (the token lifetimes of the config screen): the units a person enters
 * them in, the largest unit that writes a value exactly, and a value as words in a language. Shared by the
 * config screen, which shows and takes them in these units, and the server, whose refusals name the bounds
 * the same way.
 */

export const DURATION_UNITS = [
  { unit: 'day', seconds: 86_400 },
  { unit: 'hour', seconds: 3_600 },
  { unit: 'minute', seconds: 60 },
  { unit: 'second', seconds: 1 },
] as const;

export type DurationUnit = (typeof DURATION_UNITS)[number]['unit'];

/** Seconds in one `unit`. */
export function unitSeconds(unit: DurationUnit): number {
  return DURATION_UNITS.find((entry) => entry.unit === unit)?.seconds ?? 1;
}

/** 259200 → 3 days, 7200 → 2 hours, 90 → 90 seconds: the largest unit that writes the value exactly. */
export function durationParts(seconds: number): { amount: number; unit: DurationUnit } {
  const exact = DURATION_UNITS.find((entry) => seconds !== 0 && seconds % entry.seconds === 0) ?? DURATION_UNITS[DURATION_UNITS.length - 1];
  return { amount: seconds / exact.seconds, unit: exact.unit };
}

/** A duration as words in `language` ("3 days", "3天"), by the platform's own unit names. */
export function durationText(seconds: number, language: string): string {
  const { amount, unit } = durationParts(seconds);
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(amount);
}
