import { TAG_COLORS } from '../contract/value-tags.js';
/**
 * The shape every file in `schemas/` must have: draft-07 keywords we support plus our `x-` keywords.
 * `additionalProperties: false` everywhere, so an unknown keyword fails with its JSON path.
 */
const identifier = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } as const;
/** A text in one language (a string) or several: `{ "zh-cn": "名称", "en": "Name" }`. */
const localText = {
  anyOf: [
    { type: 'string' },
    { type: 'object', additionalProperties: false, minProperties: 1, properties: { 'zh-cn': { type: 'string' }, en: { type: 'string' } } },
  ],
} as const;

export type { TagColor } from '../contract/value-tags.js';

/** An enum value's label: a text, or the text with the colour of its chip. */
const optionLabel = {
  anyOf: [
    { type: 'string' },
    {
      type: 'object', additionalProperties: false, minProperties: 1,
      properties: { 'zh-cn': { type: 'string' }, en: { type: 'string' }, color: { enum: TAG_COLORS } },
    },
  ],
} as const;

const searchOperator = {
  type: 'string',
  enum: ['=', '<>', '>', '>=', '<', '<=', 'LIKE', 'NOT LIKE', 'IN', 'NOT IN', 'RANGE', 'NOT RANGE', 'NULL', 'NOT NULL', 'FIND_IN_SET'],
} as const;

export const WIDGETS = [
  'string', 'textarea', 'password', 'number', 'float', 'money', 'radio', 'checkbox', 'switch', 'select', 'selects',
  'remoteSelect', 'remoteSelects', 'date', 'datetime', 'year', 'time', 'image', 'images', 'file', 'files', 'editor',
  'city', 'icon', 'color', 'array', 'weigh', 'hidden',
] as const;
export type WidgetName = (typeof WIDGETS)[number];

export const RENDERS = ['text', 'tag', 'tags', 'image', 'images', 'switch', 'datetime', 'url', 'money', 'icon', 'color', 'none'] as const;

const fieldSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: {
      anyOf: [
        { enum: ['string', 'integer', 'number', 'boolean', 'array', 'object'] },
        {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: { enum: ['string', 'integer', 'number', 'boolean', 'array', 'object', 'null'] },
          contains: { const: 'null' },
        },
      ],
    },
    title: localText,
    // the help text shown under the input
    description: localText,
    enum: { type: 'array', minItems: 1, items: { type: ['string', 'integer'] } },
    default: {},
    minimum: { type: 'number' },
    maximum: { type: 'number' },
    exclusiveMinimum: { type: 'number' },
    exclusiveMaximum: { type: 'number' },
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    minLength: { type: 'integer', minimum: 0 },
    maxLength: { type: 'integer', minimum: 1 },
    pattern: { type: 'string', format: 'regex' },
    format: { enum: ['money', 'percent', 'date', 'date-time', 'time', 'email', 'uri', 'mobile', 'color'] },
    items: {
      type: 'object',
      additionalProperties: false,
      properties: {
        type: { enum: ['string', 'integer', 'number'] },
        enum: { type: 'array', items: { type: ['string', 'integer'] } },
        maxLength: { type: 'integer', minimum: 1 },
      },
    },
    minItems: { type: 'integer', minimum: 0 },
    maxItems: { type: 'integer', minimum: 0 },
    uniqueItems: { type: 'boolean' },
    readOnly: { type: 'boolean' },
    writeOnly: { type: 'boolean' },
    'x-renamedFrom': identifier,
    // true: a unique index; 'when-set': a unique index over the rows where the value is set, so optional
    // fields such as email may stay empty on many rows
    'x-unique': { enum: [true, false, 'when-set'] },
    'x-storage': { enum: ['text', 'json', 'csv', 'virtual'] },
    'x-patternMessage': { type: 'string' },
    'x-ref': {
      type: 'object',
      additionalProperties: false,
      required: ['resource'],
      properties: {
        resource: { type: 'string', pattern: '^[a-z0-9_]+(/[a-z0-9_]+)+$' },
        label: { type: 'string' },
        key: identifier,
        many: { type: 'boolean' },
        as: identifier,
        // columns of the related row a list carries beside its key and label (needs `as`)
        fields: { type: 'array', items: identifier, uniqueItems: true },
      },
    },
    'x-ui': {
      type: 'object',
      additionalProperties: false,
      properties: {
        widget: { enum: WIDGETS },
        render: { enum: RENDERS },
        list: { enum: [true, false, 'optional'] },
        form: { type: 'boolean' },
        search: searchOperator,
        options: { type: 'object', additionalProperties: optionLabel },
        sortable: { type: 'boolean' },
        width: { type: 'integer' },
        // widget array: what its two columns hold, e.g. {"key": "Provider code", "value": "Our outcome"}
        columns: { type: 'object', additionalProperties: false, minProperties: 1, properties: { key: localText, value: localText } },
      },
    },
    'x-transitions': {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
} as const;

