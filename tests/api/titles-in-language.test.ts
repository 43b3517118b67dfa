import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Surveys and quick tasks have an optional English title and description (their schemas' `title_en`,
 * `description_en`): a member reading in English gets them in every list and on the outcome page, and the
 * Chinese ones where no English was written; a member reading in Chinese gets the Chinese ones.
 */

const MEMBER_PASSWORD = 'Member_pass1';
const FORM = JSON.stringify({ type: 'object', required: ['platform'], properties: { platform: { type: 'string', title: 'Platform', enum: ['ios', 'android'] } } });

describe.each(DATABASES)('titles in the member\'s language on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let memberToken: string;
  const ids: Record<string, number> = {};
  const admin = (path: string, request: ApiRequest = {}) => server.admin<Record<string, unknown>>(path, { token, ...request });

  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ token } = await server.loginAdmin());
    await server.server.app.db.updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '' }).where('id', '=', server.demoMember!.id).execute();
    const login = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
    memberToken = login.data.userInfo.token;
    expect((await admin('survey.Provider/add', { body: { code: 'lang', name: 'Language panel', secret: 'provider-secret-1' } })).code).toBe(1);
    const provider = await server.server.app.db.selectFrom('survey_provider').select('id').where('code', '=', 'lang').executeTakeFirstOrThrow();
    const surveys = {
      both: { title: '生活习惯调查', description: '关于日常生活的十个问题', title_en: 'Daily habits survey', description_en: 'Ten questions about daily life', weigh: 2 },
      chinese: { title: '出行方式调查', description: '您如何上班', weigh: 1 },
    };
    for (const [name, values] of Object.entries(surveys)) {
      const added = await admin('survey.Survey/add', { body: { provider_id: provider.id, entry_url: 'https://panel.example/s?r={rid}', reward_money: '1.00', loi_minutes: 5, status: 'active', ...values } });
      expect(added.code, added.msg).toBe(1);
      ids[`survey-${name}`] = Number((await server.server.app.db.selectFrom('survey').select('id').where('title', '=', values.title).executeTakeFirstOrThrow()).id);
    }
    const tasks = {
      both: { title: '关注公众号', description: '关注后截图', title_en: 'Follow our account', description_en: 'Follow it and say on which platform', weigh: 2 },
      chinese: { title: '填写问卷反馈', description: '告诉我们您的想法', weigh: 1 },
    };
    for (const [name, values] of Object.entries(tasks)) {
      const added = await admin('survey.QuickTask/add', { body: { form: FORM, reward_money: '0.10', status: 'active', review: 'manual', ...values } });
      expect(added.code, added.msg).toBe(1);
      ids[`task-${name}`] = Number((await server.server.app.db.selectFrom('quick_task').select('id').where('title', '=', values.title).executeTakeFirstOrThrow()).id);
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  const shown = (list: { title: string; description?: string }[]) => list.map(({ title, description }) => (description === undefined ? { title } : { title, description }));

  it('lists surveys and quick tasks in English for an English reader, falling back to Chinese where none was written', async () => {
    const en = await server.api<{ list: { title: string; description: string }[] }>('survey/tasks', { userToken: memberToken, lang: 'en' });
    expect(en.code, en.msg).toBe(1);
    expect(shown(en.data.list)).toEqual([{ title: 'Daily habits survey', description: 'Ten questions about daily life' }, { title: '出行方式调查', description: '您如何上班' }]);
    const zh = await server.api<{ list: { title: string; description: string }[] }>('survey/tasks', { userToken: memberToken, lang: 'zh-cn' });
    expect(shown(zh.data.list)).toEqual([{ title: '生活习惯调查', description: '关于日常生活的十个问题' }, { title: '出行方式调查', description: '您如何上班' }]);
    // the English columns are not sent as well: one title, in the reader's language
    expect(Object.keys(en.data.list[0])).not.toContain('title_en');

    const tasksEn = await server.api<{ list: { title: string; description: string }[] }>('survey/quickTasks', { userToken: memberToken, lang: 'en' });
    expect(shown(tasksEn.data.list)).toEqual([{ title: 'Follow our account', description: 'Follow it and say on which platform' }, { title: '填写问卷反馈', description: '告诉我们您的想法' }]);
    expect(Object.keys(tasksEn.data.list[0])).not.toContain('description_en');
    const tasksZh = await server.api<{ list: { title: string; description: string }[] }>('survey/quickTasks', { userToken: memberToken, lang: 'zh-cn' });
    expect(shown(tasksZh.data.list)).toEqual([{ title: '关注公众号', description: '关注后截图' }, { title: '填写问卷反馈', description: '告诉我们您的想法' }]);
  });

  it("titles the member's records in their language", async () => {
    for (const name of ['both', 'chinese']) {
      const started = await server.api('survey/start', { userToken: memberToken, body: { id: ids[`survey-${name}`] } });
      expect(started.code, started.msg).toBe(1);
      const sent = await server.api('survey/quickTaskSubmit', { userToken: memberToken, body: { id: ids[`task-${name}`], answers: { platform: 'ios' } } });
      expect(sent.code, sent.msg).toBe(1);
    }
    const records = async (path: string, lang: 'en' | 'zh-cn') => shown((await server.api<{ list: { title: string }[] }>(path, { userToken: memberToken, lang })).data.list);
    expect(await records('survey/records', 'en')).toEqual([{ title: '出行方式调查' }, { title: 'Daily habits survey' }]);
    expect(await records('survey/records', 'zh-cn')).toEqual([{ title: '出行方式调查' }, { title: '生活习惯调查' }]);
    expect(await records('survey/quickTaskRecords', 'en')).toEqual([{ title: '填写问卷反馈' }, { title: 'Follow our account' }]);
    expect(await records('survey/quickTaskRecords', 'zh-cn')).toEqual([{ title: '填写问卷反馈' }, { title: '关注公众号' }]);
  });

  it('refuses an English title longer than its column, in both languages, and stores nothing', async () => {
    const before = await server.server.app.db.selectFrom('survey').select('title_en').where('id', '=', ids['survey-both']).executeTakeFirstOrThrow();
    const long = 'x'.repeat(101);
    const en = await admin('survey.Survey/edit', { body: { id: ids['survey-both'], title_en: long }, lang: 'en' });
    expect(en.code).toBe(0);
    expect(en.msg).toMatch(/Title in English/);
    const zh = await admin('survey.Survey/edit', { body: { id: ids['survey-both'], title_en: long }, lang: 'zh-cn' });
    expect(zh.code).toBe(0);
    expect(zh.msg).toMatch(/英文标题/);
    expect(await server.server.app.db.selectFrom('survey').select('title_en').where('id', '=', ids['survey-both']).executeTakeFirstOrThrow()).toEqual(before);
  });
});
