import type { ResourceDefinition } from '../../../schema/definition.js';
import { dynamicDb, type DatabaseHandle } from '../../db/connection.js';
import { LEGACY_SIGNATURES, legacyRecipe } from './signature-recipe.js';

/**
 * Providers saved before signature recipes held only an algorithm's name in the column that is now
 * `signature` (`sig_algo`, renamed by the migration): `hmac_sha256`, `sha256_append`, `md5_append` or `none`.
 * Each start writes the equal recipe over such a name, so a provider signs and verifies exactly as before.
 * Idempotent: once converted, nothing matches.
 */
export async function upgradeLegacySignatures(handle: DatabaseHandle, definitions: readonly ResourceDefinition[]): Promise<void> {
  if (!definitions.some((definition) => definition.table === 'survey_provider')) return;
  // The column holds JSON now; an old name is plain text in it, which the typed rows do not describe.
  const db = dynamicDb(handle.db);
  const table: string = 'survey_provider';
  for (const name of LEGACY_SIGNATURES) {
    await db.updateTable(table).set({ signature: JSON.stringify(legacyRecipe(name)) }).where('signature', '=', name).execute();
  }
}
