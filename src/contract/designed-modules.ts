/**
 * Modules designed in the back office's CRUD generator are schemas with the `$id` `crud/<table>` (written to
 * `schemas/crud/<table>.json`). Shared by the server, which makes them, and the designer screen, which
 * tells a table it may design (none yet, or a designed module's) from one another schema owns.
 */
export const DESIGNED_AREA = 'crud';

export function designedIdOf(table: string): string {
  return `${DESIGNED_AREA}/${table}`;
}

