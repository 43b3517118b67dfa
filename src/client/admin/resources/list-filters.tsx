import type { ReactElement } from 'react';
import type { SearchOperator } from '../../../contract/search.js';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { sameText, type LocalText } from '../../../schema/local-text.js';
import { lazyComponent } from '../../components/lazy-component.js';
import { enumChoices } from '../fields/enum-options.js';
import { definitionById } from '../../schemas.js';
import { referencedResourceName } from './resource-name.js';
import type { SchemaTranslate } from './schema-i18n.js';

/**
 * The inputs of the filters offered under "Add filter" load when one is shown: a list whose filters
 * stay closed draws only the quick search.
 */
const filterInputs = () => import('./filter-inputs.js');
const RangeFilterInput = lazyComponent(async () => (await filterInputs()).RangeFilterInput);
const FlagFilterInput = lazyComponent(async () => (await filterInputs()).FlagFilterInput);
const DateTimeFilterInput = lazyComponent(async () => (await filterInputs()).DateTimeFilterInput);
const SelectArrayInput = lazyComponent(async () => (await filterInputs()).SelectArrayInput);
const SelectInput = lazyComponent(async () => (await filterInputs()).SelectInput);
const NumberInput = lazyComponent(async () => (await filterInputs()).NumberInput);
const RemoteSelectInput = lazyComponent(async () => (await filterInputs()).RemoteSelectInput);
const TextInput = lazyComponent(async () => (await filterInputs()).TextInput);

/** The quick search filter key (the data provider sends it as `quickSearch`). */
export const QUICK_SEARCH_KEY = 'q';

/** Filter key of a field and operator: `field` for `=`, else `field@OPERATOR` (`title@LIKE`). */
export function filterKeyOf(field: string, operator: SearchOperator): string {
  return operator === '=' ? field : `${field}@${operator}`;
}

function isDateTimeField(field: FieldDefinition): boolean {
  return field.ui.render === 'datetime' || field.ui.widget === 'datetime' || field.format === 'date-time';
}

function isNumeric(field: FieldDefinition): boolean {
  return field.wireType === 'integer' || field.wireType === 'number';
}

/** The filter input of one searchable field, chosen by its operator and type. */
function filterInputOf(definition: ResourceDefinition, field: FieldDefinition, operator: SearchOperator, t: SchemaTranslate): ReactElement {
  const source = filterKeyOf(field.name, operator);
  const label = t(field.title);
  const choices = enumChoices(field, definition).map((choice) => ({ id: choice.id, name: t(choice.name) }));
  switch (operator) {
    case 'RANGE':
    case 'NOT RANGE':
      return <RangeFilterInput key={source} source={source} label={label} kind={isDateTimeField(field) ? 'datetime' : 'number'} />;
    case 'NULL':
    case 'NOT NULL':
      return <FlagFilterInput key={source} source={source} label={label} />;
    case 'IN':
    case 'NOT IN':
    case 'FIND_IN_SET':
      return choices.length > 0
        ? <SelectArrayInput key={source} source={source} label={label} choices={choices} translateChoice={false} />
        : <TextInput key={source} source={source} label={label} />;
    case 'LIKE':
    case 'NOT LIKE':
      return <TextInput key={source} source={source} label={label} />;
  }
  if (choices.length > 0) return <SelectInput key={source} source={source} label={label} choices={choices} translateChoice={false} />;
  if (field.ref && !field.ref.many && operator === '=') {
    return (
      <RemoteSelectInput
        key={source}
        source={source}
        label={label}
        reference={referencedResourceName(field.ref.resource)}
        labelField={field.ref.label}
        keyField={field.ref.key}
      />
    );
  }
  if (isDateTimeField(field)) return <DateTimeFilterInput key={source} source={source} label={label} />;
  if (isNumeric(field)) return <NumberInput key={source} source={source} label={label} />;
  return <TextInput key={source} source={source} label={label} />;
}

/** The title of a column, or of a joined relation's column (`user.username` → the user schema's "Username"). */
export function titleOfPath(definition: ResourceDefinition, path: string): LocalText {
  const [head, column] = path.split('.', 2);
  if (column === undefined) return definition.fields.find((field) => field.name === head)?.title ?? sameText(head);
  const relation = definition.fields.find((field) => field.ref?.as === head);
  const target = relation?.ref ? definitionById(relation.ref.resource) : undefined;
  return target?.fields.find((field) => field.name === column)?.title ?? sameText(column);
}

/**
 * The placeholder (and so the accessible name) of a list's quick search: what it searches, the titles
 * of `x-list.quickSearch` ("Quick search: Username / Nickname").
 */
export function quickSearchPlaceholder(definition: ResourceDefinition, t: SchemaTranslate, quickSearchText: string): string {
  const titles = definition.list.quickSearch.map((path) => t(titleOfPath(definition, path)));
  return `${quickSearchText}: ${titles.join(' / ')}`;
}

/**
 * The filters a list offers under "Add filter": one per field with an `x-ui.search` operator. (The
 * quick search, always shown, is the list's own text box: `quickSearchPlaceholder`.)
 */
export function filterInputsFor(definition: ResourceDefinition, t: SchemaTranslate): ReactElement[] {
  const fields = definition.fields.filter((field) => field.ui.search);
  return fields.map((field) => filterInputOf(definition, field, field.ui.search as SearchOperator, t));
}
