import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Requests the stock BuildAdmin 2.1.2 admin screens make, as they make them (seen driving its built UI
 * against this server): each test replays what a screen reads from one answer and sends in the next.
 */

type Row = Record<string, unknown>;

describe.each(DATABASES)('the stock BuildAdmin screens on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const admin = <T = Row>(path: string, request: Parameters<TestServer['admin']>[1] = {}) => server.admin<T>(path, { token, ...request });

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('names a data rule\'s controller by the key of the choice picked, which is the controller\'s file, among BuildAdmin\'s choices', async () => {
    // the rule forms' select: options `(label, key) in controllers`, the key posted as `controller`
    for (const path of ['security.DataRecycle/add', 'security.SensitiveData/add']) {
      const choices = await admin<{ controllers: Record<string, string> }>(path);
      expect(choices.code, choices.msg).toBe(1);
      for (const [key, label] of Object.entries(choices.data.controllers)) expect(key).toBe(label);
    }
    const { data } = await admin<{ controllers: Record<string, string> }>('security.DataRecycle/add');
    // as BuildAdmin's recycle rules, none names the module store or the terminal
    expect(Object.keys(data.controllers)).not.toContain('Module.php');
    expect(Object.keys(data.controllers)).not.toContain('Terminal.php');
    const picked = Object.keys(data.controllers).find((key) => data.controllers[key] === 'team/Team.php');
    expect(picked).toBeDefined();
    const added = await admin('security.DataRecycle/add', { body: { status: '1', name: 'Teams bin', controller: picked, data_table: 'team', primary_key: 'id' } });
    expect(added.code, added.msg).toBe(1);
    const rule = (await server.server.app.db.selectFrom('security_data_recycle').select(['controller', 'controller_as']).where('name', '=', 'Teams bin').executeTakeFirstOrThrow()) as Row;
    expect(rule).toEqual({ controller: 'team/Team.php', controller_as: 'team/team' });
    // and it takes effect: a deleted team lands in the recycle bin
    expect((await admin('team.Team/add', { body: { name: 'Night shift' } })).code).toBe(1);
    const team = (await server.server.app.db.selectFrom('team').select('id').where('name', '=', 'Night shift').executeTakeFirstOrThrow()) as { id: number };
    expect((await admin('team.Team/del', { method: 'DELETE', query: { ids: [team.id] } })).code).toBe(1);
    const recycled = await server.server.app.db.selectFrom('security_data_recycle_log').select('data_table').where('data_table', '=', 'team').execute();
    expect(recycled).toHaveLength(1);
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
