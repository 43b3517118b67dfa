import type { AppContext } from '../app-context.js';

/**
 * The region table behind the address pickers: provinces (level 1, parent 0), their cities (level 2)
 * and the cities' districts (level 3).
 */

/** The regions of one level under `parent`, by id, as picker choices. */
export async function areaChoices(app: AppContext, parent: number, level: 1 | 2 | 3): Promise<{ value: number; label: string | null }[]> {
  const rows = await app.db.selectFrom('area').select(['id', 'name']).where('pid', '=', parent).where('level', '=', level).orderBy('id').execute();
  return rows.map((row) => ({ value: Number(row.id), label: row.name }));
}