export const resourceMetaSchema = {
  $id: 'chidao:resource-meta-schema',
  type: 'object',
  additionalProperties: false,
  required: ['$id', 'title', 'type', 'x-table', 'properties'],
  properties: {
    $schema: { type: 'string' },
    $id: { type: 'string', pattern: '^[a-z0-9_]+(/[a-z0-9_]+)+$' },
    // The singular names the forms and their messages ("Add Survey", "Survey created"); the menu's
    // `x-menu.title` names the list.
    title: { ...localText, description: 'The name of one row, in the singular, e.g. {"zh-cn": "问卷", "en": "Survey"}' },
    description: { type: 'string' },
    type: { const: 'object' },
    required: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    additionalProperties: { type: 'boolean' },
    properties: {
      type: 'object',
      minProperties: 1,
      propertyNames: identifier,
      additionalProperties: fieldSchema,
    },
    'x-table': identifier,
    'x-renamedFrom': identifier,
    'x-primaryKey': identifier,
    'x-controller': { type: 'string', pattern: '^([a-z][a-z0-9_]*\\.)*[A-Z][A-Za-z0-9]*$' },
    'x-menu': {
      type: 'object',
      additionalProperties: false,
      required: ['title'],
      properties: {
        name: { type: 'string', pattern: '^[a-zA-Z0-9_/]+$' },
        // a rule name, or a menu directory created (once) when no rule of that name exists yet
        parent: {
          anyOf: [
            { type: 'string' },
            {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'title'],
              properties: { name: { type: 'string', pattern: '^[a-zA-Z0-9_/]+$' }, title: localText, icon: { type: 'string' }, weigh: { type: 'integer' } },
            },
          ],
        },
        title: localText,
        icon: { type: 'string' },
        weigh: { type: 'integer' },
        buttons: { type: 'array', items: { type: 'string', pattern: '^[a-zA-Z]+$' } },
      },
    },
    'x-list': {
      type: 'object',
      additionalProperties: false,
      properties: {
        quickSearch: { type: 'array', items: { type: 'string' } },
        defaultSort: { type: 'string', pattern: '^[a-z0-9_]+,(asc|desc)(;[a-z0-9_]+,(asc|desc))*$' },
        weighField: identifier,
        tree: {
          type: 'object',
          additionalProperties: false,
          required: ['parentField', 'labelField'],
          properties: {
            parentField: identifier,
            labelField: identifier,
            selectable: {
              type: 'object',
              additionalProperties: false,
              required: ['field', 'value'],
              properties: { field: identifier, value: { type: 'string', maxLength: 100 } },
            },
          },
        },
        indexes: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['filter', 'sort'],
            properties: { filter: { anyOf: [identifier, { type: 'array', minItems: 1, items: identifier }] }, sort: identifier },
          },
        },
      },
    },
    'x-dataLimit': {
      anyOf: [
        { const: false },
        {
          type: 'object',
          additionalProperties: false,
          required: ['mode'],
          properties: {
            mode: { anyOf: [{ enum: ['parent', 'allAuth', 'allAuthAndOthers', 'personal'] }, { type: 'integer' }] },
            field: identifier,
          },
        },
      ],
    },
    'x-indexes': {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['columns'],
        properties: {
          columns: { type: 'array', minItems: 1, items: identifier },
          unique: { type: 'boolean' },
        },
      },
    },
    'x-timestamps': { type: 'boolean' },
    'x-seed': { type: 'array', items: { type: 'object' } },
  },
} as const;

/** Every keyword of ours, registered with ajv as annotations so strict mode accepts them. */
export const X_KEYWORDS = [...new Set([
  ...Object.keys(resourceMetaSchema.properties).filter((key) => key.startsWith('x-')),
  ...Object.keys(fieldSchema.properties).filter((key) => key.startsWith('x-')),
])];

/** The shape of a schema's locale file, `locales/<lang>/schemas/<group>/<name>.json`. */
export const schemaLocaleMetaSchema = {
  $id: 'chidao:schema-locale-meta-schema',
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string' },
    menu: { type: 'object', additionalProperties: false, properties: { title: { type: 'string' }, parent: { type: 'string' } } },
    fields: {
      type: 'object',
      additionalProperties: {
        anyOf: [
          { type: 'string' },
          {
            type: 'object',
            additionalProperties: false,
            properties: { title: { type: 'string' }, help: { type: 'string' }, options: { type: 'object', additionalProperties: { type: 'string' } } },
          },
        ],
      },
    },
  },
} as const;
