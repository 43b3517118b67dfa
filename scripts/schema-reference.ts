/**
 * `docs/schema-reference.md`, written by `npm run gen` (`scripts/gen-types.ts`) and checked by
 * `npm run gen:check`: every keyword the meta-schema (`src/schema/meta-schema.ts`) accepts, with what it
 * takes, what it does and an example from the project's schemas; every widget and render; then every
 * resource of `schemas/` with its fields (types, storage, widget, list filter), quick search, data limit and
 * permission nodes. The text depends on the meta-schema and the schemas only, in a fixed order.
 *
 * A keyword, widget or render without a note here fails the generation (and so `npm run gen:check`), so the
 * reference never leaves one out. Each has an example: the first schema of `schemas/` that uses it, else
 * `WRITTEN_EXAMPLE` below, which is put through the same check as a file of `schemas/` (beside them) at every
 * generation, so an example the meta-schema or the normalising rules no longer accept fails it too.
 */
import type { FieldDefinition, ResourceDefinition } from '../src/schema/definition.js';
import { checkResources } from '../src/schema/check.js';
import type { SchemaFile } from '../src/schema/load-files.js';
import type { LocalText } from '../src/schema/local-text.js';
import { RENDERS, resourceMetaSchema, WIDGETS, type WidgetName } from '../src/schema/meta-schema.js';
import { widgetOf } from '../src/schema/widget-of.js';

type Node = Record<string, unknown>;

/** What each resource keyword does, by its path in the schema (`x-menu.parent`). */
const RESOURCE_NOTES: Record<string, string> = {
  $schema: 'ignored: lets an editor find a JSON Schema of its own',
  $id: "the resource's name, `<area>/<name>`: the file's path under `schemas/` without `.json`",
  title: 'the name of one row, in the singular (forms and their messages: "Add Survey")',
  description: 'a note for the reader of the file; shown nowhere',
  type: 'always `"object"`',
  required: 'fields an add must give (an edit may leave them out, but not empty them)',
  additionalProperties: 'ignored: a row never holds a field the schema does not declare',
  properties: 'the fields, by column name (snake_case): see the field keywords below',
  'x-table': "the table's name",
  'x-renamedFrom': "the table's previous name: the migration renames it and keeps the rows",
  'x-primaryKey': 'the key column (default `id`)',
  'x-controller': "the API's segment (`survey.Survey` answers `/<entrance>.php/survey.Survey/index` …); none: no API",
  'x-menu': "the back office's menu entry and its permission nodes",
  'x-menu.name': 'the rule name and route (default: made from `x-controller`, `survey.Survey` → `survey/survey`)',
  'x-menu.parent':
    "the menu the entry goes under: an admin rule, another schema's menu, or a directory declared here; naming none of them stops start-up",
  'x-menu.parent.name': "the directory's rule name",
  'x-menu.parent.title': "the directory's title, made when no rule has its name",
  'x-menu.parent.icon': "the directory's icon (default `fa fa-folder`)",
  'x-menu.parent.weigh': "the directory's place among its siblings (higher first)",
  'x-menu.title': "the list's name in the menu and on its tab",
  'x-menu.icon': "BuildAdmin's icon name (`fa fa-cube`, `el-icon-UserFilled`)",
  'x-menu.weigh': "the entry's place among its siblings (higher first)",
  'x-menu.buttons':
    'the actions granted one by one, each a permission node `<menu>/<button>` (default: those the list offers)',
  'x-list': 'how the list reads',
  'x-list.quickSearch': 'the columns the quick search box matches (`relation.column` through an `x-ref` with `as`)',
  'x-list.defaultSort': 'the order a list opens in, `column,desc;column,asc`',
  'x-list.weighField': 'the column drag-and-drop sorting writes (`sortable`)',
  'x-list.tree': 'a tree: `index` answers every row, unpaginated, nested under `children`',
  'x-list.tree.parentField': "the column holding the parent's key",
  'x-list.tree.labelField': 'the column a tree select shows',
  'x-list.tree.selectable':
    'the rows a tree select (a parent picker) offers: those whose `field` holds `value` (`{"field": "status", "value": "1"}`: enabled ones); without it, every row',
  'x-list.tree.selectable.field': 'the column to test',
  'x-list.tree.selectable.value': "the value it must hold, one of the column's `enum` when it has one",
  'x-list.indexes': 'filter × order combinations to index beyond the 12 per table derived from the schema',
  'x-list.indexes.filter': 'the equality-filtered column (or columns, in order) leading the index',
  'x-list.indexes.sort': 'the sortable column the index then orders by (the key follows it)',
  'x-dataLimit': "which rows an administrator sees: theirs, their groups', … (`false`: all)",
  'x-dataLimit.mode': '`personal`, `parent`, `allAuth`, `allAuthAndOthers` or a group id',
  'x-dataLimit.field': 'the column holding the owning administrator (default `admin_id`)',
  'x-indexes': 'indexes beyond those the schema implies (orders, filters, references)',
  'x-indexes.columns': "the index's columns, in order",
  'x-indexes.unique': 'a unique index',
  'x-timestamps': '`false`: `create_time` and `update_time` are not filled in',
  'x-seed': 'rows inserted with the table when it is made (and columns added later filled in them)',
};

