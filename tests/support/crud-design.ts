/**
 * A CRUD design as BuildAdmin's `design.vue` posts it to `crud.Crud/generate` (written out by hand from
 * its FieldItem and `state.table`): a product with a title, price, switch, radio, set, image, a remote
 * select, a weigh and timestamps. tests/api/crud-designer.test.ts generates it through the designer;
 * tests/api/filter-order-plans.test.ts checks the list plans of the module it makes.
 */

type Row = Record<string, unknown>;

/** A field as `design.vue` posts it: FieldItem, with `table`/`form` flattened to their values by `startGenerate`. */
export function field(name: string, designType: string, values: Row = {}): Row {
  return {
    title: designType, name, type: 'varchar', dataType: '', length: 255, precision: 0, default: '', defaultType: 'EMPTY STRING',
    null: false, primaryKey: false, unsigned: false, autoIncrement: false, comment: name, designType,
    table: { render: 'none', operator: 'false', sortable: 'false' }, form: { validator: [], validatorMsg: '' },
    ...values,
  };
}

export const PRODUCT_FIELDS: Row[] = [
  field('id', 'pk', { type: 'int', length: 10, defaultType: 'NONE', primaryKey: true, unsigned: true, autoIncrement: true, comment: 'ID', formBuildExclude: true, table: { width: 70, operator: 'RANGE', sortable: 'custom' }, form: {} }),
  field('title', 'string', { length: 100, comment: '标题', table: { render: 'none', operator: 'LIKE', sortable: 'false' }, form: { validator: ['required'], validatorMsg: '' } }),
  field('price', 'float', { type: 'decimal', dataType: 'decimal(10,2)', length: 10, precision: 2, default: '0', defaultType: 'INPUT', comment: '价格', unsigned: true, table: { render: 'none', operator: 'RANGE', sortable: 'custom' }, form: { validator: ['float'], validatorMsg: '', step: 1 } }),
  field('status', 'switch', { type: 'tinyint', length: 1, default: '1', defaultType: 'INPUT', comment: '状态:0=禁用,1=启用', table: { render: 'switch', operator: 'eq', sortable: 'false' }, form: { validator: [], validatorMsg: '' } }),
  field('kind', 'radio', { type: 'enum', dataType: "enum('opt0','opt1')", default: 'opt0', defaultType: 'INPUT', comment: '类型:opt0=实物,opt1=虚拟', table: { render: 'tag', operator: 'eq', sortable: 'false' }, form: { validator: [], validatorMsg: '' } }),
  field('tags', 'checkbox', { type: 'set', dataType: "set('hot','new')", default: 'hot', defaultType: 'INPUT', comment: '标签:hot=热门,new=新品', table: { render: 'tags', operator: 'FIND_IN_SET', sortable: 'false' }, form: { validator: [], validatorMsg: '' } }),
  field('cover', 'image', { comment: '封面', table: { render: 'image', operator: 'false', sortable: 'false' }, form: { validator: [], validatorMsg: '', 'image-multi': false } }),
  field('owner_id', 'remoteSelect', {
    type: 'int', length: 10, unsigned: true, default: '0', defaultType: 'INPUT', comment: '负责人', table: { render: 'none', operator: 'LIKE', sortable: 'false' },
    form: { validator: [], validatorMsg: '', 'select-multi': false, 'remote-pk': 'id', 'remote-field': 'username', 'remote-table': 'admin', 'remote-controller': 'app/admin/controller/auth/Admin.php', 'remote-model': 'app/admin/model/Admin.php', 'relation-fields': 'username', 'remote-url': '', 'remote-primary-table-alias': '' },
  }),
  field('weigh', 'weigh', { type: 'int', length: 10, default: '0', defaultType: 'INPUT', null: true, comment: '权重', table: { operator: 'RANGE', sortable: 'custom' }, form: { validator: [], validatorMsg: '' } }),
  field('create_time', 'timestamp', { type: 'bigint', length: 16, null: true, defaultType: 'NULL', comment: '创建时间', formBuildExclude: true, table: { render: 'datetime', operator: 'RANGE', sortable: 'custom', width: 160, timeFormat: 'yyyy-mm-dd hh:MM:ss' }, form: { validator: ['date'], validatorMsg: '' } }),
  field('update_time', 'timestamp', { type: 'bigint', length: 16, null: true, defaultType: 'NULL', comment: '修改时间', formBuildExclude: true, table: { render: 'datetime', operator: 'RANGE', sortable: 'custom', width: 160, timeFormat: 'yyyy-mm-dd hh:MM:ss' }, form: { validator: ['date'], validatorMsg: '' } }),
];

/** `state.table` of `design.vue` as `generate` posts it. */
export function productTable(overrides: Row = {}): Row {
  return {
    name: 'test_product', comment: '测试商品表', quickSearchField: ['id', 'title'], defaultSortField: 'weigh', defaultSortType: 'desc',
    formFields: ['title', 'price', 'status', 'kind', 'tags', 'cover', 'owner_id', 'weigh'],
    columnFields: ['id', 'title', 'price', 'status', 'kind', 'tags', 'cover', 'owner_id', 'weigh', 'create_time'],
    generateRelativePath: '', isCommonModel: 0, modelFile: 'app/admin/model/test/Product.php', controllerFile: 'app/admin/controller/test/Product.php',
    validateFile: 'app/admin/validate/test/Product.php', webViewsDir: 'web/src/views/backend/test/product', databaseConnection: '', designChange: [], rebuild: 'No',
    ...overrides,
  };
}

