/** Part of the day a greeting names (docs/client.md#greeting). */
type Greeting = 'lateNight' | 'earlyMorning' | 'morning' | 'noon' | 'afternoon' | 'evening';

/**
 * Under 5 late night; 5–8 early morning; 9–11 morning; 12–13 noon; 14–17 afternoon; 18–23 evening.
 * The hour is the site's hour, 0–23 (the one the dashboard's clock shows, not the browser's).
 */
export function greetingFor(hour: number): Greeting {
  if (hour < 5) return 'lateNight';
  if (hour < 9) return 'earlyMorning';
  if (hour < 12) return 'morning';
  if (hour < 14) return 'noon';
  if (hour < 18) return 'afternoon';
  return 'evening';
}