/** What each field keyword does, by its path in the field (`x-ui.widget`). */
const FIELD_NOTES: Record<string, string> = {
  type: 'the JSON type on the wire; `[type, "null"]` for a column that may be empty',
  title: 'the label of the column and of the input',
  description: 'help shown under the input',
  enum: 'the values allowed (labelled by `x-ui.options`)',
  default: "the value of an add that gives none, and the column's default",
  minimum: 'the smallest number allowed',
  maximum: 'the largest number allowed',
  exclusiveMinimum: 'numbers must be above this',
  exclusiveMaximum: 'numbers must be below this',
  multipleOf: 'numbers must be a multiple of this',
  minLength: 'the fewest characters allowed',
  maxLength: "the most characters allowed (and the column's width)",
  pattern: 'a regular expression the text must match, checked in linear time in the server and the forms',
  format:
    'a kind of text: `money` (integer cents in the table, `"12.50"` on the wire), dates and times, email, uri, mobile, color; of an integer: `percent` (a rate in basis points, 1500 = 15 %, shown as "15%" and typed as 15 or 15.5)',
  items: 'what a list field holds',
  'items.type': 'the type of each element',
  'items.enum': 'the values each element may take',
  'items.maxLength': 'the most characters of each element',
  minItems: 'the fewest elements',
  maxItems: 'the most elements',
  uniqueItems: 'no element twice',
  readOnly: 'ignored on input (keys, timestamps, figures the server keeps)',
  writeOnly: 'never sent to a client (password hashes); left empty on an edit it keeps its value',
  'x-renamedFrom': "the column's previous name: the migration renames it and keeps the data",
  'x-unique': '`true`: no two rows share a value; `"when-set"`: the same for rows where it is set',
  'x-storage':
    'how the column keeps the value: `csv` (`1,2,3`), `json`, `text`, or `virtual` (no column: a hook handles it)',
  'x-patternMessage': 'the message shown when `pattern` fails',
  'x-ref': 'a reference to a row of another resource',
  'x-ref.resource': 'the `$id` referred to',
  'x-ref.label': 'the column a select shows for the row',
  'x-ref.key': 'the column this field holds (default the key)',
  'x-ref.many': 'several rows, kept as a list',
  'x-ref.as': 'list rows carry the related row under this name (its key, label and `fields`)',
  'x-ref.fields': 'more columns of the related row the list carries',
  'x-ui': 'hints for the generated screens',
  'x-ui.widget': 'the input of the form (default: what the type, format, enum or reference implies)',
  'x-ui.render': 'how the list shows the value (default: what the widget implies)',
  'x-ui.list': '`true`: a column of the list; `"optional"`: offered by the Columns button, hidden until picked',
  'x-ui.form': '`false`: no input in the add and edit forms',
  'x-ui.search': "the operator the list's filter offers for the column",
  'x-ui.options': "a label for each enum value (and `true`/`false`): a text, or a text with its chip's `color`",
  'x-ui.sortable': 'the list may be ordered by the column (an index is made for it)',
  'x-ui.width': "the column's width in the list, in pixels",
  'x-ui.columns': 'widget `array`: the titles of its two columns; "Key" and "Value" when absent',
  'x-ui.columns.key': "the key column's title (a text)",
  'x-ui.columns.value': "the value column's title (a text)",
  'x-transitions': 'the moves an edit may make: `{from: [to, …]}`; an add may start in any value',
};

