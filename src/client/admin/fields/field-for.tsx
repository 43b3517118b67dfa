import type { ReactElement } from 'react';
import type { FieldDefinition, ResourceDefinition } from '../../../schema/definition.js';
import { ColorField } from './ColorField.js';
import { DateTimeField } from './DateTimeField.js';
import { IconField } from './IconField.js';
import { ImageField } from './ImageField.js';
import { MoneyField } from './MoneyField.js';
import { ObjectField } from './ObjectField.js';
import { PercentField } from './PercentField.js';
import { RelationField } from './RelationField.js';
import { rendererOf, type RendererName } from './renderer-of.js';
import { SwitchField } from './SwitchField.js';
import { TagField, TagsField } from './TagField.js';
import { TextValueField } from './TextValueField.js';
import { UrlField } from './UrlField.js';
import type { SchemaFieldProps } from './field-props.js';

const RENDERERS: Readonly<Record<RendererName, (props: SchemaFieldProps) => ReactElement | null>> = {
  none: () => null,
  text: TextValueField,
  datetime: DateTimeField,
  tag: TagField,
  tags: TagsField,
  image: ImageField,
  switch: SwitchField,
  url: UrlField,
  money: MoneyField,
  percent: PercentField,
  icon: IconField,
  color: ColorField,
  relation: RelationField,
  object: ObjectField,
};

/** The list cell of a schema field. */
export function fieldFor(field: FieldDefinition, definition: ResourceDefinition): ReactElement {
  const Renderer = RENDERERS[rendererOf(field)];
  return <Renderer field={field} definition={definition} />;
}
