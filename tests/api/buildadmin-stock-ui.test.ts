import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Requests the stock BuildAdmin 2.1.2 admin screens make, as they make them (seen driving its built UI
 * against this server in Chromium), and the fields of our answers those screens read. The stock client is
 * not part of this repository (docs/benchmarks.md says how it is built), so its requests are pinned here.
 * The data rules' requests are pinned in `data-rules.test.ts`.
 */

describe.each(DATABASES)('the stock BuildAdmin screens on %s', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('config screen: an item added through its add form is answered with allow_del set, so it shows its delete control, and its delete removes it', async () => {
    // the add dialog posts its form as is: the rule picker's array, the extend texts, the dictionary as content
    const body = { group: 'basics', weigh: 0, name: 'stock_added', title: 'Stock added', type: 'string', tip: '', rule: [], extend: '', inputExtend: '', content: '' };
    const added = await server.admin('routine.Config/add', { token, body });
    expect(added.code, added.msg).toBe(1);
    type Item = { id: number; name: string; allow_del: unknown };
    const basics = async () => (await server.admin<{ list: Record<string, { list?: Item[] }> }>('routine.Config/index', { token })).data.list.basics.list ?? [];
    // the screen draws `del-config-form-item`'s control when `item.allow_del` is truthy: 1 here, 0 (falsy) on installed items
    const item = (await basics()).find((row) => row.name === 'stock_added');
    expect(item?.allow_del).toBe(1);
    expect((await basics()).find((row) => row.name === 'site_name')?.allow_del).toBe(0);
    // its confirm sends DELETE with ids[] in the query, then reads the index again
    const removed = await server.raw(`/chidaoadminstator.php/routine.Config/del?ids[]=${item!.id}`, { method: 'DELETE', headers: { batoken: token, server: 'true' } });
    expect(await removed.json()).toMatchObject({ code: 1 });
    expect((await basics()).map((row) => row.name)).not.toContain('stock_added');
  });

  it('money-log screen: sorting by Change balance, Before change and After change asks `order=<prop>,asc|desc` and gets the rows in that numeric order', async () => {
    const user = await server.admin('user.User/add', { token, body: { username: 'sortmember', nickname: 'Sort', group_id: 1, password: 'Sort_pass1', status: 'enable' } });
    expect(user.code, user.msg).toBe(1);
    const list = await server.admin<{ list: { id: number; user_id: number }[] }>('user.User/index', { token, query: { quickSearch: 'sortmember' } });
    const userId = list.data.list[0].id;
    // amounts whose text order differs from their numeric order
    for (const money of ['20.00', '5.00', '-7.50', '100.00']) expect((await server.admin('user.MoneyLog/add', { token, body: { user_id: userId, money, memo: `m${money}` } })).code).toBe(1);
    type Row = { money: string; before: string; after: string; user: { username: string; nickname: string } };
    // the columns read `money`, `before`, `after` and the relation's `user.username` / `user.nickname`
    const sorted = async (order: string) => {
      const answer = await server.admin<{ list: Row[] }>('user.MoneyLog/index', { token, query: { order } });
      expect(answer.code, answer.msg).toBe(1);
      return answer.data.list.filter((row) => row.user?.username === 'sortmember');
    };
    const ascending = await sorted('money,asc');
    expect(ascending.map((row) => row.money)).toEqual(['-7.50', '5.00', '20.00', '100.00']);
    expect(ascending[0].user).toMatchObject({ username: 'sortmember', nickname: 'Sort' });
    expect((await sorted('money,desc')).map((row) => row.money)).toEqual(['100.00', '20.00', '5.00', '-7.50']);
    const numbers = (rows: Row[], column: 'before' | 'after') => rows.map((row) => Number(row[column]));
    const byNumber = (values: number[], direction: 1 | -1) => [...values].sort((a, b) => direction * (a - b));
    for (const column of ['before', 'after'] as const) {
      const up = numbers(await sorted(`${column},asc`), column);
      expect(up).toEqual(byNumber(up, 1));
      const down = numbers(await sorted(`${column},desc`), column);
      expect(down).toEqual(byNumber(down, -1));
    }
  });

  it('draws the file icon the attachment list shows as an <img>, at the entrance without .php too', async () => {
    // the stock client: `<entrance>/ajax/buildSuffixSvg?batoken=…&suffix=zip&server=1`, opened by the browser
    for (const path of [`/chidaoadminstator/ajax/buildSuffixSvg?batoken=${token}&suffix=zip&server=1`, `/chidaoadminstator.php/ajax/buildSuffixSvg?batoken=${token}&suffix=zip&server=1`]) {
      const answer = await server.raw(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      const svg = await answer.text();
      expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toContain('>ZIP</text>');
    }
    // the back office's needs a login, as BuildAdmin's does; the member centre's is public
    expect(await (await server.raw('/chidaoadminstator/ajax/buildSuffixSvg?suffix=zip')).json()).toMatchObject({ code: 303 });
    const member = await server.raw('/api/ajax/buildSuffixSvg?suffix=document&background=%23336699');
    expect(member.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const memberSvg = await member.text();
    expect(memberSvg).toContain('>DOCU</text>');
    expect(memberSvg).toContain('fill="#336699"');
    // what comes in is drawn as text, never as markup
    const hostile = await (await server.raw('/api/ajax/buildSuffixSvg?suffix=%3Cscript%3E&background=red%22%20onload%3D%22alert(1)')).text();
    expect(hostile).not.toContain('<scr');
    expect(hostile).toContain('&lt;SCR');
    expect(hostile).not.toContain('onload');
    // other paths under the entrance stay the client's pages
    expect((await server.raw('/chidaoadminstator/ajax/upload')).headers.get('content-type') ?? '').not.toMatch(/svg/);
  });
});