const WIDGET_NOTES = {
  string: 'a one-line text box',
  textarea: 'a text box of several lines',
  password: 'a password box; left empty on an edit it keeps the value',
  number: 'a whole-number box',
  float: 'a decimal-number box',
  money: 'an amount in yuan, two decimals',
  radio: 'radio buttons, one per enum value (up to four values)',
  checkbox: 'check boxes, several values',
  switch: 'an on/off switch',
  select: 'a drop-down of the enum values',
  selects: 'a drop-down choosing several values',
  remoteSelect: 'a searchable drop-down of the rows of the referenced resource',
  remoteSelects: 'the same, choosing several rows',
  date: 'a date picker',
  datetime: 'a date and time picker',
  year: 'a year picker',
  time: 'a time-of-day picker',
  image: 'one uploaded image',
  images: 'several uploaded images',
  file: 'one uploaded file',
  files: 'several uploaded files',
  editor: 'a rich-text editor',
  city: 'a province and city picker',
  icon: 'an icon picker',
  color: 'a colour picker',
  array: 'a list of key/value pairs',
  weigh: 'the sort weight (drag-and-drop order)',
  hidden: 'no visible input; the value is kept',
} satisfies Record<WidgetName, string>;

const RENDER_NOTES = {
  text: 'the value as text',
  tag: "a coloured chip with the value's label",
  tags: 'a chip per value',
  image: 'a thumbnail',
  images: 'a thumbnail per image',
  switch: 'an on/off switch that saves when toggled',
  datetime: "a Unix time as a date and time in the site's time zone",
  url: 'a link',
  money: 'an amount in yuan',
  icon: 'the icon drawn',
  color: 'a swatch of the colour',
  none: "nothing (the column holds what a row's buttons use)",
} satisfies Record<(typeof RENDERS)[number], string>;

/**
 * One schema written for the reference: what no schema of the project uses yet (keywords, widgets, renders)
 * gets its example here. It is checked beside the files of `schemas/` as one of them would be (a problem
 * names it by `EXAMPLE_FILE`), and printed in full.
 */
