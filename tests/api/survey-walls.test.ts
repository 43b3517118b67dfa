import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByTable } from '../../src/server/app-context.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { nowSeconds } from '../../src/server/clock.js';
import { releaseDueHolds } from '../../src/server/services/holds.js';
import { recordLedgerEntry } from '../../src/server/services/ledger.js';
import { recordWallCallback, type WallCallbackResult } from '../../src/server/services/survey/walls.js';
import type { ProviderRow } from '../../src/server/services/survey/returns.js';
import { signRequest, type SignatureRecipe } from '../../src/server/services/survey/signature-recipe.js';
import { updateDomainRow } from '../../src/server/writes/domain-writes.js';
import { callbackProcess, sendTogether, stopAll } from '../support/callback-process.js';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * Survey walls and routers on both databases (docs/survey-domain.md#walls-and-routers): the member opens a
 * wall with their opaque wall id, the wall's callbacks credit each transaction once (sequential repeats, 20 at
 * once), reversals take back exactly what was credited whichever comes first, test traffic and amounts above
 * the caps credit nothing, a reversal the balance cannot cover leaves a shortfall the next credits settle (or a
 * balance below zero where the provider allows it), and every balance still equals its ledger.
 */

type Row = Record<string, unknown>;
const MEMBER_PASSWORD = 'Member_pass1';
const DAY = 86_400;

