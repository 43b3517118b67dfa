import type { ResourceDefinition } from '../../../schema/definition.js';
import { typedDb, type DatabaseHandle } from '../../db/connection.js';
import { legacyRecipe } from './signature-recipe.js';

/**
 * Providers saved before signature recipes held only an algorithm's name in the column that is now
 * `signature` (`sig_algo`, renamed by the migration): `hmac_sha256`, `sha256_append`, `md5_append` or `none`.
 * Each start writes the equal recipe over such a name, so a provider signs and verifies exactly as before.
 * Idempotent: once converted, nothing matches.
 */
const LEGACY_ALGORITHMS = ['hmac_sha256', 'sha256_append', 'md5_append', 'none'] as const;

export async function upgradeLegacySignatures(handle: DatabaseHandle, definitions: readonly ResourceDefinition[]): Promise<void> {
  if (!definitions.some((definition) => definition.table === 'survey_provider')) return;
  const db = typedDb(handle.db);
  for (const name of LEGACY_ALGORITHMS) {
    await db.updateTable('survey_provider').set({ signature: JSON.stringify(legacyRecipe(name)) }).where('signature', '=', name).execute();
  }
}
