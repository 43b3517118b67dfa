import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, copyProject, startTestServer, type TestServer } from '../support/test-server.js';
import {
  newField,
  requestBodyOf,
  scratchDesign,
  type DesignDraft,
} from '../../src/client/admin/pages/crud/design-model.js';

/**
 * A designed module's recycle rule from the designer (issue 40, items 11 and 16): `generate` with `recycle`
 * makes one rule for the module's controller in the design's transaction, so a row deleted in the module lands
 * in the recycle bin and restores; without it none is made; regenerating makes no second rule; turning it off
 * switches the rule off (its logged rows stay); deleting the design switches it off too. `preview` says how
 * the rule stands, which the Generate dialog's checkbox starts from.
 */

type Row = Record<string, unknown>;

function design(table: string): DesignDraft {
  const draft = scratchDesign();
  draft.table = { ...draft.table, name: table, title: { 'zh-cn': '图书', en: 'Books' } };
  draft.fields.splice(1, 0, newField('string', 'name', { 'zh-cn': '名称', en: 'Name' }));
  return draft;
}

describe.each(DATABASES)('the designer’s recycle rule on %s', (kind) => {
  let dir: string;
  let server: TestServer;
  let token: string;
  const crud = <T = unknown>(action: string, body: Row) => server.admin<T>(`crud.Crud/${action}`, { token, body });
  const rules = async (controller: string) =>
    (await server.server.app.db
      .selectFrom('security_data_recycle')
      .selectAll()
      .where('controller', '=', controller)
      .execute()) as Row[];
  const recycleOf = async (table: string) =>
    (await crud<{ recycle: { rule: string; keep: boolean } }>('preview', requestBodyOf(design(table)))).data.recycle;

  beforeAll(async () => {
    dir = copyProject('chidao-recycle-');
    server = await startTestServer(kind, { schemasDir: join(dir, 'schemas') });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes one rule with the option, keeps a deleted row in the bin and restores it; regenerating adds none', async () => {
    // a new module: no rule yet, the checkbox starts ticked
    expect(await recycleOf('lib_book')).toEqual({ rule: 'none', keep: true });
    const generated = await crud('generate', { ...requestBodyOf(design('lib_book')), recycle: true });
    expect(generated.code, generated.msg).toBe(1);
    const [rule, ...more] = await rules('lib/Book.php');
    expect(more).toEqual([]);
    expect(rule).toMatchObject({
      name: '图书',
      controller_as: 'lib/book',
      data_table: 'lib_book',
      primary_key: 'id',
      status: '1',
    });
    expect(await recycleOf('lib_book')).toEqual({ rule: 'enabled', keep: true });

    const added = await server.admin<{ id: number }>('lib.Book/add', { token, body: { name: 'Dune' } });
    expect(added.code, added.msg).toBe(1);
    expect(
      (await server.admin('lib.Book/del', { token, method: 'DELETE', query: { ids: [added.data.id] } })).code,
    ).toBe(1);
    expect((await server.admin<{ list: Row[] }>('lib.Book/index', { token })).data.list).toEqual([]);
    const logged = (await server.server.app.db
      .selectFrom('security_data_recycle_log')
      .selectAll()
      .where('data_table', '=', 'lib_book')
      .execute()) as Row[];
    expect(logged.map((row) => [row.recycle_id, JSON.parse(String(row.data)).name])).toEqual([[rule.id, 'Dune']]);
    expect(
      (await server.admin('security.DataRecycleLog/restore', { token, body: { ids: [Number(logged[0].id)] } })).code,
    ).toBe(1);
    expect((await server.admin<{ list: Row[] }>('lib.Book/index', { token })).data.list.map((row) => row.name)).toEqual(
      ['Dune'],
    );

    // a second row deleted while the rule is on: its log row is what turning the rule off must keep
    const second = await server.admin<{ id: number }>('lib.Book/add', { token, body: { name: 'Emma' } });
    expect(
      (await server.admin('lib.Book/del', { token, method: 'DELETE', query: { ids: [second.data.id] } })).code,
    ).toBe(1);
    const kept = async () =>
      (
        (await server.server.app.db
          .selectFrom('security_data_recycle_log')
          .select('data')
          .where('data_table', '=', 'lib_book')
          .execute()) as Row[]
      ).map((item) => JSON.parse(String(item.data)).name);
    expect(await kept()).toEqual(['Emma']);

    // generating again with the option: still the one rule
    expect((await crud('generate', { ...requestBodyOf(design('lib_book')), recycle: true })).code).toBe(1);
    expect((await rules('lib/Book.php')).map((row) => row.id)).toEqual([rule.id]);

    // turned off: the rule is switched off, its logged row stays, and a delete no longer reaches the bin
    expect((await crud('generate', { ...requestBodyOf(design('lib_book')), recycle: false })).code).toBe(1);
    expect((await rules('lib/Book.php')).map((row) => [row.id, row.status])).toEqual([[rule.id, '0']]);
    expect(await recycleOf('lib_book')).toEqual({ rule: 'disabled', keep: false });
    const row = (await server.admin<{ list: Row[] }>('lib.Book/index', { token })).data.list[0];
    expect((await server.admin('lib.Book/del', { token, method: 'DELETE', query: { ids: [row.id] } })).code).toBe(1);
    expect(await kept()).toEqual(['Emma']);

    // on again, then the design deleted: its rule is switched off, not removed
    expect((await crud('generate', { ...requestBodyOf(design('lib_book')), recycle: true })).code).toBe(1);
    expect((await rules('lib/Book.php')).map((item) => [item.id, item.status])).toEqual([[rule.id, '1']]);
    const log = (await server.server.app.db
      .selectFrom('crud_log')
      .select('id')
      .where('table_name', '=', 'lib_book')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()) as { id: number };
    expect((await crud('delete', { id: log.id })).code).toBe(1);
    expect((await rules('lib/Book.php')).map((item) => [item.id, item.status])).toEqual([[rule.id, '0']]);
  });

  it('makes no rule without the option', async () => {
    expect((await crud('generate', requestBodyOf(design('lib_disc')))).code).toBe(1);
    expect((await crud('generate', { ...requestBodyOf(design('lib_tape')), recycle: false })).code).toBe(1);
    expect(await rules('lib/Disc.php')).toEqual([]);
    expect(await rules('lib/Tape.php')).toEqual([]);
    // a generated module without a rule: the checkbox reflects it (unticked)
    expect(await recycleOf('lib_tape')).toEqual({ rule: 'none', keep: false });
  });
});
