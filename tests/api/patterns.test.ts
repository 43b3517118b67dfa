import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.js';
import { DATABASES, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';

/**
 * The patterns administrators write are checked against what members send in time linear in the
 * answer (src/schema/pattern.ts, whose unit test counts the steps): a pattern a backtracking engine
 * would spend minutes on answers at once, and one no linear check can read is refused where it is
 * saved, naming the field, and never applied when it was stored before.
 */

type Row = Record<string, unknown>;
const MEMBER_PASSWORD = 'Member_pass1';
/** `(a+)+` against a run of `a` that then fails: a backtracking engine tries every split of the run between the groups (2^29) */
const HOSTILE_ANSWER = `${'a'.repeat(29)}!`;

describe.each(DATABASES)('administrators\' patterns against members\' answers on %s', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let memberToken: string;
  let counter = 0;

  const admin = <T = unknown>(path: string, body: Row) => server.admin<T>(path, { token: adminToken, body });
  const submit = (id: number, answers: Row) => server.api<{ field?: string; errors?: Record<string, string> }>('survey/quickTaskSubmit', { userToken: memberToken, body: { id, answers } });
  const outcome = (answer: ApiResponse<unknown>) => ({ code: answer.code, msg: answer.msg, data: answer.data });
  const count = async (table: 'quick_task' | 'quick_task_submission') => Number((await server.server.app.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  function formOf(pattern: string): string {
    return JSON.stringify({ type: 'object', required: ['code'], properties: { code: { type: 'string', title: 'Invitation code', pattern } } });
  }

  async function createTask(pattern: string): Promise<number> {
    const title = `Pattern task ${++counter}`;
    const answer = await admin('survey.QuickTask/add', { title, form: formOf(pattern), reward_money: '0.10', reward_score: 0, status: 'active' });
    expect(outcome(answer)).toMatchObject({ code: 1 });
    const row = await server.server.app.db.selectFrom('quick_task').select('id').where('title', '=', title).executeTakeFirstOrThrow();
    return Number(row.id);
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    ({ token: adminToken } = await server.loginAdmin());
    await server.server.app.db.updateTable('user').set({ password: await hashPassword(MEMBER_PASSWORD), salt: '', login_failure: 0 }).where('id', '=', 1).execute();
    const checkIn = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: 'user', password: MEMBER_PASSWORD } });
    expect(checkIn.code).toBe(1);
    memberToken = checkIn.data.userInfo.token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers a hostile answer to a nested quantifier with the field\'s error, and the request beside it too', async () => {
    const taskId = await createTask('^(a+)+$');
    const submissions = await count('quick_task_submission');
    const [hostile, beside] = await Promise.all([submit(taskId, { code: HOSTILE_ANSWER }), server.api<{ list: Row[] }>('survey/quickTasks', { userToken: memberToken })]);
    expect(outcome(hostile)).toEqual({ code: 0, msg: 'Invitation code has an invalid format', data: { field: 'code', errors: { code: 'Invitation code has an invalid format' }, errorId: 'validationAll' } });
    expect(beside.code).toBe(1);
    expect(beside.data.list.map((task) => task.id)).toContain(taskId);
    expect(await count('quick_task_submission')).toBe(submissions);
    // the same pattern still takes what it describes
    expect(outcome(await submit(taskId, { code: 'aaaa' }))).toMatchObject({ code: 1 });
  });

  it('refuses at save a pattern no linear check can read, naming the field, and stores nothing', async () => {
    const before = await count('quick_task');
    for (const [pattern, why] of [
      ['^(a+)\\1$', 'a back-reference (\\1) cannot be checked in linear time'],
      ['^(?<run>a+)\\k<run>$', 'a back-reference (\\k<name>) cannot be checked in linear time'],
      ['^(?:[a-z]{1,100}){1,100}$', 'the pattern is too large to check: at most 1000 states once counted repetitions are written out, 1000 characters'],
    ]) {
      const answer = await admin('survey.QuickTask/add', { title: 'Back-reference', form: formOf(pattern) });
      expect(outcome(answer)).toEqual({ code: 0, msg: `The form is not valid: /properties/code/pattern: the pattern of "code" cannot be used: ${why}`.slice(0, 'The form is not valid: '.length + 200), data: { field: 'form', errorId: 'quickTaskFormInvalid' } });
    }
    expect(await count('quick_task')).toBe(before);
  });

  it('never applies such a pattern stored before: the answer is refused as the form is', async () => {
    const taskId = await createTask('^a+$');
    // written before the check existed, or by hand: a back-reference after a nested quantifier
    await server.server.app.db.updateTable('quick_task').set({ form: formOf('^(a+)+\\1$') }).where('id', '=', taskId).execute();
    const submissions = await count('quick_task_submission');
    const answer = await submit(taskId, { code: HOSTILE_ANSWER });
    expect(outcome(answer)).toEqual({ code: 0, msg: 'The form is not valid: /properties/code/pattern: the pattern of "code" cannot be used: a back-reference (\\1) cannot be checked in linear time', data: { field: 'form', errorId: 'quickTaskFormInvalid' } });
    expect(await count('quick_task_submission')).toBe(submissions);
  });
});