const EXAMPLE_FILE = 'scripts/schema-reference.ts (WRITTEN_EXAMPLE)';
const WRITTEN_EXAMPLE = {
  $schema: '../meta-schema.json',
  $id: 'demo/example',
  title: { 'zh-cn': '示例', en: 'Example' },
  description: "Uses what the project's schemas do not.",
  type: 'object',
  additionalProperties: false,
  'x-table': 'demo_example',
  'x-renamedFrom': 'demo_sample',
  'x-controller': 'demo.Example',
  'x-menu': {
    parent: { name: 'demo', title: { 'zh-cn': '演示', en: 'Demo' } },
    title: { 'zh-cn': '示例', en: 'Examples' },
  },
  'x-list': { indexes: [{ filter: 'status', sort: 'weight' }] },
  properties: {
    id: { type: 'integer', readOnly: true },
    status: { type: 'string', enum: ['open', 'closed'], default: 'open', 'x-ui': { search: '=' } },
    weight: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1000,
      multipleOf: 0.5,
      'x-ui': { widget: 'float', width: 120, sortable: true },
    },
    sizes: { type: 'array', items: { type: 'string', enum: ['s', 'm', 'l'] }, maxItems: 3, uniqueItems: true },
    owner: { type: ['string', 'null'], 'x-ref': { resource: 'system/user', key: 'username', label: 'nickname' } },
    note: { type: 'string', 'x-ui': { form: false, render: 'text' } },
    since: { type: 'integer', 'x-ui': { widget: 'year' } },
    opens: { type: 'string', format: 'time' },
    photos: {
      type: 'array',
      items: { type: 'string' },
      'x-storage': 'csv',
      'x-ui': { widget: 'images', render: 'images' },
    },
    manual: { type: 'string', 'x-ui': { widget: 'file' } },
    papers: { type: 'array', items: { type: 'string' }, 'x-storage': 'csv', 'x-ui': { widget: 'files' } },
    body: { type: 'string', 'x-storage': 'text', 'x-ui': { widget: 'editor' } },
    city: { type: 'string', 'x-ui': { widget: 'city' } },
    shade: { type: 'string', format: 'color', 'x-ui': { render: 'color' } },
    token: { type: 'string', 'x-ui': { widget: 'hidden', render: 'none' } },
  },
};

const FIELD_SCHEMA = (resourceMetaSchema.properties.properties as unknown as { additionalProperties: Node })
  .additionalProperties;

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\n/g, ' ').replace(/\|/g, '\\|');
}

function code(value: unknown): string {
  const text = JSON.stringify(value);
  const short = text.length > 90 ? `${text.slice(0, 87)}…` : text;
  return `\`${short.replace(/`/g, "'")}\``;
}

/** What a meta-schema node accepts, in a few words. */
function accepts(node: Node): string {
  if ('const' in node) return code(node.const);
  if (Array.isArray(node.enum)) return node.enum.map((value) => code(value)).join(' | ');
  if (Array.isArray(node.anyOf)) {
    const variants = node.anyOf as Node[];
    const properties = variants.find((variant) => variant.properties)?.properties as Node | undefined;
    if (properties && 'zh-cn' in properties && 'en' in properties && !('color' in properties))
      return 'a text: a string, or `{"zh-cn", "en"}`';
    if (properties && 'color' in properties) return 'a text, or `{"zh-cn", "en", "color"}`';
    return variants.map(accepts).join(' or ');
  }
  const type = Array.isArray(node.type) ? (node.type as string[]).join(' or ') : String(node.type ?? 'any value');
  if (type === 'array' && node.items) return `a list of ${accepts(node.items as Node)}`;
  if (type === 'object' && node.properties)
    return `an object: ${Object.keys(node.properties as Node)
      .map((key) => `\`${key}\``)
      .join(', ')}`;
  if (type === 'object' && node.additionalProperties && typeof node.additionalProperties === 'object')
    return 'an object of values by name';
  if (node.pattern) return `${type} matching \`${String(node.pattern)}\``;
  return type;
}

/** The sub-keywords of a node: its properties, those of its object variant, or those of its list's items. */
function childrenOf(node: Node): [string, Node][] {
  if (node.properties) return Object.entries(node.properties as Record<string, Node>);
  const variant = Array.isArray(node.anyOf)
    ? (node.anyOf as Node[]).find((item) => item.properties && !('zh-cn' in (item.properties as Node)))
    : undefined;
  if (variant) return Object.entries(variant.properties as Record<string, Node>);
  const items = node.items as Node | undefined;
  if (node.type === 'array' && items?.properties) return Object.entries(items.properties as Record<string, Node>);
  return [];
}

/** Every keyword under `node`, with its dotted path, depth first in the meta-schema's order. */
function keywords(node: Node, prefix = ''): [string, Node][] {
  return childrenOf(node).flatMap(([key, child]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [[path, child] as [string, Node], ...(key === 'properties' && !prefix ? [] : keywords(child, path))];
  });
}

