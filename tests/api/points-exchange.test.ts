import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PointsExchangeAnswer, PointsExchangeState } from '../../src/contract/member-api.js';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { createTestDatabase, DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Points exchanged for balance on both databases: the operator's rate, minimum and daily limit from the
 * config screen, both ledgers moved once in one transaction with the balances equal to the ledgers, every
 * refusal translated and changing nothing, a repeated request applied once, and parallel exchanges never
 * passing the points held or the daily limit.
 */

type Row = Record<string, unknown>;
const PASSWORD = 'Member_pass1';

describe.each(DATABASES)('points exchange on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;
  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });
  const settings = async (values: Row) => expect((await admin('routine.Config/edit', { body: values })).code).toBe(1);

  async function member(score = 0): Promise<{ id: number; token: string }> {
    const username = `pts${++counter}${kind.slice(0, 2)}`;
    expect((await admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: PASSWORD } })).code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
    const id = login.data.userInfo.id;
    if (score) await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'score', userId: id, amount: score, memo: 'Earned' });
    return { id, token: login.data.userInfo.token };
  }

  /** The member's points and cents as stored, the sums of both ledgers, and how many entries each holds. */
  async function books(id: number) {
    const user = (await db().selectFrom('user').select(['money', 'score']).where('id', '=', id).executeTakeFirstOrThrow()) as Row;
    const money = (await db().selectFrom('user_money_log').select([(eb) => eb.fn.sum('money').as('sum'), (eb) => eb.fn.countAll().as('count')]).where('user_id', '=', id).executeTakeFirstOrThrow()) as Row;
    const score = (await db().selectFrom('user_score_log').select([(eb) => eb.fn.sum('score').as('sum'), (eb) => eb.fn.countAll().as('count')]).where('user_id', '=', id).executeTakeFirstOrThrow()) as Row;
    return {
      money: Number(user.money), score: Number(user.score),
      moneyLedger: Number(money.sum ?? 0), scoreLedger: Number(score.sum ?? 0),
      moneyEntries: Number(money.count), scoreEntries: Number(score.count),
    };
  }

  const exchange = (who: { token: string }, points: unknown, lang: 'en' | 'zh-cn' = 'en', requestId: unknown = randomUUID()) =>
    server.api<PointsExchangeAnswer>('account/exchangePoints', { userToken: who.token, body: { points, request_id: requestId }, lang });

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists its settings in the Points exchange group of the config screen, labelled in both languages, and refuses a value out of bounds', async () => {
    for (const [lang, group, titles] of [
      ['en', 'Points exchange', ['Exchange points for balance', 'Points for ¥1.00', 'Least points per exchange', 'Most points a member exchanges a day']],
      ['zh-cn', '积分兑换', ['开放积分兑换余额', '兑换 ¥1.00 所需积分', '单次最少兑换积分', '每位会员每日最多兑换积分']],
    ] as const) {
      const index = await admin<{ list: Record<string, { title: string; list: Row[] }> }>('routine.Config/index', { lang });
      const points = index.data.list.points;
      expect(points.title).toBe(group);
      expect(points.list.map((item) => item.title)).toEqual(titles);
      expect(points.list.every((item) => String(item.tip).length > 0)).toBe(true);
    }
    for (const [name, value] of [['points_exchange_rate', 0], ['points_exchange_rate', 1.5], ['points_exchange_min', -1], ['points_exchange_daily', 'many']] as const) {
      const refused = await admin('routine.Config/edit', { body: { [name]: value }, lang: 'zh-cn' });
      expect(refused.code).toBe(0);
      expect(refused.data).toEqual({ field: name, errorId: 'validation' });
      expect(refused.msg).toMatch(/必须是|格式不正确/);
    }
  });

  it('is closed on a fresh install: the state says so and an exchange is refused, changing nothing', async () => {
    const amy = await member(500);
    const state = await server.api<PointsExchangeState>('account/pointsExchange', { userToken: amy.token });
    expect(state.data).toMatchObject({ enabled: false, score: 500, money: '0.00' });
    const refused = await exchange(amy, 100, 'zh-cn');
    expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: '本站未开放积分兑换余额' });
    expect(await books(amy.id)).toEqual({ money: 0, score: 500, moneyLedger: 0, scoreLedger: 500, moneyEntries: 0, scoreEntries: 1 });
  });

  it('moves both ledgers once, in exact cents, and answers the new balance and points; the same request again changes nothing', async () => {
    await settings({ points_exchange: true, points_exchange_rate: 100, points_exchange_min: 100, points_exchange_daily: 1000 });
    const bo = await member(750);
    const before = await server.api<PointsExchangeState>('account/pointsExchange', { userToken: bo.token });
    expect(before.data).toEqual({ enabled: true, rate: 100, minimum: 100, step: 1, daily_limit: 1000, today: 0, remaining: 1000, score: 750, money: '0.00' });
    const requestId = randomUUID();
    const done = await exchange(bo, 345, 'zh-cn', requestId);
    expect({ code: done.code, msg: done.msg, data: done.data }).toEqual({ code: 1, msg: '已将 345 积分兑换为 ¥3.45 余额', data: { score: 405, money: '3.45', points: 345, amount: '3.45', applied: true } });
    const again = await exchange(bo, 345, 'en', requestId);
    expect({ code: again.code, msg: again.msg, data: again.data }).toEqual({ code: 1, msg: 'This exchange was already made', data: { score: 405, money: '3.45', points: 345, amount: '3.45', applied: false } });
    expect(await books(bo.id)).toEqual({ money: 345, score: 405, moneyLedger: 345, scoreLedger: 405, moneyEntries: 1, scoreEntries: 2 });
    const ledger = await server.api<{ list: Row[] }>('account/integral', { userToken: bo.token, lang: 'en' });
    expect(ledger.data.list[0]).toMatchObject({ score: -345, before: 750, after: 405, memo: 'Points exchanged for balance: 345 points for ¥3.45' });
    const after = await server.api<PointsExchangeState>('account/pointsExchange', { userToken: bo.token });
    expect(after.data).toMatchObject({ today: 345, remaining: 655 });

    // A rate that does not divide into cents: 30 points a yuan makes whole cents only in multiples of 3 (¥0.10).
    await settings({ points_exchange_rate: 30, points_exchange_min: 30 });
    const odd = await exchange(bo, 31, 'en');
    expect({ code: odd.code, msg: odd.msg, data: odd.data }).toEqual({ code: 0, msg: 'Points are exchanged in multiples of 3 (¥0.10 each)', data: { field: 'points', errorId: 'pointsExchangeStep' } });
    // A least of 31 points is raised to the next multiple of 3, and says so.
    await settings({ points_exchange_min: 31 });
    expect((await server.api<PointsExchangeState>('account/pointsExchange', { userToken: bo.token })).data).toMatchObject({ rate: 30, step: 3, minimum: 33 });
    const belowRaised = await exchange(bo, 30, 'en');
    expect(belowRaised.msg).toBe('The least you can exchange is 33 points');
    const exact = await exchange(bo, 33);
    expect(exact.data).toMatchObject({ amount: '1.10', money: '4.55', score: 372 });
    expect(await books(bo.id)).toEqual({ money: 455, score: 372, moneyLedger: 455, scoreLedger: 372, moneyEntries: 2, scoreEntries: 3 });
  });

  it('refuses below the minimum, above the points held, above the daily limit and bad input, translated, changing nothing', async () => {
    await settings({ points_exchange: true, points_exchange_rate: 100, points_exchange_min: 100, points_exchange_daily: 1000 });
    const cy = await member(1500);
    expect((await exchange(cy, 900)).code).toBe(1);
    const cases: [unknown, 'en' | 'zh-cn', string][] = [
      [50, 'en', 'The least you can exchange is 100 points'],
      [50, 'zh-cn', '单次最少兑换 100 积分'],
      [200, 'en', 'You can exchange at most 1000 points a day: 100 left today'],
      [200, 'zh-cn', '每日最多兑换 1000 积分，今日还可兑换 100 积分'],
      ['12.5', 'en', 'Please enter a whole number of points'],
      [12.5, 'zh-cn', '请输入整数积分'],
      [-100, 'en', 'Please enter a whole number of points'],
      ['', 'en', 'Please enter a whole number of points'],
      [{ points: 1 }, 'en', 'Please enter a whole number of points'],
    ];
    for (const [points, lang, msg] of cases) {
      const refused = await exchange(cy, points, lang);
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg });
    }
    const badRequestId = await exchange(cy, 100, 'zh-cn', 'x');
    expect({ code: badRequestId.code, msg: badRequestId.msg }).toEqual({ code: 0, msg: '参数错误' });
    await settings({ points_exchange_daily: 0 });
    const aboveHeld = await exchange(cy, 700, 'zh-cn');
    expect({ code: aboveHeld.code, msg: aboveHeld.msg }).toEqual({ code: 0, msg: '您只有 600 积分' });
    expect(await books(cy.id)).toEqual({ money: 900, score: 600, moneyLedger: 900, scoreLedger: 600, moneyEntries: 1, scoreEntries: 2 });
    // Rate 100 and no daily limit: the state says so.
    const state = await server.api<PointsExchangeState>('account/pointsExchange', { userToken: cy.token });
    expect(state.data).toMatchObject({ daily_limit: 0, remaining: null, today: 900 });
  });

  it('lets 20 parallel exchanges pass neither the points held nor the daily limit', async () => {
    await settings({ points_exchange: true, points_exchange_rate: 100, points_exchange_min: 100, points_exchange_daily: 1000 });
    // The daily limit binds: 2000 points held, 1000 a day, 20 × 100 asked at once.
    const di = await member(2000);
    const first = await Promise.all(Array.from({ length: 20 }, () => exchange(di, 100)));
    expect(first.filter((answer) => answer.code === 1)).toHaveLength(10);
    expect(new Set(first.filter((answer) => answer.code === 0).map((answer) => answer.msg))).toEqual(new Set(['You can exchange at most 1000 points a day: 0 left today']));
    expect(await books(di.id)).toEqual({ money: 1000, score: 1000, moneyLedger: 1000, scoreLedger: 1000, moneyEntries: 10, scoreEntries: 11 });

    // The points held bind: 700 points, no daily limit, 20 × 100 asked at once.
    await settings({ points_exchange_daily: 0 });
    const ed = await member(700);
    const second = await Promise.all(Array.from({ length: 20 }, () => exchange(ed, 100)));
    expect(second.filter((answer) => answer.code === 1)).toHaveLength(7);
    expect(await books(ed.id)).toEqual({ money: 700, score: 0, moneyLedger: 700, scoreLedger: 0, moneyEntries: 7, scoreEntries: 8 });

    // One request sent 20 times at once is applied once.
    const fay = await member(500);
    const requestId = randomUUID();
    const doubled = await Promise.all(Array.from({ length: 20 }, () => exchange(fay, 200, 'en', requestId)));
    expect(doubled.every((answer) => answer.code === 1)).toBe(true);
    expect(doubled.filter((answer) => answer.data.applied)).toHaveLength(1);
    expect(await books(fay.id)).toEqual({ money: 200, score: 300, moneyLedger: 200, scoreLedger: 300, moneyEntries: 1, scoreEntries: 2 });
  });
});

