import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.js';
import { encodePng } from '../../src/server/captcha/png-encoder.js';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { ADMIN_PASSWORD, DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Uploads and the storage they land in, attachments, the area cascade and the admin's own profile
 * (docs/wire-contract.md#uploads, #attachments, #ajax-utilities, #own-profile), through HTTP on a
 * temporary storage directory.
 */

type Row = Record<string, unknown>;
const MEMBER_PASSWORD = 'Member_pass1';
/** small enough to test the limit cheaply; the site config must report the same */
const MAX_SIZE = 64 * 1024;

function pngOf(width: number, height: number, shade: number): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([shade, 255 - shade, (i / 4) % 256, 255], i);
  return encodePng(width, height, rgba);
}

function sha1(bytes: Buffer): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/** GET with the path exactly as written (fetch would normalise `..` away). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe.each(DATABASES)('uploads, areas and the admin profile on %s', (kind) => {
  let server: TestServer;
  let storageDir: string;
  let token: string;
  let memberToken: string;
  let adminBase: string;

  const db = () => server.server.app.db;
  const call = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function ok<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
    const response = await call<T>(path, request);
    expect({ code: response.code, msg: response.msg }, path).toMatchObject({ code: 1 });
    return response.data;
  }

  interface UploadOptions {
    area?: 'admin' | 'user';
    token?: string;
    query?: string;
    fields?: Record<string, string>;
    field?: string;
  }

  async function upload(bytes: Buffer | undefined, filename: string, options: UploadOptions = {}): Promise<Envelope<{ file: Row }>> {
    const area = options.area ?? 'admin';
    const form = new FormData();
    for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
    if (bytes) form.append(options.field ?? 'file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), filename);
    const headers: Record<string, string> = { 'think-lang': 'en', server: 'true' };
    const credential = options.token ?? (area === 'admin' ? token : memberToken);
    if (credential) headers[area === 'admin' ? 'batoken' : 'ba-user-token'] = credential;
    const path = `${area === 'admin' ? adminBase : '/api'}/ajax/upload${options.query ? `?${options.query}` : ''}`;
    const response = await server.raw(path, { method: 'POST', headers, body: form });
    expect(response.status).toBe(200);
    return (await response.json()) as Envelope<{ file: Row }>;
  }

  async function uploaded(bytes: Buffer, filename: string, options: UploadOptions = {}): Promise<Row> {
    const response = await upload(bytes, filename, options);
    expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: 'File uploaded successfully' });
    return response.data.file;
  }

  async function attachment(id: unknown): Promise<Row | undefined> {
    return (await db().selectFrom('attachment').selectAll().where('id', '=', Number(id)).executeTakeFirst()) as Row | undefined;
  }

  const diskPath = (url: unknown) => join(storageDir, ...String(url).replace(/^\/storage\//, '').split('/'));

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'chidao-storage-'));
    server = await startTestServer(kind, { env: { STORAGE_DIR: storageDir, UPLOAD_MAX_SIZE: '64kb' } });
    adminBase = `${server.server.app.settings.adminEntrance}.php`;
    ({ token } = await server.loginAdmin());
    await db().updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '', login_failure: 0 }).where('id', '=', 1).execute();
    const checkIn = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
    expect(checkIn.code).toBe(1);
    memberToken = checkIn.data.userInfo.token;
  });

  afterAll(async () => {
    await server?.close();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  });

  // ---------------------------------------------------------------------------------------------
  describe('ajax/upload', () => {
    it('stores a PNG with its size, answers the documented shape (docs/wire-contract.md#uploads) and serves the file read-only', async () => {
      const bytes = pngOf(3, 2, 10);
      const file = await uploaded(bytes, 'my photo.png');
      const port = new URL(server.url).port;
      expect(file).toMatchObject({
        topic: 'default',
        admin_id: 1,
        user_id: 0,
        width: 3,
        height: 2,
        name: 'my photo.png',
        size: bytes.length,
        mimetype: 'image/png',
        storage: 'local',
        sha1: sha1(bytes),
        suffix: 'png',
      });
      expect(file.url).toMatch(new RegExp(`^/storage/default/\\d{8}/myphoto${sha1(bytes)}\\.png$`));
      expect(file.full_url).toBe(`//127.0.0.1:${port}${String(file.url)}`);
      expect(file).not.toHaveProperty('create_time');
      expect(file).not.toHaveProperty('quote');
      expect(typeof file.last_upload_time).toBe('number');
      expect(readFileSync(diskPath(file.url)).equals(bytes)).toBe(true);

      const download = await server.raw(String(file.url));
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('image/png');
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('counts the same bytes under the same topic as one attachment (quote 2)', async () => {
      const bytes = pngOf(4, 4, 20);
      const first = await uploaded(bytes, 'first.png');
      expect((await attachment(first.id))?.quote).toBe(1);
      const second = await uploaded(bytes, 'renamed copy.png');
      expect(second.id).toBe(first.id);
      expect(second.url).toBe(first.url);
      expect(Number((await attachment(first.id))?.quote)).toBe(2);
      // another topic is another attachment
      const elsewhere = await uploaded(bytes, 'first.png', { query: 'topic=avatar' });
      expect(elsewhere.id).not.toBe(first.id);
      expect(elsewhere.url).toMatch(/^\/storage\/avatar\/\d{8}\//);
      // the topic may also come as a form field
      const field = await uploaded(pngOf(2, 2, 21), 'f.png', { fields: { topic: 'forms' } });
      expect(field.topic).toBe('forms');
    });

    it('writes a missing file back when the same bytes arrive again', async () => {
      const bytes = pngOf(5, 1, 30);
      const file = await uploaded(bytes, 'lost.png');
      rmSync(diskPath(file.url));
      const again = await uploaded(bytes, 'lost.png');
      expect(again.id).toBe(file.id);
      expect(readFileSync(diskPath(file.url)).equals(bytes)).toBe(true);
    });

    it('refuses uploads in the order of docs/wire-contract.md#uploads', async () => {
      const refuse = async (response: Envelope<unknown>, msg: string) => expect({ code: response.code, msg: response.msg }).toEqual({ code: 0, msg });
      // no multipart body, or no `file` field
      await refuse(await call('ajax/upload', { body: { topic: 'default' } }), 'No files were uploaded');
      await refuse(await upload(pngOf(1, 1, 1), 'x.png', { field: 'image' }), 'No files were uploaded');
      await refuse(await upload(undefined, '', { fields: { topic: 'default' } }), 'No files were uploaded');
      // no name or no content
      await refuse(await upload(Buffer.alloc(0), 'empty.png'), 'The data of the uploaded file is incomplete!');
      // suffix not allowed (before the size: a large .exe is a type error)
      await refuse(await upload(Buffer.from('MZ\x90\x00 a windows program'), 'setup.exe'), 'The type of uploaded file is not allowed!');
      await refuse(await upload(Buffer.alloc(MAX_SIZE * 2, 1), 'big.exe'), 'The type of uploaded file is not allowed!');
      await refuse(await upload(Buffer.from('no extension'), 'README'), 'The type of uploaded file is not allowed!');
      // over the maximum: just over, and far over (cut off by the parser)
      await refuse(await upload(Buffer.alloc(MAX_SIZE + 1, 7), 'big.zip'), 'The size of the uploaded file exceeds the allowed range!');
      await refuse(await upload(Buffer.alloc(MAX_SIZE + 2 * 1024 * 1024, 7), 'huge.zip'), 'The size of the uploaded file exceeds the allowed range!');
      // an image by name that does not decode
      await refuse(await upload(Buffer.from('just some text pretending to be a picture'), 'fake.png'), 'The uploaded image file is not a valid image');
      await refuse(await upload(pngOf(2, 2, 3).subarray(0, 20), 'cut.jpg'), 'The uploaded image file is not a valid image');
      // topic and driver
      await refuse(await upload(pngOf(1, 1, 2), 'x.png', { query: 'topic=a%2Fb' }), 'Topic format error');
      await refuse(await upload(pngOf(1, 1, 2), 'x.png', { query: 'topic=../../etc' }), 'Topic format error');
      await refuse(await upload(pngOf(1, 1, 2), 'x.png', { query: 'driver=oss' }), 'Driver oss not supported');
      // a file of exactly the maximum passes
      const limit = await uploaded(Buffer.alloc(MAX_SIZE, 9), 'exact.zip');
      expect(limit).toMatchObject({ size: MAX_SIZE, suffix: 'zip', width: 0, height: 0 });
    });

    it('reports the same maximum in siteConfig', async () => {
      const data = await ok<{ siteConfig: { upload: { maxSize: number; allowedSuffixes: string; mode: string } } }>('Index/index');
      expect(data.siteConfig.upload).toMatchObject({ maxSize: MAX_SIZE, mode: 'local' });
      expect(data.siteConfig.upload.allowedSuffixes.split(',')).toContain('png');
    });

    it('member uploads record the member; without a token both areas answer 303', async () => {
      const bytes = pngOf(6, 3, 40);
      const file = await uploaded(bytes, 'member.png', { area: 'user' });
      expect(file).toMatchObject({ user_id: 1, admin_id: 0, width: 6, height: 3 });
      expect((await attachment(file.id))?.user_id).toBe(1);

      for (const area of ['admin', 'user'] as const) {
        const anonymous = await upload(pngOf(1, 1, 50), 'anon.png', { area, token: '' });
        expect(anonymous.code).toBe(303);
        expect(anonymous.data).toEqual({ type: 'need login', errorId: 'needLogin' });
      }
      const bogus = await upload(pngOf(1, 1, 50), 'anon.png', { area: 'user', token: 'not-a-token' });
      expect(bogus.code).toBe(303);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('routine.Attachment', () => {
    it('lists uploads with suffix, full_url and the uploader', async () => {
      const file = await uploaded(pngOf(7, 7, 60), 'listed.png');
      const data = await ok<{ list: Row[]; total: number }>('routine.Attachment/index', { query: { quickSearch: 'listed' } });
      expect(data.total).toBe(1);
      expect(data.list[0]).toMatchObject({ id: file.id, url: file.url, suffix: 'png', full_url: file.full_url, quote: 1, admin: { id: 1 }, user: null });
    });

    it('deleting rows deletes their files and the directories left empty', async () => {
      const a = await uploaded(pngOf(8, 1, 70), 'a.png', { query: 'topic=deleteme' });
      const b = await uploaded(Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'latin1'), 'b.zip', { query: 'topic=deleteme' });
      expect(existsSync(diskPath(a.url))).toBe(true);
      const response = await call('routine.Attachment/del', { method: 'DELETE', query: { ids: [a.id, b.id] } });
      expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: '2 records and files have been deleted' });
      expect(await attachment(a.id)).toBeUndefined();
      expect(existsSync(diskPath(a.url))).toBe(false);
      expect(existsSync(diskPath(b.url))).toBe(false);
      expect(existsSync(join(storageDir, 'deleteme'))).toBe(false);
      expect(existsSync(storageDir)).toBe(true);
      const gone = await server.raw(String(a.url));
      expect(gone.status).toBe(404);
      await gone.text();
      const zh = await call('routine.Attachment/del', { method: 'DELETE', query: { ids: [a.id] }, lang: 'zh-cn' });
      expect(zh.code).toBe(0);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('/storage', () => {
    it('serves nothing outside the storage directory, no listings, no dot paths', async () => {
      const paths = [
        '/storage/../package.json',
        '/storage/..%2fpackage.json',
        '/storage/%2e%2e/%2e%2e/package.json',
        '/storage/%2e%2e%2fpackage.json',
        '/storage/default/../../package.json',
        '/storage/..\\package.json',
        '/storage/',
        '/storage/default',
        '/storage/default/',
        '/storage/.hidden',
        '/storage/missing.png',
      ];
      for (const path of paths) {
        const response = await rawGet(server.url, path);
        expect(response.status, path).toBe(404);
        expect(response.body, path).not.toContain('chidao-survey-platform');
      }
    });

    it('is read-only', async () => {
      const file = await uploaded(pngOf(2, 5, 80), 'readonly.png');
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const response = await server.raw(String(file.url), { method });
        expect(response.status, method).toBe(404);
        await response.text();
      }
      expect(existsSync(diskPath(file.url))).toBe(true);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('ajax/area', () => {
    it('lists provinces, then cities, then districts (member API, public)', async () => {
      const provinces = await server.api<{ value: number; label: string }[]>('ajax/area', { query: { uuid: 'x' } });
      expect(provinces.code).toBe(1);
      expect(provinces.data).toHaveLength(34);
      expect(provinces.data[0]).toEqual({ value: 110000, label: '北京市' });
      expect(provinces.data.map((item) => item.label)).toEqual(expect.arrayContaining(['广东省', '新疆维吾尔自治区', '香港特别行政区', '台湾省']));

      const cities = await server.api<{ value: number; label: string }[]>('ajax/area', { query: { province: 440000 } });
      expect(cities.data).toEqual([{ value: 440100, label: '广州市' }, { value: 440300, label: '深圳市' }]);
      const districts = await server.api<{ value: number; label: string }[]>('ajax/area', { query: { province: 440000, city: 440300 } });
      expect(districts.data.map((item) => item.label)).toEqual(['罗湖区', '福田区', '南山区', '宝安区', '龙岗区']);
      const beijing = await server.api<{ value: number; label: string }[]>('ajax/area', { query: { province: 110000, city: 110100 } });
      expect(beijing.data.map((item) => item.label)).toContain('海淀区');
      // empty params count as absent; a province without seeded cities has none
      expect((await server.api('ajax/area', { query: { province: '', city: '' } })).data).toHaveLength(34);
      expect((await server.api('ajax/area', { query: { province: 650000 } })).data).toEqual([]);
      const invalid = await server.api('ajax/area', { query: { province: 'x or 1=1' } });
      expect({ code: invalid.code, msg: invalid.msg }).toEqual({ code: 0, msg: 'Parameter error' });
    });

    it('answers the same in the admin API for a logged-in admin', async () => {
      const data = await ok<{ value: number; label: string }[]>('ajax/area', { query: { province: 110000 } });
      expect(data).toEqual([{ value: 110100, label: '北京城区' }]);
      expect((await server.admin('ajax/area')).code).toBe(303);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('routine.AdminInfo', () => {
    let serial = 0;
    async function addAdmin(username: string, group: number, extra: Row = {}): Promise<{ id: number; token: string }> {
      serial += 1;
      const response = await call('auth.Admin/add', {
        body: { username, nickname: username, password: 'Second_pass1', email: '', mobile: `137${String(10_000_000 + serial).slice(-8)}`, group_arr: [group], status: '1', ...extra },
      });
      expect(response.code, response.msg).toBe(1);
      const row = (await db().selectFrom('admin').select('id').where('username', '=', username).executeTakeFirstOrThrow()) as { id: number };
      const login = await server.loginAdmin(username, 'Second_pass1');
      return { id: Number(row.id), token: login.token };
    }

    const admin = async (id: number) => (await db().selectFrom('admin').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;

    it('index answers the current admin', async () => {
      const data = await ok<{ info: Row }>('routine.AdminInfo/index');
      expect(Object.keys(data.info).sort()).toEqual(['avatar', 'email', 'id', 'last_login_time', 'mobile', 'motto', 'nickname', 'refresh_token', 'token', 'username'].sort());
      expect(data.info).toMatchObject({ id: 1, username: 'admin', email: '', mobile: '', token: '', refresh_token: '' });
      expect(data.info.last_login_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // a posted id changes nothing
      const other = await ok<{ info: Row }>('routine.AdminInfo/index', { query: { id: 2 } });
      expect(other.info.id).toBe(1);
    });

    it('an avatar alone changes only the avatar', async () => {
      const before = await admin(1);
      const response = await call('routine.AdminInfo/edit', { body: { id: 1, avatar: '/storage/default/20240315/face.png' } });
      expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: 'Avatar modified successfully!' });
      const after = await admin(1);
      expect(after.avatar).toBe('/storage/default/20240315/face.png');
      expect(after.nickname).toBe(before.nickname);
      expect(after.email).toBe(before.email);
      const script = await call('routine.AdminInfo/edit', { body: { id: 1, avatar: 'javascript:alert(1)' } });
      expect(script.code).toBe(0);
      expect((await admin(1)).avatar).toBe('/storage/default/20240315/face.png');
    });

    it('the profile form updates nickname, email, mobile and motto, and ignores the rest', async () => {
      const info = (await ok<{ info: Row }>('routine.AdminInfo/index')).info;
      const response = await call('routine.AdminInfo/edit', {
        body: { ...info, username: 'renamed', nickname: 'Boss', email: 'boss@example.com', mobile: '13900000001', motto: 'Ship it', status: '0', login_failure: 9, password: '' },
      });
      expect({ code: response.code, msg: response.msg }).toEqual({ code: 1, msg: 'Update successful!' });
      expect(await admin(1)).toMatchObject({ username: 'admin', nickname: 'Boss', email: 'boss@example.com', mobile: '13900000001', motto: 'Ship it', status: '1' });
      // the password did not change
      expect((await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).code).toBe(1);
    });

    it('refuses a missing nickname, a bad email or mobile, a bad password and an email or mobile of another admin', async () => {
      const refuse = async (body: Row, msg: string) => {
        const response = await call('routine.AdminInfo/edit', { body: { id: 1, ...body } });
        expect({ code: response.code, msg: response.msg }).toEqual({ code: 0, msg });
      };
      await addAdmin('taken_mail', 2, { email: 'taken@example.com', mobile: '13700000099' });
      await refuse({ nickname: '' }, 'Nickname cannot be empty');
      await refuse({ email: 'x@example.com' }, 'Nickname cannot be empty');
      await refuse({ nickname: 'Boss', email: 'not-an-email' }, 'Please enter the correct email address');
      await refuse({ nickname: 'Boss', mobile: '12345' }, 'Please enter the correct mobile number');
      await refuse({ nickname: 'Boss', password: 'ab' }, 'Please enter the correct password');
      await refuse({ nickname: 'Boss', email: 'taken@example.com' }, 'Email already exists');
      await refuse({ nickname: 'Boss', mobile: '13700000099' }, 'Mobile already exists');
      expect((await admin(1)).email).toBe('boss@example.com');
      // blank email and mobile are allowed, and not "taken" by others with blanks
      const blank = await call('routine.AdminInfo/edit', { body: { id: 1, nickname: 'Boss', email: '', mobile: '' } });
      expect(blank.code, blank.msg).toBe(1);
    });

    it('another admin edits only themselves, even posting id 1, and can change their password', async () => {
      const second = await addAdmin('second_admin', 3);
      const before = await admin(1);
      const response = await server.admin('routine.AdminInfo/edit', { token: second.token, body: { id: 1, nickname: 'Hijacked', password: 'Changed_pass2', oldPassword: 'Second_pass1' } });
      expect(response.code, response.msg).toBe(1);
      expect((await admin(1)).nickname).toBe(before.nickname);
      expect((await admin(second.id)).nickname).toBe('Hijacked');
      expect((await server.admin('Index/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).code).toBe(1);
      expect((await server.admin('Index/login', { body: { username: 'second_admin', password: 'Second_pass1' } })).code).toBe(0);
      expect((await server.admin('Index/login', { body: { username: 'second_admin', password: 'Changed_pass2' } })).code).toBe(1);
      const seen = await server.admin<{ info: Row }>('routine.AdminInfo/index', { token: second.token });
      expect(seen.data.info).toMatchObject({ id: second.id, username: 'second_admin', nickname: 'Hijacked' });
    });

    it('needs the permission nodes', async () => {
      const third = await addAdmin('third_admin', 4);
      expect((await server.admin('routine.AdminInfo/index', { token: third.token })).code).toBe(1);
      const denied = await server.admin('routine.AdminInfo/edit', { token: third.token, body: { nickname: 'No' } });
      expect(denied.code).toBe(401);
      expect((await server.admin('routine.AdminInfo/index')).code).toBe(303);
    });
  });
});
