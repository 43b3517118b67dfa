import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.js';
import { encodePng } from '../../src/server/captcha/png-encoder.js';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * What an upload may not do to the server: a body cut off before its end is the client's mistake and
 * stores nothing, on both upload endpoints (the back office's and the member's).
 */

const MEMBER_PASSWORD = 'Member_pass1';
const BOUNDARY = '----chidao-upload-test';

function pngOf(width: number, height: number, shade: number): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([shade, 255 - shade, (i / 4) % 256, 255], i);
  return encodePng(width, height, rgba);
}

const TAIL = `\r\n--${BOUNDARY}--\r\n`;

/** A multipart body with one `file` part: whole, or with the last `cut` bytes missing. */
function multipartBody(file: Buffer, filename: string, cut = 0): Buffer {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="topic"\r\n\r\nlimits\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const whole = Buffer.concat([head, file, Buffer.from(TAIL)]);
  return whole.subarray(0, whole.length - cut);
}

describe.each(DATABASES)('upload limits on %s', (kind) => {
  let server: TestServer;
  let storageDir: string;
  let adminToken: string;
  let memberToken: string;

  const db = () => server.server.app.db;
  const attachments = async () => (await db().selectFrom('attachment').select(['id', 'url']).execute()).length;
  const storedFiles = () => readdirSync(storageDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

  async function post(area: 'admin' | 'user', body: Buffer, lang: 'en' | 'zh-cn' = 'en'): Promise<Envelope<unknown> & { status: number }> {
    const path = area === 'admin' ? `${server.server.app.settings.adminEntrance}.php/ajax/upload` : '/api/ajax/upload';
    const headers: Record<string, string> = { 'think-lang': lang, server: 'true', 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    headers[area === 'admin' ? 'batoken' : 'ba-user-token'] = area === 'admin' ? adminToken : memberToken;
    const response = await server.raw(path, { method: 'POST', headers, body: new Uint8Array(body) });
    return { status: response.status, ...((await response.json()) as Envelope<unknown>) };
  }

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'chidao-limits-'));
    server = await startTestServer(kind, { env: { STORAGE_DIR: storageDir } });
    ({ token: adminToken } = await server.loginAdmin());
    await db().updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '', login_failure: 0 }).where('id', '=', 1).execute();
    const checkIn = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
    expect(checkIn.code).toBe(1);
    memberToken = checkIn.data.userInfo.token;
  });

  afterAll(async () => {
    await server?.close();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  });

  describe('a body cut off before its end', () => {
    it.each(['admin', 'user'] as const)('is refused on the %s upload as a client error, storing nothing', async (area) => {
      const before = { rows: await attachments(), files: storedFiles() };
      const image = pngOf(40, 40, area === 'admin' ? 1 : 2);
      // cut in the middle of the file, after all of it but its last byte, and in the boundary after it
      for (const cut of [Math.floor(image.length / 2) + TAIL.length, TAIL.length + 1, TAIL.length - 6]) {
        const answer = await post(area, multipartBody(image, 'cut.png', cut));
        expect({ status: answer.status, code: answer.code, msg: answer.msg }).toEqual({ status: 200, code: 0, msg: 'The upload was cut off before its end: please send the file again' });
      }
      const zh = await post(area, multipartBody(image, 'cut.png', 10), 'zh-cn');
      expect({ code: zh.code, msg: zh.msg }).toEqual({ code: 0, msg: '上传的数据在结束前中断了：请重新发送文件' });
      expect({ rows: await attachments(), files: storedFiles() }).toEqual(before);

      // the whole body is stored
      const whole = await post(area, multipartBody(image, 'whole.png'));
      expect({ code: whole.code, msg: whole.msg }).toEqual({ code: 1, msg: 'File uploaded successfully' });
      expect({ rows: await attachments(), files: storedFiles() }).toEqual({ rows: before.rows + 1, files: before.files + 1 });
    });
  });
});
