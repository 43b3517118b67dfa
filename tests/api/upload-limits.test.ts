import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.js';
import { encodePng } from '../../src/server/captcha/png-encoder.js';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { formatLocalDateTime, parseLocalDateTime } from '../../src/contract/site-time.js';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * What an upload may not do to the server: a body cut off before its end is the client's mistake and
 * stores nothing, on both upload endpoints (the back office's and the member's); a member uploads at most
 * UPLOAD_RATE_LIMIT files a minute and UPLOAD_DAILY_QUOTA bytes a day, counted in the database so two
 * server processes on one database agree.
 */

const MEMBER_PASSWORD = 'Member_pass1';
const RATE_LIMIT = 8;
const QUOTA = 20 * 1024;
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
  /** a second process on the same database */
  let other: TestServer;
  let storageDir: string;
  let adminToken: string;
  let memberToken: string;
  let counter = 0;

  const db = () => server.server.app.db;
  const attachments = async () => (await db().selectFrom('attachment').select(['id', 'url']).execute()).length;
  const storedFiles = () => readdirSync(storageDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

  async function post(area: 'admin' | 'user', body: Buffer, options: { lang?: 'en' | 'zh-cn'; token?: string; via?: TestServer } = {}): Promise<Envelope<unknown> & { status: number }> {
    const path = area === 'admin' ? `${server.server.app.settings.adminEntrance}.php/ajax/upload` : '/api/ajax/upload';
    const headers: Record<string, string> = { 'think-lang': options.lang ?? 'en', server: 'true', 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    headers[area === 'admin' ? 'batoken' : 'ba-user-token'] = options.token ?? (area === 'admin' ? adminToken : memberToken);
    const response = await (options.via ?? server).raw(path, { method: 'POST', headers, body: new Uint8Array(body) });
    return { status: response.status, ...((await response.json()) as Envelope<unknown>) };
  }

  /** A new member, signed in: its token. */
  async function newMember(): Promise<{ id: number; token: string }> {
    const username = `lim${++counter}${kind.slice(0, 2)}`;
    const added = await server.admin('user.User/add', { token: adminToken, body: { username, nickname: username, group_id: 1, password: MEMBER_PASSWORD } });
    expect(added.code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: MEMBER_PASSWORD } });
    expect(login.code).toBe(1);
    return { id: login.data.userInfo.id, token: login.data.userInfo.token };
  }

  /** A zip of `size` bytes, different from every other one. */
  function zipOf(size: number): Buffer {
    const bytes = Buffer.alloc(size, ++counter % 251);
    bytes.write('PK\x05\x06', 0, 'latin1');
    bytes.writeUInt32BE(counter, 8);
    return bytes;
  }

  const outcome = (answer: Envelope<unknown>) => ({ code: answer.code, msg: answer.msg });

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'chidao-limits-'));
    const env = { STORAGE_DIR: storageDir, UPLOAD_RATE_LIMIT: String(RATE_LIMIT), UPLOAD_DAILY_QUOTA: String(QUOTA) };
    server = await startTestServer(kind, { env });
    other = await startTestServer(kind, { env, databaseUrl: server.databaseUrl, keepDatabase: true });
    ({ token: adminToken } = await server.loginAdmin());
    await db().updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '', login_failure: 0 }).where('id', '=', 1).execute();
    const checkIn = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
    expect(checkIn.code).toBe(1);
    memberToken = checkIn.data.userInfo.token;
  });

  afterAll(async () => {
    await other?.close();
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
      const zh = await post(area, multipartBody(image, 'cut.png', 10), { lang: 'zh-cn' });
      expect({ code: zh.code, msg: zh.msg }).toEqual({ code: 0, msg: '上传的数据在结束前中断了：请重新发送文件' });
      expect({ rows: await attachments(), files: storedFiles() }).toEqual(before);

      // the whole body is stored
      const whole = await post(area, multipartBody(image, 'whole.png'));
      expect({ code: whole.code, msg: whole.msg }).toEqual({ code: 1, msg: 'File uploaded successfully' });
      expect({ rows: await attachments(), files: storedFiles() }).toEqual({ rows: before.rows + 1, files: before.files + 1 });
    });
  });

  describe('a member\'s uploads', () => {
    it(`are at most ${RATE_LIMIT} a minute, counted across processes; the back office is not limited`, async () => {
      const member = await newMember();
      const rows = await attachments();
      // half through one process, half through the other
      for (let i = 0; i < RATE_LIMIT; i++) {
        const answer = await post('user', multipartBody(zipOf(100), `f${i}.zip`), { token: member.token, via: i % 2 === 0 ? server : other });
        expect(outcome(answer)).toEqual({ code: 1, msg: 'File uploaded successfully' });
      }
      for (const via of [server, other]) {
        const refused = await post('user', multipartBody(zipOf(100), 'more.zip'), { token: member.token, via });
        expect(refused.msg).toMatch(new RegExp(`^Too many uploads: at most ${RATE_LIMIT} a minute, please retry in (\\d+) seconds$`));
        const seconds = Number(/retry in (\d+) seconds/.exec(refused.msg)?.[1]);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(61);
      }
      const zh = await post('user', multipartBody(zipOf(100), 'more.zip'), { token: member.token, lang: 'zh-cn' });
      expect(zh.msg).toMatch(new RegExp(`^上传过于频繁：每分钟最多 ${RATE_LIMIT} 次，请在 \\d+ 秒后重试$`));
      expect(await attachments()).toBe(rows + RATE_LIMIT);

      // refused tries are not counted: once the minute has passed, the member uploads again
      await db().updateTable('login_attempt').set((eb) => ({ create_time: eb('create_time', '-', 61) })).where('scope', '=', 'upload').where('account', '=', String(member.id)).execute();
      expect(outcome(await post('user', multipartBody(zipOf(100), 'later.zip'), { token: member.token }))).toEqual({ code: 1, msg: 'File uploaded successfully' });
      // another member has a minute of their own, and the back office has no limit
      const second = await newMember();
      expect(outcome(await post('user', multipartBody(zipOf(100), 'b.zip'), { token: second.token }))).toEqual({ code: 1, msg: 'File uploaded successfully' });
      for (let i = 0; i <= RATE_LIMIT; i++) expect(outcome(await post('admin', multipartBody(zipOf(100), `a${i}.zip`)))).toEqual({ code: 1, msg: 'File uploaded successfully' });
    });

    it('store at most UPLOAD_DAILY_QUOTA bytes of new files a day of the site\'s calendar, saying when it opens again', async () => {
      const member = await newMember();
      const zone = await server.server.app.config.timeZone();
      const today = formatLocalDateTime(Math.floor(Date.now() / 1000), zone).slice(0, 10);
      const [year, month, day] = today.split('-').map(Number);
      const tomorrow = `${new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10)} 00:00`;
      const upload = (bytes: Buffer, lang: 'en' | 'zh-cn' = 'en') => post('user', multipartBody(bytes, 'q.zip'), { token: member.token, lang });
      const stored = { code: 1, msg: 'File uploaded successfully' };

      const first = zipOf(12 * 1024);
      expect(outcome(await upload(first))).toEqual(stored);
      const rows = await attachments();
      const files = storedFiles();
      // 12 KB + 12 KB is past 20 KB: refused, nothing stored
      expect(outcome(await upload(zipOf(12 * 1024)))).toEqual({ code: 0, msg: `The daily upload limit of 20 KB is reached (12 KB today): uploads are accepted again from ${tomorrow}` });
      expect(outcome(await upload(zipOf(12 * 1024), 'zh-cn'))).toEqual({ code: 0, msg: `已达到每日上传上限 20 KB（今日已上传 12 KB）：${tomorrow} 起可再次上传` });
      expect({ rows: await attachments(), files: storedFiles() }).toEqual({ rows, files });
      // what fits is stored; the same file again adds nothing; the quota to the byte is full
      expect(outcome(await upload(zipOf(6 * 1024)))).toEqual(stored);
      expect(outcome(await upload(first))).toEqual(stored);
      expect(outcome(await upload(zipOf(2 * 1024)))).toEqual(stored);
      expect(outcome(await upload(zipOf(16)))).toEqual({ code: 0, msg: `The daily upload limit of 20 KB is reached (20 KB today): uploads are accepted again from ${tomorrow}` });

      // yesterday's uploads do not count today
      const start = parseLocalDateTime(today, zone) as number;
      await db().updateTable('attachment').set({ create_time: start - 1 }).where('user_id', '=', member.id).execute();
      expect(outcome(await upload(zipOf(12 * 1024)))).toEqual(stored);
    });
  });
});