/** The value at a dotted path of a raw object, when it is there. */
function valueAt(raw: unknown, path: string): unknown {
  let value = raw;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    // a keyword of a list's items (`x-indexes.columns`): the first item that writes it
    value = Array.isArray(value)
      ? (value.find((item) => item !== null && typeof item === 'object' && key in item) as Node | undefined)?.[key]
      : (value as Node)[key];
  }
  return value;
}

function keywordTable(
  rows: [string, Node][],
  notes: Record<string, string>,
  uses: (path: string) => { count: number; example?: string },
): string[] {
  const lines = ['| keyword | takes | does | used | e.g. |', '|---|---|---|---|---|'];
  for (const [path, node] of rows) {
    const note = notes[path];
    if (note === undefined) throw new Error(`scripts/schema-reference.ts: no note for the keyword "${path}": add one`);
    const { count, example } = uses(path);
    if (example === undefined)
      throw new Error(
        `scripts/schema-reference.ts: no schema uses the keyword "${path}", nor WRITTEN_EXAMPLE: add it there`,
      );
    lines.push(`| \`${path}\` | ${cell(accepts(node))} | ${cell(note)} | ${count} | ${cell(example)} |`);
  }
  const unused = Object.keys(notes).filter((path) => !rows.some(([row]) => row === path));
  if (unused.length)
    throw new Error(
      `scripts/schema-reference.ts: notes for keywords the meta-schema does not have: ${unused.join(', ')}`,
    );
  return lines;
}

/** `Title (标题)`, or the text once when both languages read the same. */
function bothLanguages(text: LocalText): string {
  return text.en === text['zh-cn'] ? text.en : `${text.en} (${text['zh-cn']})`;
}