describe.each(DATABASES)('a database made before the points exchange on %s', (kind) => {
  it('gains the Points exchange group and its items at the next start, keeping the groups an administrator set', async () => {
    const database = await createTestDatabase(kind);
    try {
      const first = await startTestServer(kind, { databaseUrl: database.url });
      const db = first.server.app.db;
      await db.deleteFrom('config').where('name', 'like', 'points_exchange%').execute();
      const groups = JSON.stringify([{ key: 'basics', value: 'Basics' }, { key: 'mail', value: 'Mail' }, { key: 'extra', value: 'Extra' }, { key: 'config_quick_entrance', value: 'Config Quick entrance' }]);
      await db.updateTable('config').set({ value: groups }).where('name', '=', 'config_group').execute();
      await first.close();

      const second = await startTestServer(kind, { databaseUrl: database.url });
      try {
        const adminToken = (await second.loginAdmin()).token;
        const index = await second.admin<{ configGroup: Record<string, string>; list: Record<string, { list?: Row[] }> }>('routine.Config/index', { token: adminToken, lang: 'en' });
        expect(Object.keys(index.data.configGroup)).toEqual(['basics', 'mail', 'extra', 'config_quick_entrance', 'points', 'payout', 'upload']);
        expect(index.data.list.points.list?.map((item) => [item.name, item.value])).toEqual([
          ['points_exchange', false], ['points_exchange_rate', '100'], ['points_exchange_min', '100'], ['points_exchange_daily', '10000'],
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
