import type { StoredRow } from '../../db/connection.js';
import { fromJson } from '../../db/values.js';
import { isReportedStatus, type ReportedStatus } from '../../../contract/outcomes.js';

/** The provider's exit code map (its own code → our outcome); empty when it is not a map. */
export function exitMapOf(provider: Pick<StoredRow<'survey_provider'>, 'exit_map'>): Record<string, unknown> {
  const map: unknown = fromJson(provider.exit_map || null, {});
  return map && typeof map === 'object' && !Array.isArray(map) ? (map as Record<string, unknown>) : {};
}

/** A status the provider sent: its own exit code through the map, or one of the status names a provider may report. */
export function mapProviderStatus(provider: Pick<StoredRow<'survey_provider'>, 'exit_map'>, reported: string): ReportedStatus | undefined {
  const mapped = exitMapOf(provider)[reported];
  if (isReportedStatus(mapped)) return mapped;
  return isReportedStatus(reported) ? reported : undefined;
}
