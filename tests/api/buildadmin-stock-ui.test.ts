import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Requests the stock BuildAdmin 2.1.2 admin screens make, as they make them (seen driving its built UI
 * against this server). The data rules' requests are pinned in `data-rules.test.ts`.
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
