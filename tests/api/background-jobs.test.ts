import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/schema/definition.js';
import { createTestDatabase, DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The back office's background jobs screen (`routine.Jobs`): every job with its title in the admin's
 * language, its schedule, last and next run; "run now" runs a job once for a super admin, clicked twice
 * at once too, and is refused to any other admin.
 */

interface JobRow {
  name: string;
  title: string;
  every_seconds: number;
  last_run: string;
  last_trigger: string;
  last_outcome: string;
  last_duration_ms: number | null;
  next_run: string;
  failures: number;
  last_error: string;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe.each(DATABASES)('background jobs screen on %s', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  const list = async (lang: 'en' | 'zh-cn', as = token) => {
    const answer = await server.admin<{ list: JobRow[]; can_run: boolean }>('routine.Jobs/index', { token: as, method: 'GET', lang });
    expect(answer.code).toBe(1);
    return answer.data;
  };

  const runsOf = async (job: string) => (await server.server.app.db.selectFrom('job_run').selectAll().where('job', '=', job).execute()) as Row[];

  it('lists the jobs with titles in the admin’s language, their schedule and next run as date-time labels', async () => {
    const en = await list('en');
    expect(en.can_run).toBe(true);
    expect(en.list.map((job) => job.name)).toEqual(['survey-timeouts', 'login-attempts', 'row-counts', 'member-rankings', 'survey-holds']);
    const timeouts = en.list[0];
    expect(timeouts).toMatchObject({ title: 'Expire survey attempts past their time', every_seconds: 60, failures: 0 });
    // Not run yet reads as no run at all; on a slow start its first minute may already have passed, and then
    // the run shows as a date-time label that succeeded.
    if (timeouts.last_run === '') expect(timeouts.last_outcome).toBe('');
    else expect(timeouts).toMatchObject({ last_run: expect.stringMatching(DATE_TIME), last_outcome: 'succeeded' });
    expect(en.list[3]).toMatchObject({ title: 'Rebuild member rankings', every_seconds: 600 });
    for (const job of en.list) expect(job.next_run).toMatch(DATE_TIME);
    const zh = await list('zh-cn');
    expect(zh.list.map((job) => job.title)).toEqual(['结束超时的问卷作答', '清理过期的登录失败记录', '合并列表行数计数', '重新计算会员排行榜', '到期的待入账转为可用']);
  });

  it('runs a job now for a super admin, once for two clicks at the same moment, and records the run', async () => {
    const clicks = await Promise.all([1, 2].map(() => server.admin('routine.Jobs/run', { token, body: { name: 'login-attempts' }, lang: 'en' })));
    expect(clicks.map((click) => click.code).sort()).toEqual([0, 1]);
    expect(clicks.find((click) => click.code === 1)?.msg).toBe('The job was started: its run will be shown here when it ends');
    expect(clicks.find((click) => click.code === 0)?.msg).toBe('This job was just started or is running: its run is shown here when it ends');
    let job: JobRow | undefined;
    for (let wait = 0; wait < 100 && job?.last_outcome !== 'succeeded'; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await list('en')).list.find((row) => row.name === 'login-attempts');
    }
    expect(job).toMatchObject({ last_trigger: 'manual', last_outcome: 'succeeded', failures: 0, last_error: '' });
    expect(job?.last_run).toMatch(DATE_TIME);
    expect(job?.last_duration_ms).toBeGreaterThanOrEqual(0);
    const runs = (await runsOf('login-attempts')).filter((run) => run.trigger === 'manual');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'manual', outcome: 'succeeded' });

    const unknown = await server.admin('routine.Jobs/run', { token, body: { name: 'nothing-here' }, lang: 'zh-cn' });
    expect({ code: unknown.code, msg: unknown.msg }).toEqual({ code: 0, msg: '没有这个名称的后台任务' });
  });

  it('refuses "run now" to an admin who is not super, even holding the run node, and runs nothing', async () => {
    const db = server.server.app.db;
    const rules = (await db.selectFrom('admin_rule').select('id').where('name', 'in', ['routine', 'routine/jobs', 'routine/jobs/index', 'routine/jobs/run']).execute()).map((rule) => Number(rule.id));
    expect(rules).toHaveLength(4);
    expect((await server.admin('auth.Group/add', { token, body: { pid: 1, name: `Job watchers ${kind}`, rules, status: '1' } })).code).toBe(1);
    const group = (await db.selectFrom('admin_group').select('id').where('name', '=', `Job watchers ${kind}`).executeTakeFirstOrThrow()) as Row;
    expect((await server.admin('auth.Admin/add', { token, body: { username: `watcher${kind}`, nickname: 'Watcher', password: 'Watcher_pass1', group_arr: [Number(group.id)], status: '1' } })).code).toBe(1);
    const watcher = (await server.loginAdmin(`watcher${kind}`, 'Watcher_pass1')).token;

    const seen = await list('en', watcher);
    expect(seen.can_run).toBe(false);
    expect(seen.list).toHaveLength(5);
    for (const lang of ['en', 'zh-cn'] as const) {
      const refused = await server.admin('routine.Jobs/run', { token: watcher, body: { name: 'row-counts' }, lang });
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 401, msg: lang === 'en' ? 'Only super administrators can run a background job now' : '只有超级管理员可以立即运行后台任务' });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    // (a scheduled slot may pass meanwhile; no manual run is recorded)
    expect((await runsOf('row-counts')).filter((run) => run.trigger === 'manual')).toHaveLength(0);
  });
});

describe.each(DATABASES)('background job slots on %s', { tags: 'full' }, (kind) => {
  it('runs a job once per slot, lets the run under way end when the server stops, and goes on after a restart', async () => {
    let started = 0;
    const job = {
      name: 'test-sweep',
      title: { en: 'Test sweep', 'zh-cn': '测试清理' },
      everySeconds: 3600,
      timeoutSeconds: 10,
      run: async () => {
        started += 1;
        await new Promise((resolve) => setTimeout(resolve, 400));
      },
    };
    const database = await createTestDatabase(kind);
    const first = await startTestServer(kind, { env: { JOB_SLOT_SECONDS: '1' }, jobs: [job], databaseUrl: database.url });
    const runs = async (server: TestServer) => (await server.server.app.db.selectFrom('job_run').selectAll().where('job', '=', 'test-sweep').orderBy('slot').execute()) as Row[];
    try {
      for (let wait = 0; wait < 80 && (await runs(first)).length < 3; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      // Stop in the middle of a run: the stop waits for it.
      while (!(await runs(first)).some((run) => run.outcome === 'running')) await new Promise((resolve) => setTimeout(resolve, 50));
      const stopping = Date.now();
      await first.server.app.jobs.stop();
      expect(Date.now() - stopping).toBeLessThan(3000);
    } finally {
      await first.close();
    }
    const reopened = await startTestServer(kind, { databaseUrl: database.url, jobs: [] });
    const before = await runs(reopened);
    await reopened.close();
    expect(before.map((run) => run.outcome).every((outcome) => outcome === 'succeeded')).toBe(true);
    expect(before.length).toBe(started);

    const second = await startTestServer(kind, { env: { JOB_SLOT_SECONDS: '1' }, jobs: [job], databaseUrl: database.url });
    try {
      for (let wait = 0; wait < 60 && (await runs(second)).length < before.length + 2; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      const all = await runs(second);
      expect(all.length).toBeGreaterThanOrEqual(before.length + 2);
      const slots = all.map((run) => Number(run.slot));
      expect(new Set(slots).size).toBe(slots.length);
    } finally {
      await second.close();
      await database.drop();
    }
  }, 30_000);
});