function fieldRules(definition: ResourceDefinition, field: FieldDefinition, required: ReadonlySet<string>): string {
  const rules: string[] = [];
  if (field.name === definition.primaryKey) rules.push('key');
  if (required.has(field.name)) rules.push('required');
  if (field.readOnly) rules.push('read-only');
  if (field.writeOnly) rules.push('write-only');
  if (field.unique) rules.push(field.uniqueWhenSet ? 'unique when set' : 'unique');
  if (field.format) rules.push(`format ${field.format}`);
  if (field.ref)
    rules.push(
      `→ \`${field.ref.resource}\`${field.ref.many ? ' (many)' : ''}${field.ref.as ? ` as \`${field.ref.as}\`` : ''}`,
    );
  if (field.enum) rules.push(`one of ${field.enum.map((value) => `\`${value}\``).join(', ')}`);
  if (field.transitions)
    rules.push(
      `moves ${Object.entries(field.transitions)
        .map(([from, to]) => `${from} → ${to.join(', ')}`)
        .join('; ')}`,
    );
  return rules.join('; ');
}

function resourceSection(definition: ResourceDefinition, file: SchemaFile | undefined): string[] {
  const raw = (file?.raw ?? {}) as Node;
  const required = new Set(Array.isArray(raw.required) ? (raw.required as string[]) : []);
  const facts = [`\`${file?.file ?? `schemas/${definition.id}.json`}\``, `table \`${definition.table}\``];
  if (definition.controller) facts.push(`API \`${definition.controller}\``);
  else facts.push('no API');
  if (definition.menu)
    facts.push(
      `menu \`${definition.menu.name}\`${definition.menu.parent ? ` under \`${definition.menu.parent}\`` : ''}`,
    );
  const lines = [`### ${definition.id}`, '', `${bothLanguages(definition.title)}: ${facts.join(', ')}.`, ''];
  if (definition.menu)
    lines.push(
      `Permission nodes: ${[definition.menu.name, ...definition.menu.buttons.map((button) => `${definition.menu?.name}/${button}`)].map((node) => `\`${node}\``).join(', ')}.`,
      '',
    );
  const list: string[] = [];
  if (definition.list.quickSearch.length)
    list.push(`quick search over ${definition.list.quickSearch.map((name) => `\`${name}\``).join(', ')}`);
  if (definition.list.defaultSort.length)
    list.push(
      `ordered by ${definition.list.defaultSort.map((term) => `\`${term.field} ${term.direction}\``).join(', ')}`,
    );
  if (definition.list.tree) list.push(`a tree by \`${definition.list.tree.parentField}\``);
  if (definition.dataLimit)
    list.push(
      `rows limited to the administrator (\`${definition.dataLimit.mode}\` by \`${definition.dataLimit.field}\`)`,
    );
  if (list.length) lines.push(`List: ${list.join('; ')}.`, '');
  lines.push(
    '| field | title | type | stored as | widget | list | filter | rules |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const field of definition.fields) {
    const type = `${field.wireType}${field.wireType === 'array' && field.itemType ? ` of ${field.itemType}` : ''}${field.nullable ? ' or null' : ''}`;
    const stored = field.storage
      ? `${field.storage.type}${field.storage.length ? `(${field.storage.length})` : ''}`
      : 'virtual';
    const list =
      field.ui.list === undefined ? '' : field.ui.list === 'optional' ? 'optional' : field.ui.list ? 'yes' : 'no';
    lines.push(
      `| \`${field.name}\` | ${cell(bothLanguages(field.title))} | ${type} | ${stored} | ${widgetOf(field)}${field.ui.render ? ` / ${String(field.ui.render)}` : ''} | ${list} | ${field.ui.search ? cell(`\`${field.ui.search}\``) : ''} | ${cell(fieldRules(definition, field, required))} |`,
    );
  }
  lines.push('');
  return lines;
}

/** The whole page, from the checked definitions and the files they came from (same order). */
export function schemaReference(definitions: readonly ResourceDefinition[], files: readonly SchemaFile[]): string {
  const byId = new Map(files.map((file) => [String((file.raw as Node)?.$id), file]));
  const sorted = [...definitions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const raws = sorted.map((definition) => ({ id: definition.id, raw: (byId.get(definition.id)?.raw ?? {}) as Node }));
  const fieldsOf = (raw: Node) => Object.entries((raw.properties ?? {}) as Record<string, Node>);

  // checked beside the project's schemas, so that its reference is checked too
  const [example] = checkResources([{ file: EXAMPLE_FILE, raw: WRITTEN_EXAMPLE }, ...files]);
  const exampleFields = fieldsOf(WRITTEN_EXAMPLE);
  const resourceUses = (path: string) => {
    const using = raws.filter(({ raw }) => valueAt(raw, path) !== undefined);
    if (using[0]) return { count: using.length, example: `${using[0].id}: ${code(valueAt(using[0].raw, path))}` };
    const written = valueAt(WRITTEN_EXAMPLE, path);
    return { count: 0, example: written === undefined ? undefined : `[example](#example): ${code(written)}` };
  };
  const fieldUses = (path: string) => {
    const using = raws.flatMap(({ id, raw }) =>
      fieldsOf(raw)
        .filter(([, field]) => valueAt(field, path) !== undefined)
        .map(([name, field]) => ({ at: `${id}.${name}`, field })),
    );
    if (using[0]) return { count: using.length, example: `${using[0].at}: ${code(valueAt(using[0].field, path))}` };
    const written = exampleFields.find(([, field]) => valueAt(field, path) !== undefined);
    return {
      count: 0,
      example: written ? `[example](#example) \`${written[0]}\`: ${code(valueAt(written[1], path))}` : undefined,
    };
  };
  const allFields = sorted.flatMap((definition) =>
    definition.fields.map((field) => ({ at: `${definition.id}.${field.name}`, field })),
  );
  /** The first field of the project drawn so, else the example's, as a table cell; none fails the generation. */
  const exampleOf = (
    kind: 'widget' | 'render',
    name: string,
    using: readonly { at: string }[],
    drawn: (field: FieldDefinition) => boolean,
  ) => {
    if (using[0]) return `\`${using[0].at}\``;
    const written = example.fields.find(drawn);
    if (!written)
      throw new Error(
        `scripts/schema-reference.ts: no schema uses the ${kind} "${name}", nor WRITTEN_EXAMPLE: add a field with it there`,
      );
    return `[example](#example) \`${written.name}\`: ${cell(code((WRITTEN_EXAMPLE.properties as Record<string, unknown>)[written.name]))}`;
  };
  const fieldCount = allFields.length;

  const resourceKeywords = keywords(resourceMetaSchema as unknown as Node);
  const fieldKeywords = keywords(FIELD_SCHEMA);

  const widgetLines = ['| widget | draws | fields | e.g. |', '|---|---|---|---|'];
  for (const widget of WIDGETS) {
    const using = allFields.filter(({ field }) => widgetOf(field) === widget);
    widgetLines.push(
      `| \`${widget}\` | ${cell(WIDGET_NOTES[widget])} | ${using.length} | ${exampleOf('widget', widget, using, (field) => widgetOf(field) === widget)} |`,
    );
  }
  const renderLines = ['| render | shows | fields | e.g. |', '|---|---|---|---|'];
  for (const render of RENDERS) {
    const using = allFields.filter(({ field }) => field.ui.render === render);
    renderLines.push(
      `| \`${render}\` | ${cell(RENDER_NOTES[render])} | ${using.length} | ${exampleOf('render', render, using, (field) => field.ui.render === render)} |`,
    );
  }

  return [
    '# Schema reference',
    '',
    '<!-- Generated by `npm run gen` from src/schema/meta-schema.ts and schemas/ (scripts/schema-reference.ts): do not edit by hand; `npm run gen:check` fails while it is stale. -->',
    '',
    `Every keyword a file of \`schemas/\` may use, and every resource the project declares (${sorted.length} resources, ${fieldCount} fields).`,
    'How to write a schema, with the rules behind these keywords: [writing a schema](schemas.md). "Used" counts the',
    'schemas (or fields) of `schemas/` that write the keyword; the example is the first of them, or, for what none of',
    'them uses, [the example](#example) written for this page.',
    '',
    '## Resource keywords',
    '',
    ...keywordTable(resourceKeywords, RESOURCE_NOTES, resourceUses),
    '',
    '## Field keywords',
    '',
    'Each entry of `properties`:',
    '',
    ...keywordTable(fieldKeywords, FIELD_NOTES, fieldUses),
    '',
    '## Widgets',
    '',
    'The input a form draws for a field: `x-ui.widget`, or what its reference, enum, format and type imply. "Fields" counts',
    'the fields of `schemas/` drawn with it.',
    '',
    ...widgetLines,
    '',
    '## Renders',
    '',
    'How a list shows a value when `x-ui.render` names it (otherwise as the widget implies).',
    '',
    ...renderLines,
    '',
    '## Example',
    '',
    'A schema written for this page, using what no schema of `schemas/` uses yet. `npm run gen` checks it as it checks',
    'the files of `schemas/`, beside them, so it stays valid (it is written in `scripts/schema-reference.ts`).',
    '',
    '```json',
    JSON.stringify(WRITTEN_EXAMPLE, null, 2),
    '```',
    '',
    '## Resources',
    '',
    'Per resource: its file, table, API and menu; the permission nodes its menu seeds (granted to groups in the back',
    'office); how its list reads; and each field: its title, type on the wire, column, widget (and render), whether the',
    "list shows it, the operator the list's filter offers, and its rules.",
    '',
    ...sorted.flatMap((definition) => resourceSection(definition, byId.get(definition.id))),
  ].join('\n');
}
