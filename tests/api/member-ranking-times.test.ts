import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The ranking says when it was computed and when it is computed again: a member who just
 * earned and is not ranked yet learns when the ranking will count it.
 */

interface RankingAnswer {
  computed_at: number;
  refresh_at: number;
  mine: { rank: number | null };
}

describe.each(DATABASES)('ranking times on %s', (kind) => {
  let server: TestServer;
  let memberToken: string;
  let adminToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const { token } = await server.loginAdmin();
    adminToken = token;
    expect((await server.admin('user.User/add', { token, body: { username: 'ranked', nickname: 'ranked', group_id: 1, password: 'Member_pass1' } })).code).toBe(1);
    const login = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: 'ranked', password: 'Member_pass1' } });
    memberToken = login.data.userInfo.token;
  });

  afterAll(async () => {
    await server?.close();
  });

  const ranking = async () => {
    const answer = await server.api<RankingAnswer>('account/getUserRanking', { userToken: memberToken, query: { period: 'day', metric: 'money' } });
    expect(answer.code).toBe(1);
    return answer.data;
  };

  /** The start of the next ten-minute slot after `seconds`: when the `member-rankings` job runs again. */
  const nextSlot = (seconds: number) => Math.floor(seconds / 600) * 600 + 600;

  it('answers when the snapshot was computed and when the job computes the next one, and keeps both until then', async () => {
    const before = Math.floor(Date.now() / 1000);
    const first = await ranking();
    expect(first.mine.rank).toBeNull();
    expect(first.computed_at).toBeGreaterThanOrEqual(before);
    expect(first.computed_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(first.refresh_at).toBe(nextSlot(first.computed_at));

    // An old snapshot is not rebuilt by a view: the job rebuilds them all at its slot (or when run now).
    await server.server.app.db.updateTable('member_ranking').set({ computed_at: first.computed_at - 601 }).where('period', '=', 'day').execute();
    const again = await ranking();
    expect(again.computed_at).toBe(first.computed_at - 601);
    expect((await server.admin('routine.Jobs/run', { token: adminToken, body: { name: 'member-rankings' } })).code).toBe(1);
    let later = again;
    for (let wait = 0; wait < 50 && later.computed_at === again.computed_at; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      later = await ranking();
    }
    expect(later.computed_at).toBeGreaterThanOrEqual(first.computed_at);
    expect(later.refresh_at).toBe(nextSlot(later.computed_at));
  });
});