describe.each(DATABASES)('survey walls on %s', (kind) => {
  let server: TestServer;
  let token: string;
  let counter = 0;

  const db = () => server.server.app.db;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  async function ok<T = unknown>(response: Promise<{ code: number; msg: string; data: T }>): Promise<T> {
    const answer = await response;
    expect({ code: answer.code, msg: answer.msg }).toMatchObject({ code: 1 });
    return answer.data;
  }

  async function createWall(values: Row = {}): Promise<ProviderRow> {
    const code = `w${++counter}${kind.slice(0, 2)}`;
    await ok(admin('survey.Provider/add', {
      body: {
        code, name: `Wall ${code}`, secret: 'wall-secret-1', kind: 'wall', member_param: 'uid', transaction_param: 'tx', amount_param: 'amount',
        reversal: { by: 'status', param: 'status', value: '2' }, test_param: 'debug', test_value: '1',
        wall_url: `https://wall.example/offers?app=7&user={member}&lang=en`, wall_credit: 'money', amount_in: 'major', ...values,
      },
    }));
    return (await db().selectFrom('survey_provider').selectAll().where('code', '=', code).executeTakeFirstOrThrow()) as ProviderRow;
  }

  /** A wall whose address is gone: the back office refuses to save one, but a row may hold it from before. */
  async function createUnsetWall(): Promise<ProviderRow> {
    const wall = await createWall();
    await db().updateTable('survey_provider').set({ wall_url: '' }).where('id', '=', wall.id).execute();
    return { ...wall, wall_url: '' };
  }

  async function createMember(): Promise<{ id: number; token: string }> {
    const username = `wm${++counter}x${kind.slice(0, 2)}`;
    await ok(admin('user.User/add', { body: { username, nickname: username, group_id: 1, password: MEMBER_PASSWORD } }));
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: MEMBER_PASSWORD } });
    expect(login.code).toBe(1);
    return { id: login.data.userInfo.id, token: login.data.userInfo.token };
  }

  /** The member's wall id, as the wall receives it: the `user` parameter of the address the member is sent to. */
  async function wallIdOf(member: { token: string }, wall: ProviderRow): Promise<string> {
    const answer = await ok(server.api<{ url: string }>('survey/wall', { query: { provider: wall.code }, userToken: member.token }));
    return new URL(answer.url).searchParams.get('user') as string;
  }

  /** The wall's callback, its signature and address already checked (as `returns.ts` does before calling). */
  async function callback(wall: ProviderRow, query: Record<string, string>): Promise<WallCallbackResult> {
    const params = new URLSearchParams(query);
    const fresh = (await db().selectFrom('survey_provider').selectAll().where('id', '=', wall.id).executeTakeFirstOrThrow()) as ProviderRow;
    return recordWallCallback(server.server.app, fresh, (name) => params.get(name) ?? undefined, { ip: '203.0.113.9', rawQuery: params.toString() });
  }

  async function balance(userId: number): Promise<{ money: number; score: number; shortfallMoney: number; shortfallScore: number }> {
    const user = await db().selectFrom('user').select(['money', 'score', 'wall_shortfall_money', 'wall_shortfall_score']).where('id', '=', userId).executeTakeFirstOrThrow();
    return { money: Number(user.money), score: Number(user.score), shortfallMoney: Number(user.wall_shortfall_money), shortfallScore: Number(user.wall_shortfall_score) };
  }

  /** Every member's balance equals the sum of their ledger (docs/survey-domain.md#ledgers). */
  async function expectLedgersAddUp(userId: number) {
    const money = await db().selectFrom('user_money_log').select((eb) => eb.fn.sum<number | string | null>('money').as('sum')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const score = await db().selectFrom('user_score_log').select((eb) => eb.fn.sum<number | string | null>('score').as('sum')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const current = await balance(userId);
    expect(current.money).toBe(Number(money.sum ?? 0));
    expect(current.score).toBe(Number(score.sum ?? 0));
  }

  async function transactions(wall: ProviderRow): Promise<Row[]> {
    return (await dynamicDb(db()).selectFrom('survey_wall_transaction').selectAll().where('provider_id', '=', wall.id).orderBy('id').execute()) as Row[];
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('the member opens a wall', () => {
    it('lists the enabled walls with an address, and sends the member there with an opaque id that stays the same', async () => {
      const wall = await createWall();
      const disabled = await createWall({ status: 'disable' });
      const unset = await createUnsetWall();
      const member = await createMember();
      const list = await ok(server.api<{ list: { code: string; name: string }[] }>('survey/walls', { userToken: member.token }));
      const codes = list.list.map((entry) => entry.code);
      expect(codes).toContain(wall.code);
      expect(codes).not.toContain(disabled.code);
      expect(codes).not.toContain(unset.code);
      expect(list.list.find((entry) => entry.code === wall.code)).toEqual({ code: wall.code, name: wall.name });

      const answer = await ok(server.api<{ url: string }>('survey/wall', { query: { provider: wall.code }, userToken: member.token }));
      const url = new URL(answer.url);
      expect(`${url.origin}${url.pathname}`).toBe('https://wall.example/offers');
      expect(url.searchParams.get('app')).toBe('7');
      expect(url.searchParams.get('lang')).toBe('en');
      const id = url.searchParams.get('user') as string;
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id).not.toBe(String(member.id));
      // the same id every time, on every wall
      expect(await wallIdOf(member, wall)).toBe(id);
      const other = await createWall({ wall_url: 'https://router.example/r/{member}?src=panel' });
      expect((await ok(server.api<{ url: string }>('survey/wall', { query: { provider: other.code }, userToken: member.token }))).url).toBe(`https://router.example/r/${id}?src=panel`);
      // and another member gets another one
      expect(await wallIdOf(await createMember(), wall)).not.toBe(id);
    });

    it('keeps the wall id across a restart and for another server on the same database', async () => {
      const wall = await createWall();
      const member = await createMember();
      const id = await wallIdOf(member, wall);
      if (kind === 'postgres') {
        // a second server process on the same PostgreSQL database
        const second = await startTestServer(kind, { databaseUrl: server.databaseUrl, keepDatabase: true });
        try {
          const answer = await second.api<{ url: string }>('survey/wall', { query: { provider: wall.code }, userToken: member.token });
          expect(new URL(answer.data.url).searchParams.get('user')).toBe(id);
        } finally {
          await second.close();
        }
      } else {
        const stored = await db().selectFrom('user').select('wall_member_id').where('id', '=', member.id).executeTakeFirstOrThrow();
        expect(stored.wall_member_id).toBe(id);
      }
    });

    it('refuses an unknown, disabled or project provider, and a visitor, in the member\'s language', async () => {
      const member = await createMember();
      const project = await ok(admin('survey.Provider/add', { body: { code: `proj${kind.slice(0, 2)}`, name: 'Project panel', secret: 'project-secret-1' } })).then(() => `proj${kind.slice(0, 2)}`);
      const disabled = await createWall({ status: 'disable' });
      const unset = await createUnsetWall();
      for (const provider of ['nope', project, disabled.code]) {
        const en = await server.api('survey/wall', { query: { provider }, userToken: member.token, lang: 'en' });
        expect({ code: en.code, msg: en.msg }).toEqual({ code: 0, msg: 'This survey wall is not available' });
        const zh = await server.api('survey/wall', { query: { provider }, userToken: member.token, lang: 'zh-cn' });
        expect(zh.msg).toBe('该问卷墙暂不可用');
      }
      const notReady = await server.api('survey/wall', { query: { provider: unset.code }, userToken: member.token, lang: 'zh-cn' });
      expect({ code: notReady.code, msg: notReady.msg }).toEqual({ code: 0, msg: '该问卷墙尚未设置好：缺少问卷墙地址' });
      const visitor = await server.api('survey/wall', { query: { provider: unset.code } });
      expect(visitor.code).toBe(303);
      // Opening a wall it refused gave the member no wall id.
      expect((await db().selectFrom('user').select('wall_member_id').where('id', '=', member.id).executeTakeFirstOrThrow()).wall_member_id).toBe('');
    });
  });

  describe('callbacks', () => {
    it('credits a transaction once, however often it is sent', async () => {
      const wall = await createWall();
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      const first = await callback(wall, { uid, tx: 'T-1', amount: '1.25' });
      expect(first).toMatchObject({ answer: 'ok', event: 'credited' });
      expect(await balance(member.id)).toMatchObject({ money: 125 });
      for (let repeat = 0; repeat < 3; repeat++) expect((await callback(wall, { uid, tx: 'T-1', amount: '1.25' })).answer).toBe('duplicate');
      expect(await balance(member.id)).toMatchObject({ money: 125 });
      const rows = await transactions(wall);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ transaction_id: 'T-1', state: 'credited', unit: 'money', user_id: member.id, ip: '203.0.113.9' });
      expect(Number(rows[0].money)).toBe(125);
      const entry = await db().selectFrom('user_money_log').select(['money', 'memo']).where('id', '=', Number(rows[0].credit_log_id)).executeTakeFirstOrThrow();
      expect(Number(entry.money)).toBe(125);
      expect(JSON.parse(entry.memo)).toEqual({ key: 'Survey wall %s: transaction %s', params: [wall.name, 'T-1'] });
      await expectLedgersAddUp(member.id);
    });

    it('credits once when 20 identical callbacks arrive together', async () => {
      const wall = await createWall();
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      const results = await Promise.all(Array.from({ length: 20 }, () => callback(wall, { uid, tx: 'PAR-1', amount: '2.50' })));
      expect(results.filter((result) => result.answer === 'ok')).toHaveLength(1);
      expect(results.filter((result) => result.answer === 'duplicate')).toHaveLength(19);
      expect(await balance(member.id)).toMatchObject({ money: 250 });
      expect(await transactions(wall)).toHaveLength(1);
      await expectLedgersAddUp(member.id);
    });

    it('reads amounts exactly: currency units to cents, cents or points as whole numbers, to points on a points wall', async () => {
      const member = await createMember();
      const money = await createWall();
      const uid = await wallIdOf(member, money);
      await callback(money, { uid, tx: 'A1', amount: '0.07' });
      await callback(money, { uid, tx: 'A2', amount: '19.9' });
      await callback(money, { uid, tx: 'A3', amount: '3.100' });
      expect(await balance(member.id)).toMatchObject({ money: 7 + 1990 + 310 });
      const cents = await createWall({ amount_in: 'minor' });
      await callback(cents, { uid, tx: 'B1', amount: '125' });
      expect(await balance(member.id)).toMatchObject({ money: 7 + 1990 + 310 + 125 });
      const points = await createWall({ amount_in: 'minor', wall_credit: 'score' });
      await callback(points, { uid, tx: 'C1', amount: '340' });
      expect(await balance(member.id)).toMatchObject({ score: 340 });
      expect((await transactions(points))[0]).toMatchObject({ unit: 'score', score: 340 });
      await expectLedgersAddUp(member.id);
    });

    it('refuses what is not an amount, an unknown member or a missing transaction id, and records nothing', async () => {
      const wall = await createWall();
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      const refusals: [Record<string, string>, string][] = [
        [{ uid, tx: 'X1', amount: '1.255' }, 'The amount "1.255" (parameter "amount") must be a number with at most two decimals'],
        [{ uid, tx: 'X2', amount: '1e3' }, 'The amount "1e3" (parameter "amount") must be a number with at most two decimals'],
        [{ uid, tx: 'X3' }, 'The amount (parameter "amount") is missing'],
        [{ uid, tx: 'X4', amount: '-1.00' }, 'The amount "-1.00" is below zero, but this wall does not mark reversals by negative amounts'],
        [{ uid, amount: '1.00' }, 'The transaction id (parameter "tx") is missing or longer than 100 characters'],
        [{ uid, tx: 'x'.repeat(101), amount: '1.00' }, 'The transaction id (parameter "tx") is missing or longer than 100 characters'],
        [{ uid: 'f'.repeat(32), tx: 'X5', amount: '1.00' }, 'No member has the wall id in parameter "uid"'],
        [{ uid: String(member.id), tx: 'X6', amount: '1.00' }, 'No member has the wall id in parameter "uid"'],
      ];
      for (const [query, message] of refusals) {
        const result = await callback(wall, query);
        expect(result.answer, message).toBe('refused');
        if (result.answer === 'refused') expect(server.server.app.messages.translator('en')(result.error.msg, result.error.params)).toBe(message);
      }
      const minor = await createWall({ amount_in: 'minor' });
      const whole = await callback(minor, { uid, tx: 'X7', amount: '1.5' });
      expect(whole.answer).toBe('refused');
      expect(await transactions(wall)).toHaveLength(0);
      expect(await transactions(minor)).toHaveLength(0);
      expect(await balance(member.id)).toMatchObject({ money: 0, score: 0 });
    });

    it('records test traffic and credits nothing for it', async () => {
      const wall = await createWall();
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      expect(await callback(wall, { uid, tx: 'TEST-1', amount: '5.00', debug: '1' })).toMatchObject({ answer: 'ok', event: 'test' });
      expect((await callback(wall, { uid, tx: 'TEST-1', amount: '5.00', debug: '1' })).answer).toBe('duplicate');
      // a wall's dashboard test with a made-up member
      expect(await callback(wall, { uid: 'someone', tx: 'TEST-2', amount: '5.00', debug: '1' })).toMatchObject({ answer: 'ok', event: 'test' });
      expect((await transactions(wall)).map((row) => row.state)).toEqual(['test']);
      expect(await balance(member.id)).toMatchObject({ money: 0 });
    });

    it('refuses and records an amount above the cap per transaction or per member and day', async () => {
      const wall = await createWall({ cap_transaction: 500, cap_member_day: 800 });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      const above = await callback(wall, { uid, tx: 'CAP-1', amount: '5.01' });
      expect(above.answer).toBe('refused');
      if (above.answer === 'refused') expect(server.server.app.messages.translator('zh-cn')(above.error.msg, above.error.params)).toBe('金额超过该问卷墙单笔交易上限 5.00');
      // sent again: still refused, still one row
      expect((await callback(wall, { uid, tx: 'CAP-1', amount: '5.01' })).answer).toBe('refused');
      expect((await callback(wall, { uid, tx: 'CAP-2', amount: '5.00' })).answer).toBe('ok');
      expect((await callback(wall, { uid, tx: 'CAP-3', amount: '2.00' })).answer).toBe('ok');
      const day = await callback(wall, { uid, tx: 'CAP-4', amount: '1.01' });
      expect(day.answer).toBe('refused');
      if (day.answer === 'refused') expect(server.server.app.messages.translator('en')(day.error.msg, day.error.params)).toBe('The amount would take the member above this wall\'s cap of 8.00 a day (credited today: 7.00)');
      expect((await callback(wall, { uid, tx: 'CAP-5', amount: '1.00' })).answer).toBe('ok');
      expect(await balance(member.id)).toMatchObject({ money: 800 });
      const rows = await transactions(wall);
      expect(rows.map((row) => [row.transaction_id, row.state])).toEqual([['CAP-1', 'refused'], ['CAP-2', 'credited'], ['CAP-3', 'credited'], ['CAP-4', 'refused'], ['CAP-5', 'credited']]);
      // A refused transaction is never reversed (schemas/survey/wall_transaction.json): the wall's reversal of it
      // is answered as a repeat, and the move itself is refused by the engine, the row unchanged.
      expect((await callback(wall, { uid, tx: 'CAP-1', amount: '5.01', status: '2' })).answer).toBe('duplicate');
      const app = server.server.app;
      const definition = resourceByTable(app, 'survey_wall_transaction');
      const move = app.db.transaction().execute((trx) => updateDomainRow({ adminId: 0, ip: '127.0.0.1', userAgent: 'test' }, trx, { definition, existing: rows[0], changes: { state: 'reversed' } }));
      await expect(move).rejects.toMatchObject({ id: 'invalidTransition', msg: '%s cannot change from "%s" to "%s"' });
      expect((await transactions(wall))[0]).toEqual(rows[0]);
      // the back office reads the reason in its language
      const list = await ok(admin<{ list: Row[] }>('survey.WallTransaction/index', { query: { search: [{ field: 'provider_id', val: wall.id, operator: '=' }, { field: 'state', val: 'refused', operator: '=' }] }, lang: 'en' }));
      expect(list.list.map((row) => row.reason)).toEqual([
        'The amount would take the member above this wall\'s cap of 8.00 a day (credited today: 7.00)',
        'The amount is above this wall\'s cap of 5.00 per transaction',
      ]);
      await expectLedgersAddUp(member.id);
    });
  });

  describe('reversals', () => {
    it('takes back exactly what the transaction credited, once', async () => {
      const wall = await createWall();
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'R-1', amount: '3.00' });
      await callback(wall, { uid, tx: 'R-2', amount: '1.00' });
      // the reversal's own amount is not what is debited
      expect(await callback(wall, { uid, tx: 'R-1', amount: '0.50', status: '2' })).toMatchObject({ answer: 'ok', event: 'reversed' });
      expect(await balance(member.id)).toMatchObject({ money: 100, shortfallMoney: 0 });
      expect((await callback(wall, { uid, tx: 'R-1', amount: '3.00', status: '2' })).answer).toBe('duplicate');
      // and the credit sent again after its reversal pays nothing
      expect((await callback(wall, { uid, tx: 'R-1', amount: '3.00' })).answer).toBe('duplicate');
      expect(await balance(member.id)).toMatchObject({ money: 100 });
      const row = (await transactions(wall))[0];
      expect(row).toMatchObject({ state: 'reversed', shortfall: 0 });
      const entry = await db().selectFrom('user_money_log').select('money').where('id', '=', Number(row.reversal_log_id)).executeTakeFirstOrThrow();
      expect(Number(entry.money)).toBe(-300);
      await expectLedgersAddUp(member.id);
    });

    it('keeps a reversal that arrives before its credit, so the credit is not paid', async () => {
      const wall = await createWall({ reversal: { by: 'prefix', param: 'tx', value: 'r-' } });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      expect(await callback(wall, { uid, tx: 'r-EARLY', amount: '4.00' })).toMatchObject({ answer: 'ok', event: 'reversed' });
      expect((await callback(wall, { uid, tx: 'EARLY', amount: '4.00' })).answer).toBe('duplicate');
      expect((await callback(wall, { uid, tx: 'r-EARLY', amount: '4.00' })).answer).toBe('duplicate');
      expect(await balance(member.id)).toMatchObject({ money: 0, shortfallMoney: 0 });
      expect((await transactions(wall)).map((row) => [row.transaction_id, row.state])).toEqual([['EARLY', 'reversed']]);
      await expectLedgersAddUp(member.id);
    });

    it('reverses by a negative amount where the wall says so', async () => {
      const wall = await createWall({ reversal: { by: 'negative_amount' } });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'N-1', amount: '2.00' });
      expect(await callback(wall, { uid, tx: 'N-1', amount: '-2.00' })).toMatchObject({ answer: 'ok', event: 'reversed' });
      expect(await balance(member.id)).toMatchObject({ money: 0 });
      await expectLedgersAddUp(member.id);
    });

    it('refuses a transaction named for another member', async () => {
      const wall = await createWall();
      const owner = await createMember();
      const other = await createMember();
      await callback(wall, { uid: await wallIdOf(owner, wall), tx: 'OWN-1', amount: '1.00' });
      const otherId = await wallIdOf(other, wall);
      expect((await callback(wall, { uid: otherId, tx: 'OWN-1', amount: '1.00', status: '2' })).answer).toBe('refused');
      expect((await callback(wall, { uid: otherId, tx: 'OWN-1', amount: '1.00' })).answer).toBe('refused');
      expect(await balance(owner.id)).toMatchObject({ money: 100 });
      expect(await balance(other.id)).toMatchObject({ money: 0 });
    });

    it('debits what the balance covers and settles the rest from the next credits', async () => {
      const wall = await createWall();
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'S-1', amount: '5.00' });
      // the member spends most of it
      await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'money', userId: member.id, amount: -400, memo: 'Spent' });
      await callback(wall, { uid, tx: 'S-1', status: '2' });
      expect(await balance(member.id)).toMatchObject({ money: 0, shortfallMoney: 400 });
      expect((await transactions(wall))[0]).toMatchObject({ state: 'reversed', shortfall: 400 });
      await expectLedgersAddUp(member.id);
      // the next credit goes to what is owed first
      await callback(wall, { uid, tx: 'S-2', amount: '3.00' });
      expect(await balance(member.id)).toMatchObject({ money: 0, shortfallMoney: 100 });
      const next = await createWall();
      await callback(next, { uid, tx: 'S-3', amount: '2.00' });
      expect(await balance(member.id)).toMatchObject({ money: 100, shortfallMoney: 0 });
      const rows = [...(await transactions(wall)), ...(await transactions(next))];
      expect(rows.map((row) => [row.transaction_id, row.state, Number(row.settled)])).toEqual([['S-1', 'reversed', 0], ['S-2', 'credited', 300], ['S-3', 'credited', 100]]);
      const settle = await db().selectFrom('user_money_log').select(['money', 'memo']).where('id', '=', Number(rows[2].settle_log_id)).executeTakeFirstOrThrow();
      expect(Number(settle.money)).toBe(-100);
      expect(JSON.parse(settle.memo)).toEqual({ key: 'Survey wall %s: earlier reversal settled from transaction %s', params: [next.name, 'S-3'] });
      // with nothing owed, a credit is paid in full
      await callback(next, { uid, tx: 'S-4', amount: '1.00' });
      expect(await balance(member.id)).toMatchObject({ money: 200, shortfallMoney: 0 });
      await expectLedgersAddUp(member.id);
    });

    it('settles a shortfall from a held credit when the sweep makes it available, as from one paid at once', async () => {
      const wall = await createWall();
      const holding = await createWall({ hold_days: 2 });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'HS-1', amount: '5.00' });
      await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'money', userId: member.id, amount: -400, memo: 'Spent' });
      await callback(wall, { uid, tx: 'HS-1', status: '2' });
      expect(await balance(member.id)).toMatchObject({ money: 0, shortfallMoney: 400 });
      // pending: nothing reaches the balance, so nothing settles yet
      await callback(holding, { uid, tx: 'HS-2', amount: '3.00' });
      expect(await balance(member.id)).toMatchObject({ money: 0, shortfallMoney: 400 });
      const due = nowSeconds() + 2 * DAY + 60;
      expect(await releaseDueHolds(server.server.app, due)).toBe(1);
      expect(await balance(member.id)).toMatchObject({ money: 0, shortfallMoney: 100 });
      const [held] = await transactions(holding);
      expect({ state: held.state, settled: Number(held.settled) }).toEqual({ state: 'credited', settled: 300 });
      const credit = await db().selectFrom('user_money_log').select(['money', 'memo']).where('id', '=', Number(held.credit_log_id)).executeTakeFirstOrThrow();
      expect(Number(credit.money)).toBe(300);
      const settle = await db().selectFrom('user_money_log').select(['money', 'memo', 'idempotency_key']).where('id', '=', Number(held.settle_log_id)).executeTakeFirstOrThrow();
      expect({ money: Number(settle.money), key: settle.idempotency_key, memo: JSON.parse(settle.memo) })
        .toEqual({ money: -300, key: `wall:${String(held.id)}:settle`, memo: { key: 'Survey wall %s: earlier reversal settled from transaction %s', params: [holding.name, 'HS-2'] } });
      // another sweep changes nothing; the next held credit settles the rest and pays the remainder
      expect(await releaseDueHolds(server.server.app, due)).toBe(0);
      await callback(holding, { uid, tx: 'HS-3', amount: '2.00' });
      expect(await releaseDueHolds(server.server.app, due)).toBe(1);
      expect(await balance(member.id)).toMatchObject({ money: 100, shortfallMoney: 0 });
      expect((await transactions(holding)).map((row) => [row.transaction_id, Number(row.settled)])).toEqual([['HS-2', 300], ['HS-3', 100]]);
      await expectLedgersAddUp(member.id);
    });

    it('answers reversals that race the sweep releasing their held credits, each taken back exactly once', async () => {
      // The sweep locks a hold, then its member; a reversal must take the same order, or PostgreSQL would
      // abort one of the two as a deadlock (a callback answered with an error, a sweep run lost).
      const holding = await createWall({ hold_days: 1 });
      const members = await Promise.all(Array.from({ length: 8 }, () => createMember()));
      const uids = await Promise.all(members.map((member) => wallIdOf(member, holding)));
      for (const [index, uid] of uids.entries()) expect((await callback(holding, { uid, tx: `RACE-${index}`, amount: '3.00' })).answer).toBe('ok');
      const due = nowSeconds() + DAY + 60;
      const [released, ...answers] = await Promise.all([
        releaseDueHolds(server.server.app, due),
        ...uids.map((uid, index) => callback(holding, { uid, tx: `RACE-${index}`, status: '2' })),
      ]);
      expect(answers.map((answer) => answer.answer)).toEqual(uids.map(() => 'ok'));
      expect(released).toBeLessThanOrEqual(uids.length);
      expect(await releaseDueHolds(server.server.app, due)).toBe(0);
      for (const member of members) {
        // released then taken back, or cancelled while pending: nothing stays with the member, nothing is owed
        expect(await balance(member.id)).toMatchObject({ money: 0, shortfallMoney: 0 });
        await expectLedgersAddUp(member.id);
      }
      expect((await transactions(holding)).map((row) => row.state)).toEqual(uids.map(() => 'reversed'));
    });

    it('lets the balance go below zero where the provider allows it, and credits it back up', async () => {
      const wall = await createWall({ allow_negative: true });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'NEG-1', amount: '5.00' });
      await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'money', userId: member.id, amount: -400, memo: 'Spent' });
      await callback(wall, { uid, tx: 'NEG-1', status: '2' });
      expect(await balance(member.id)).toMatchObject({ money: -400, shortfallMoney: 0 });
      await callback(wall, { uid, tx: 'NEG-2', amount: '1.00' });
      expect(await balance(member.id)).toMatchObject({ money: -300 });
      // other debits still may not go below zero
      await expect(recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'money', userId: member.id, amount: -1, memo: 'Spent' })).rejects.toThrow();
      await expectLedgersAddUp(member.id);
    });

    it('settles a points shortfall from the next points credit', async () => {
      const wall = await createWall({ wall_credit: 'score', amount_in: 'minor' });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'P-1', amount: '100' });
      await recordLedgerEntry(db(), server.server.app.handle.dialect, { kind: 'score', userId: member.id, amount: -70, memo: 'Spent' });
      await callback(wall, { uid, tx: 'P-1', status: '2' });
      expect(await balance(member.id)).toMatchObject({ score: 0, shortfallScore: 70 });
      await callback(wall, { uid, tx: 'P-2', amount: '100' });
      expect(await balance(member.id)).toMatchObject({ score: 30, shortfallScore: 0 });
      await expectLedgersAddUp(member.id);
    });
  });

  describe('what the member and the back office see', () => {
    it('lists the member\'s wall credits, reversals and refusals with the wall\'s name, not test traffic', async () => {
      const wall = await createWall({ cap_transaction: 1000 });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'M-1', amount: '1.50' });
      await callback(wall, { uid, tx: 'M-2', amount: '2.00' });
      await callback(wall, { uid, tx: 'M-2', status: '2' });
      await callback(wall, { uid, tx: 'M-3', amount: '99.00' });
      await callback(wall, { uid, tx: 'M-4', amount: '1.00', debug: '1' });
      const page = await ok(server.api<{ list: Row[]; total: number; tags: Record<string, Record<string, { label: string }>> }>('survey/wallRecords', { userToken: member.token, lang: 'zh-cn' }));
      expect(page.total).toBe(3);
      expect(page.list.map((row) => [row.transaction_id, row.state, row.money, row.provider])).toEqual([
        ['M-3', 'refused', '99.00', wall.name], ['M-2', 'reversed', '2.00', wall.name], ['M-1', 'credited', '1.50', wall.name],
      ]);
      expect(page.tags.state.reversed.label).toBe('已撤销');
      // another member sees none of them
      const other = await createMember();
      expect((await ok(server.api<{ total: number }>('survey/wallRecords', { userToken: other.token }))).total).toBe(0);
    });

    it('tells the member why a transaction was reversed or refused, in their language: our reason from the status it carries and the provider\'s own words', async () => {
      const wall = await createWall({ cap_transaction: 1000, reason_param: 'why', status_param: 'code', exit_map: { '30': 'security', '40': 'terminate' } });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'R-1', amount: '1.00', why: '' });
      await callback(wall, { uid, tx: 'R-1', status: '2', code: '30', why: 'Duplicate respondent' });
      await callback(wall, { uid, tx: 'R-2', amount: '1.00' });
      await callback(wall, { uid, tx: 'R-2', status: '2' });
      // reversed before its credit arrived
      await callback(wall, { uid, tx: 'R-3', status: '2', code: '40' });
      await callback(wall, { uid, tx: 'R-4', amount: '20.00' });
      const reasons = async (lang: 'en' | 'zh-cn') =>
        (await ok(server.api<{ list: Row[] }>('survey/wallRecords', { userToken: member.token, lang }))).list.map((row) => [row.transaction_id, row.reason]);
      expect(await reasons('en')).toEqual([
        ['R-4', 'The amount is above this wall\'s cap of 10.00 per transaction'],
        ['R-3', 'Reversed by the provider: the answers did not qualify'],
        ['R-2', 'Reversed by the provider'],
        ['R-1', 'Reversed by the provider: the answers failed its quality checks (the provider says: Duplicate respondent)'],
      ]);
      expect(await reasons('zh-cn')).toEqual([
        ['R-4', expect.stringMatching(/10\.00/)],
        ['R-3', '渠道已撤销：答卷不符合条件'],
        ['R-2', '渠道已撤销'],
        ['R-1', '渠道已撤销：答卷未通过渠道的质量检查（渠道说明：Duplicate respondent）'],
      ]);
      // stored as our reason's key and the provider's words, apart
      const stored = await transactions(wall);
      expect([stored[0].reason, stored[0].provider_reason]).toEqual([JSON.stringify({ key: 'Reversed by the provider: the answers failed its quality checks', params: [] }), 'Duplicate respondent']);
      // the back office reads the same reason in its own language
      const list = await ok(admin<{ list: Row[] }>('survey.WallTransaction/index', { query: { search: [{ field: 'provider_id', val: wall.id, operator: '=' }] }, lang: 'zh-cn' }));
      expect(list.list.find((row) => row.transaction_id === 'R-2')?.reason).toBe('渠道已撤销');
    });

    it('gives the back office a read-only list and per-wall figures on the dashboard', async () => {
      const wall = await createWall({ name: 'Dashboard wall', cap_transaction: 1000 });
      const member = await createMember();
      const uid = await wallIdOf(member, wall);
      await callback(wall, { uid, tx: 'D-1', amount: '1.50' });
      await callback(wall, { uid, tx: 'D-2', amount: '2.00' });
      await callback(wall, { uid, tx: 'D-3', amount: '3.00' });
      await callback(wall, { uid, tx: 'D-3', status: '2' });
      await callback(wall, { uid, tx: 'D-4', amount: '50.00' });
      await callback(wall, { uid, tx: 'D-5', amount: '1.00', debug: '1' });
      // under Surveys, with the list and its export only
      const directory = await db().selectFrom('admin_rule').select('id').where('name', '=', 'survey').executeTakeFirstOrThrow();
      const menu = await db().selectFrom('admin_rule').select(['id', 'pid', 'title']).where('name', '=', 'survey/wallTransaction').executeTakeFirstOrThrow();
      expect({ pid: Number(menu.pid), title: menu.title }).toEqual({ pid: Number(directory.id), title: '问卷墙交易' });
      const nodes = await db().selectFrom('admin_rule').select('name').where('pid', '=', menu.id).orderBy('name').execute();
      expect(nodes.map((node) => node.name)).toEqual(['survey/wallTransaction/export', 'survey/wallTransaction/index']);
      const list = await ok(admin<{ list: Row[]; total: number }>('survey.WallTransaction/index', { query: { search: [{ field: 'provider_id', val: wall.id, operator: '=' }, { field: 'user_id', val: member.id, operator: '=' }] } }));
      expect(list.total).toBe(5);
      expect(list.list[0]).toMatchObject({ transaction_id: 'D-5', state: 'test', provider: { name: 'Dashboard wall' } });
      const refused = await admin('survey.WallTransaction/add', { body: { provider_id: wall.id, user_id: member.id, transaction_id: 'FAKE' } });
      expect({ code: refused.code, msg: refused.msg }).toEqual({ code: 0, msg: 'Wall transactions are written by the walls\' callbacks and cannot be changed' });
      const dashboard = await ok(admin<{ figures: { walls: Row[] } }>('Dashboard/index'));
      expect(dashboard.figures.walls.find((row) => row.id === Number(wall.id))).toEqual({ id: Number(wall.id), name: 'Dashboard wall', credited: 2, reversed: 1, refused: 1, money: '3.50', score: 0 });
    });
  });
});

