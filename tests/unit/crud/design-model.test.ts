import { describe, expect, it } from 'vitest';
import { designOf, newField, problemsOf, requestBodyOf, scratchDesign } from '../../../src/client/admin/pages/crud/design-model.js';

/**
 * The designer's working copy and what it posts: a module from the log comes back with its labels,
 * choices and flags; a changed name is posted as a rename (its data kept); names the server would refuse
 * are named before anything is sent.
 */

type Row = Record<string, unknown>;

describe('the CRUD designer’s design', () => {
  it('posts a new module with both labels, its choices with colours, and its list, search and form flags', () => {
    const design = scratchDesign();
    design.table = { ...design.table, name: 'book', title: { 'zh-cn': '图书', en: 'Books' }, quickSearch: ['title', 'gone'] };
    const title = { ...newField('string', 'title', { 'zh-cn': '书名', en: 'Title' }), required: true, unique: true, maxLength: 80 };
    const genre = { ...newField('select', 'genre', { 'zh-cn': '类别', en: 'Genre' }), options: [{ value: 'novel', 'zh-cn': '小说', en: 'Novel', color: 'success' as const }, { value: 'poem', 'zh-cn': '', en: '', color: '' as const }], inForm: false };
    design.fields.splice(1, 0, title, genre);
    expect(problemsOf(design)).toEqual([]);
    const body = requestBodyOf(design) as { type: string; table: Row; fields: Row[] };
    expect(body.type).toBe('create');
    expect(body.table).toMatchObject({ name: 'book', title: { 'zh-cn': '图书', en: 'Books' }, quickSearchField: ['title'], formFields: ['title'], columnFields: ['id', 'title', 'genre', 'create_time', 'update_time'] });
    expect(body.fields.map((field) => field.designType)).toEqual(['pk', 'string', 'select', 'timestamp', 'timestamp']);
    expect(body.fields[1]).toMatchObject({ name: 'title', length: 80, unique: true, label: { 'zh-cn': '书名', en: 'Title' }, table: { operator: 'LIKE' }, form: { validator: ['required'] } });
    expect(body.fields[2].options).toEqual({ novel: { 'zh-cn': '小说', en: 'Novel', color: 'success' }, poem: { 'zh-cn': 'poem', en: 'poem' } });
    expect(body).not.toHaveProperty('confirm');
    expect(requestBodyOf(design, true)).toHaveProperty('confirm', 1);
  });

  it('reads a design back from the log and posts a changed name as a rename', () => {
    const posted = requestBodyOf({ ...scratchDesign(), table: { ...scratchDesign().table, name: 'book' } }) as { table: Row; fields: Row[] };
    const draft = designOf('log', posted.table, posted.fields, true);
    expect(draft.fields.map((field) => [field.name, field.originalName])).toEqual([['id', 'id'], ['create_time', 'create_time'], ['update_time', 'update_time']]);
    expect(draft.fields[1].label).toEqual({ 'zh-cn': '创建时间', en: 'Created' });
    draft.fields[1] = { ...draft.fields[1], name: 'made_at' };
    const fields = (requestBodyOf(draft) as { fields: Row[] }).fields;
    expect(fields[1]).toMatchObject({ name: 'made_at', renamedFrom: 'create_time' });
    expect(fields[2]).not.toHaveProperty('renamedFrom');
  });

  it('reads BuildAdmin’s dictionary comment as choices, and names what the server would refuse', () => {
    const draft = designOf('db', { name: 'shop' }, [{ name: 'id', designType: 'pk' }, { name: 'state', designType: 'radio', comment: '状态：on=上架，off=下架' }], false);
    expect(draft.fields[1]).toMatchObject({ label: { 'zh-cn': '状态', en: '状态' }, options: [{ value: 'on', 'zh-cn': '上架' }, { value: 'off', 'zh-cn': '下架' }] });
    expect(draft.fields[1].originalName).toBeUndefined();
    draft.table.name = 'Shop!';
    draft.fields.push(newField('string', 'state'), newField('pk', 'id2'));
    expect(problemsOf(draft).map((problem) => problem.key)).toEqual(['crud.problems.tableName', 'crud.problems.fieldTwice', 'crud.problems.primaryKey']);
  });
});
