import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLocalDateTime } from '../../src/contract/site-time.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Two admins edit one row: an edit form sends back the `update_time` it loaded, and a save
 * over a row that changed since is refused with a translated message, writing nothing; the form may then
 * reload, or save without the time to overwrite. A client that sends no `update_time` (BuildAdmin's
 * forms) saves as before. Concurrent saves of one loaded row: exactly one wins.
 */

type Row = Record<string, unknown>;

describe.each(DATABASES)('stale writes on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let groupId: number;

  const load = async (): Promise<Row> => {
    const answer = await server.admin<{ row: Row }>('user.Group/edit', { token, query: { id: groupId } });
    expect(answer.code, answer.msg).toBe(1);
    return answer.data.row;
  };
  const save = (row: Row, lang: 'en' | 'zh-cn' = 'en') => server.admin<{ type?: string; update_time?: number }>('user.Group/edit', { token, body: row, lang });
  const storedName = async () => ((await server.server.app.db.selectFrom('user_group').select('name').where('id', '=', groupId).executeTakeFirstOrThrow()) as { name: string }).name;

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
    const added = await server.admin('user.Group/add', { token, body: { name: 'Panel A', rules: [], status: '1' } });
    expect(added.code, added.msg).toBe(1);
    groupId = Number(((await server.server.app.db.selectFrom('user_group').select('id').where('name', '=', 'Panel A').executeTakeFirstOrThrow()) as { id: number }).id);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('refuses the second of two saves of one loaded row, and keeps the first', async () => {
    const first = await load();
    const second = await load();
    expect(typeof first.update_time).toBe('number');
    expect((await save({ ...first, name: 'Saved by first' })).code).toBe(1);
    const refused = await save({ ...second, name: 'Saved by second' });
    expect(refused.code).toBe(0);
    expect(refused.data).toMatchObject({ errorId: 'staleRecord' });
    expect(refused.data.type).toBe('stale record');
    expect(refused.data.update_time).toBe((await load()).update_time);
    expect(await storedName()).toBe('Saved by first');
    // Said in Chinese to a Chinese admin.
    expect((await save({ ...second, name: 'Saved by second' }, 'zh-cn')).msg).toBe('该记录在您打开后已被他人修改');
  });

  it('lets the refused admin overwrite by saving without the loaded time, or save after reloading', async () => {
    const stale = await load();
    expect((await save({ ...(await load()), name: 'Changed meanwhile' })).code).toBe(1);
    const overwrite: Row = { ...stale, name: 'Overwritten' };
    delete overwrite.update_time;
    expect((await save(overwrite)).code).toBe(1);
    expect(await storedName()).toBe('Overwritten');
    expect((await save({ ...(await load()), name: 'After reload' })).code).toBe(1);
    expect(await storedName()).toBe('After reload');
  });

  it('sees a save made in the same second as the load', async () => {
    const loaded = await load();
    expect((await save({ ...loaded, name: 'Quick one' })).code).toBe(1);
    expect((await save({ ...loaded, name: 'Quick two' })).code).toBe(0);
    const again = await load();
    expect((await save({ ...again, name: 'Quick three' })).code).toBe(1);
    expect((await save({ ...again, name: 'Quick four' })).code).toBe(0);
    expect(await storedName()).toBe('Quick three');
  });

  it('reads the loaded time as the site shows it, too', async () => {
    const loaded = await load();
    const zone = await server.server.app.config.timeZone();
    const asText = formatLocalDateTime(loaded.update_time, zone);
    expect((await save({ ...loaded, update_time: asText, name: 'From text' })).code).toBe(1);
    expect((await save({ ...loaded, update_time: asText, name: 'From old text' })).code).toBe(0);
    expect(await storedName()).toBe('From text');
  });

  it('lets exactly one of eight concurrent saves of one loaded row through', async () => {
    const loaded = await load();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => save({ ...loaded, name: `Racer ${index}` })));
    const winners = answers.map((answer, index) => (answer.code === 1 ? index : -1)).filter((index) => index >= 0);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === 0).every((answer) => answer.data.type === 'stale record')).toBe(true);
    expect(await storedName()).toBe(`Racer ${winners[0]}`);
  });
});