describe('survey callbacks across two server processes on postgres', { tags: 'full' }, () => {
  let server: TestServer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    server = await startTestServer('postgres');
  });

  afterAll(async () => {
    stopAll(children);
    await server?.close();
  });

  it('credits once when 20 identical callbacks arrive at two processes together', async () => {
    const token = (await server.loginAdmin()).token;
    const add = await server.admin('survey.Provider/add', {
      token,
      body: { code: 'twoproc', name: 'Two processes', secret: 'wall-secret-1', kind: 'wall', member_param: 'uid', transaction_param: 'tx', amount_param: 'amount', wall_url: 'https://wall.example/?u={member}' },
    });
    expect(add.code).toBe(1);
    expect((await server.admin('user.User/add', { token, body: { username: 'twoproc', nickname: 'Two', group_id: 1, password: MEMBER_PASSWORD } })).code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username: 'twoproc', password: MEMBER_PASSWORD } });
    const opened = await server.api<{ url: string }>('survey/wall', { query: { provider: 'twoproc' }, userToken: login.data.userInfo.token });
    const uid = new URL(opened.data.url).searchParams.get('u') as string;
    const query = new URLSearchParams({ uid, tx: 'TWO-1', amount: '7.77' }).toString();

    const processes = [0, 1].map(() => callbackProcess(server.databaseUrl, { wall: { provider: 'twoproc', query } }, 10));
    children.push(...processes.map((one) => one.child));
    const answers = await sendTogether(processes);
    expect(answers).toHaveLength(20);
    expect(answers.filter((answer) => answer === 'ok')).toHaveLength(1);
    expect(answers.filter((answer) => answer === 'duplicate')).toHaveLength(19);

    const db = server.server.app.db;
    const member = await db.selectFrom('user').select('money').where('id', '=', login.data.userInfo.id).executeTakeFirstOrThrow();
    expect(Number(member.money)).toBe(777);
    const entries = await db.selectFrom('user_money_log').select('money').where('user_id', '=', login.data.userInfo.id).execute();
    expect(entries.map((entry) => Number(entry.money))).toEqual([777]);
    expect(await db.selectFrom('survey_wall_transaction').select('state').where('transaction_id', '=', 'TWO-1').execute()).toEqual([{ state: 'credited' }]);
  }, 120_000);

  it('credits a project complete once when 20 identical signed callbacks arrive at two processes together, and debits its reversal once', async () => {
    const token = (await server.loginAdmin()).token;
    const db = server.server.app.db;
    expect((await server.admin('survey.Provider/add', { token, body: { code: 'twoproj', name: 'Two processes project', secret: 'project-secret-1', preset: 'purespectrum' } })).code).toBe(1);
    const provider = await db.selectFrom('survey_provider').selectAll().where('code', '=', 'twoproj').executeTakeFirstOrThrow();
    const survey = await server.admin('survey.Survey/add', {
      token,
      body: { provider_id: provider.id, title: 'Two processes survey', entry_url: 'https://supplier.example/s/1?id={rid}', reward_money: '3.33', reward_score: 0, loi_minutes: 1, hold_speeders: false, status: 'active' },
    });
    expect(survey.code).toBe(1);
    const surveyId = (await db.selectFrom('survey').select('id').where('title', '=', 'Two processes survey').executeTakeFirstOrThrow()).id;
    expect((await server.admin('user.User/add', { token, body: { username: 'twoproj', nickname: 'Two', group_id: 1, password: MEMBER_PASSWORD } })).code).toBe(1);
    const login = await server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username: 'twoproj', password: MEMBER_PASSWORD } });
    const memberId = login.data.userInfo.id;
    const started = await server.api<{ url: string }>('survey/start', { body: { id: surveyId }, userToken: login.data.userInfo.token });
    const rid = new URL(started.data.url).searchParams.get('id') as string;

    // The provider's call, signed as its recipe says, to the callback address of the server that receives it.
    const origin = new URL(server.url).origin;
    const path = '/api/survey/callback/twoproj';
    const signed = (pairs: [string, string][]) => {
      const query = new URLSearchParams(pairs).toString();
      const request = signRequest(JSON.parse(provider.signature) as SignatureRecipe, 'project-secret-1', provider.sig_param, { method: 'GET', origin, path, query, headers: {}, body: '', contentType: '' });
      return { request: { method: 'GET' as const, url: `${request.path}?${request.query}`, headers: { ...request.headers, host: new URL(origin).host, 'think-lang': 'en' } } };
    };
    const expected = provider.answer_body === '' ? undefined : provider.answer_body;
    const expectAnswered = (answers: unknown[], count: number) => {
      expect(answers).toHaveLength(count);
      for (const answer of answers as { status: number; body: string }[]) {
        expect(answer.status).toBe(Number(provider.answer_status));
        if (expected !== undefined) expect(answer.body).toBe(expected);
        else expect(JSON.parse(answer.body)).toMatchObject({ code: 1 });
      }
    };
    const ledger = async () => (await db.selectFrom('user_money_log').select('money').where('user_id', '=', memberId).orderBy('id').execute()).map((entry) => Number(entry.money));
    const money = async () => Number((await db.selectFrom('user').select('money').where('id', '=', memberId).executeTakeFirstOrThrow()).money);
    const participation = async () => db.selectFrom('survey_participation').select(['id', 'status']).where('rid', '=', rid).executeTakeFirstOrThrow();

    const complete = [0, 1].map(() => callbackProcess(server.databaseUrl, signed([['supSid', rid], ['ps_rstatus', '21']]), 10));
    children.push(...complete.map((one) => one.child));
    expectAnswered(await sendTogether(complete), 20);
    expect(await money()).toBe(333);
    expect(await ledger()).toEqual([333]);
    const attempt = await participation();
    expect(attempt.status).toBe('complete');
    const events = await db.selectFrom('survey_participation_event').select(['to_status']).where('participation_id', '=', attempt.id).where('to_status', '=', 'complete').execute();
    expect(events).toHaveLength(1);

    const reversal = [0, 1].map(() => callbackProcess(server.databaseUrl, signed([['ps_rstatus', '33'], ['oldStatus', '21'], ['supSid', rid]]), 1));
    children.push(...reversal.map((one) => one.child));
    expectAnswered(await sendTogether(reversal), 2);
    expect((await participation()).status).toBe('reversed');
    expect(await money()).toBe(0);
    expect(await ledger()).toEqual([333, -333]);
  }, 120_000);
});
