import type { ResourceDefinition } from '../../schema/definition.js';
import type { LocalText } from '../../schema/local-text.js';
import type { DataLoss } from '../db/migrate.js';
import type { Translate } from '../i18n.js';

/**
 * The steps of a change that could lose data, worded for the person who must confirm them: each names the
 * field as the designer's screen does (`价格 (price)`) and says what happens to its values, in the reader's
 * language, never a table path or a column type.
 */

function wordsOf(definitions: readonly (ResourceDefinition | undefined)[], table: string, column: string): LocalText {
  const field = definitions.find((definition) => definition?.table === table)?.fields.find((item) => item.name === column);
  const shown = (text: string | undefined) => (text && text !== column ? `${text} (${column})` : column);
  return { 'zh-cn': shown(field?.title['zh-cn']), en: shown(field?.title.en) };
}

/**
 * `after` holds the definitions the change makes (a kept or narrowed field is named by its new title),
 * `before` those running now (a dropped field is named by the title it had).
 */
export function wordDataLosses(losses: readonly DataLoss[], t: Translate, before: readonly (ResourceDefinition | undefined)[], after: readonly (ResourceDefinition | undefined)[]): string[] {
  return losses.map((loss) => {
    const field = loss.kind === 'drop' ? wordsOf(before, loss.table, loss.column) : wordsOf([...after, ...before], loss.table, loss.column);
    if (loss.kind === 'drop') return t('Field %s is removed: the values it holds are deleted', [field]);
    if (loss.kind === 'require') return t('Field %s becomes required: records without a value get its default', [field]);
    if (loss.renamedFrom) return t('Field %s is renamed from %s and gets a narrower type: values that do not fit it are lost', [field, loss.renamedFrom]);
    return t('Field %s gets another type: values that do not fit it are lost', [field]);
  });
}
