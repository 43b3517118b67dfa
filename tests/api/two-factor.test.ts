import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';
import { codeAt, currentStep, notACode } from '../support/totp.js';

/**
 * Two-factor sign-in for admins (docs/two-factor.md), with codes computed from RFC 6238 itself
 * (`tests/support/totp.ts`).
 */

const PASSWORD = 'Second_factor1';

interface Challenge {
  twoFactor?: { challenge: string; setup?: { secret: string; uri: string } };
  userInfo?: { token: string };
  recoveryCodes?: string[];
}

function ok<T>(response: ApiResponse<T>): T {
  expect(response.code, JSON.stringify({ msg: response.msg, data: response.data })).toBe(1);
  return response.data;
}

function errorIdOf(response: ApiResponse<unknown>): unknown {
  return (response.data as { errorId?: unknown } | null)?.errorId;
}

describe.each(DATABASES)('two-factor sign-in on %s', (kind) => {
  let server: TestServer;
  let superToken: string;
  let requiringGroup: number;
  const db = () => server.server.app.db;

  const passwordStep = (username: string, body: Record<string, unknown> = { twoFactor: 1 }, lang?: 'en' | 'zh-cn') =>
    server.admin<Challenge>('Index/login', { body: { username, password: PASSWORD, ...body }, lang });
  const codeStep = (challenge: string, code: string) =>
    server.admin<Challenge>('Index/twoFactor', { body: { challenge, code } });
  const tokensOf = async (username: string) => {
    const admin = await db()
      .selectFrom('admin')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return (
      await db()
        .selectFrom('token')
        .select('type')
        .where('user_id', '=', Number(admin.id))
        .where('type', '=', 'admin')
        .execute()
    ).length;
  };
  const addAdmin = async (username: string, groups: number[]) =>
    ok(
      await server.admin('auth.Admin/add', {
        token: superToken,
        body: { username, nickname: username, password: PASSWORD, group_arr: groups, status: '1' },
      }),
    );

  /** Signs `username` in through the set-up their group asks for; answers the secret and the recovery codes. */
  async function setUpAtSignIn(
    username: string,
  ): Promise<{ secret: string; recoveryCodes: string[]; token: string; step: number }> {
    const first = ok(await passwordStep(username));
    const setup = first.twoFactor?.setup;
    expect(setup).toBeDefined();
    const secret = setup?.secret ?? '';
    const step = currentStep();
    const signedIn = ok(await codeStep(first.twoFactor?.challenge ?? '', codeAt(secret, step)));
    return { secret, recoveryCodes: signedIn.recoveryCodes ?? [], token: signedIn.userInfo?.token ?? '', step };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    superToken = (await server.loginAdmin()).token;
    const rules = (
      await db().selectFrom('admin_rule').select('id').where('name', 'in', ['dashboard', 'dashboard/index']).execute()
    ).map((rule) => Number(rule.id));
    ok(
      await server.admin('auth.Group/add', {
        token: superToken,
        body: { pid: 1, name: 'Payout desk', rules, status: '1', two_factor: '1' },
      }),
    );
    requiringGroup = Number(
      (await db().selectFrom('admin_group').select('id').where('name', '=', 'Payout desk').executeTakeFirstOrThrow())
        .id,
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a group that requires it: the password alone gives no token; the set-up shows a secret and an otpauth address, a wrong code is refused, the right one signs in with ten recovery codes', async () => {
    await addAdmin('cashier', [requiringGroup]);
    const first = ok(await passwordStep('cashier'));
    expect(first.userInfo).toBeUndefined();
    const setup = first.twoFactor?.setup;
    expect(setup?.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup?.uri).toMatch(/^otpauth:\/\/totp\/.*cashier\?.*secret=[A-Z2-7]{32}/);
    expect(await tokensOf('cashier')).toBe(0);

    const secret = setup?.secret ?? '';
    const wrong = await codeStep(first.twoFactor?.challenge ?? '', notACode(secret));
    expect({ code: wrong.code, errorId: errorIdOf(wrong) }).toEqual({ code: 0, errorId: 'twoFactorCodeWrong' });
    expect(await tokensOf('cashier')).toBe(0);
    const stored = await db().selectFrom('admin_two_factor').selectAll().executeTakeFirstOrThrow();
    expect(stored.confirmed_time).toBeNull();
    // the secret is sealed at rest
    expect(stored.secret).not.toContain(secret);

    const signedIn = ok(await codeStep(first.twoFactor?.challenge ?? '', codeAt(secret, currentStep())));
    expect(signedIn.recoveryCodes).toHaveLength(10);
    expect(new Set(signedIn.recoveryCodes).size).toBe(10);
    expect(
      ok(await server.admin<{ adminInfo: { username: string } }>('Index/index', { token: signedIn.userInfo?.token }))
        .adminInfo.username,
    ).toBe('cashier');
    expect(ok(await server.admin('routine.AdminInfo/twoFactor', { token: signedIn.userInfo?.token }))).toEqual({
      enabled: true,
      required: true,
      recoveryCodesLeft: 10,
    });
    // the challenge was used up
    const again = await codeStep(first.twoFactor?.challenge ?? '', codeAt(secret, currentStep() + 1));
    expect(errorIdOf(again)).toBe('twoFactorExpired');
  });

  it("a code is accepted once; the next step's code still signs in; a recovery code works once; a forged challenge is refused", async () => {
    await addAdmin('auditor', [requiringGroup]);
    const { secret, recoveryCodes, step: usedStep } = await setUpAtSignIn('auditor');

    const replay = ok(await passwordStep('auditor'));
    expect(replay.twoFactor?.setup).toBeUndefined();
    const replayed = await codeStep(replay.twoFactor?.challenge ?? '', codeAt(secret, usedStep));
    expect(errorIdOf(replayed)).toBe('twoFactorCodeWrong');
    const next = ok(await codeStep(replay.twoFactor?.challenge ?? '', codeAt(secret, usedStep + 1)));
    expect(next.userInfo?.token).toMatch(/\S/);
    expect(next.recoveryCodes).toBeUndefined();

    const withRecovery = ok(await passwordStep('auditor'));
    // typed in capitals and without the dash, as read off paper
    const typed = recoveryCodes[3].replace('-', '').toUpperCase();
    expect(ok(await codeStep(withRecovery.twoFactor?.challenge ?? '', typed)).userInfo?.token).toMatch(/\S/);
    const reuse = ok(await passwordStep('auditor'));
    expect(errorIdOf(await codeStep(reuse.twoFactor?.challenge ?? '', recoveryCodes[3]))).toBe('twoFactorCodeWrong');

    const forged = await codeStep('0123456789abcdef0123456789abcdef', codeAt(secret, currentStep() + 1));
    expect(errorIdOf(forged)).toBe('twoFactorExpired');
    // an ordinary access token is no challenge
    expect(errorIdOf(await codeStep(superToken, codeAt(secret, currentStep() + 1)))).toBe('twoFactorExpired');
  });

  it('two sign-ins racing with one code: exactly one gets a token', async () => {
    await addAdmin('teller', [requiringGroup]);
    const { secret } = await setUpAtSignIn('teller');
    const before = await tokensOf('teller');
    const [a, b] = [ok(await passwordStep('teller')), ok(await passwordStep('teller'))];
    const code = codeAt(secret, currentStep() + 1);
    const answers = await Promise.all([
      codeStep(a.twoFactor?.challenge ?? '', code),
      codeStep(b.twoFactor?.challenge ?? '', code),
    ]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([0, 1]);
    expect(await tokensOf('teller')).toBe(before + 1);
  });

  it("BuildAdmin's own client, which cannot ask for a code, is told where to sign in, in the reader's language", async () => {
    await addAdmin('stockui', [requiringGroup]);
    const english = await passwordStep('stockui', {}, 'en');
    expect({ code: english.code, errorId: errorIdOf(english), msg: english.msg }).toEqual({
      code: 0,
      errorId: 'twoFactorNeedsOurClient',
      msg: 'This account signs in with a one-time code, which this client cannot ask for: sign in at /chidaoadminstator',
    });
    const chinese = await passwordStep('stockui', {}, 'zh-cn');
    expect(chinese.msg).toBe('此账号登录需要一次性验证码，当前客户端无法输入：请在 /chidaoadminstator 登录');
    expect(await tokensOf('stockui')).toBe(0);
  });

  it('an admin whose group does not require it turns it on from the profile, signs in with a code, and turns it off with a code; a required one cannot be turned off', async () => {
    await addAdmin('editor', [1]);
    const token = (await server.loginAdmin('editor', PASSWORD)).token;
    expect(ok(await server.admin('routine.AdminInfo/twoFactor', { token }))).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: 0,
    });
    const setup = ok(
      await server.admin<{ secret: string; uri: string }>('routine.AdminInfo/twoFactorSetup', { token, body: {} }),
    );
    // until a code confirms it, the password alone still signs in
    expect((await server.loginAdmin('editor', PASSWORD)).token).toMatch(/\S/);
    const refused = await server.admin('routine.AdminInfo/twoFactorConfirm', {
      token,
      body: { code: notACode(setup.secret) },
    });
    expect(errorIdOf(refused)).toBe('twoFactorCodeWrong');
    const confirmed = ok(
      await server.admin<{ recoveryCodes: string[] }>('routine.AdminInfo/twoFactorConfirm', {
        token,
        body: { code: codeAt(setup.secret, currentStep()) },
      }),
    );
    expect(confirmed.recoveryCodes).toHaveLength(10);
    await expect(server.loginAdmin('editor', PASSWORD)).rejects.toThrow(/one-time code/);

    const signIn = ok(await passwordStep('editor'));
    ok(await codeStep(signIn.twoFactor?.challenge ?? '', codeAt(setup.secret, currentStep() + 1)));
    const renewed = ok(
      await server.admin<{ recoveryCodes: string[] }>('routine.AdminInfo/twoFactorRecovery', {
        token,
        body: { code: confirmed.recoveryCodes[0] },
      }),
    );
    expect(renewed.recoveryCodes.filter((code) => confirmed.recoveryCodes.includes(code))).toEqual([]);
    const old = ok(await passwordStep('editor'));
    expect(errorIdOf(await codeStep(old.twoFactor?.challenge ?? '', confirmed.recoveryCodes[1]))).toBe(
      'twoFactorCodeWrong',
    );

    expect(errorIdOf(await server.admin('routine.AdminInfo/twoFactorOff', { token, body: { code: 'nonsense' } }))).toBe(
      'twoFactorCodeWrong',
    );
    ok(await server.admin('routine.AdminInfo/twoFactorOff', { token, body: { code: renewed.recoveryCodes[0] } }));
    expect((await server.loginAdmin('editor', PASSWORD)).token).toMatch(/\S/);

    await addAdmin('offdesk', [requiringGroup]);
    const required = await setUpAtSignIn('offdesk');
    const off = await server.admin('routine.AdminInfo/twoFactorOff', {
      token: required.token,
      body: { code: required.recoveryCodes[0] },
    });
    expect(errorIdOf(off)).toBe('twoFactorRequired');
    expect(
      (await server.admin<{ enabled: boolean }>('routine.AdminInfo/twoFactor', { token: required.token })).data.enabled,
    ).toBe(true);
  });

  it('wrong codes count toward the login lockout', async () => {
    await addAdmin('guesser', [requiringGroup]);
    const { secret } = await setUpAtSignIn('guesser');
    const admin = await db()
      .selectFrom('admin')
      .select('id')
      .where('username', '=', 'guesser')
      .executeTakeFirstOrThrow();
    const failures = async () =>
      (
        await db()
          .selectFrom('login_attempt')
          .select('id')
          .where('kind', '=', 'fail')
          .where('account', '=', String(admin.id))
          .execute()
      ).length;
    const before = await failures();
    const signIn = ok(await passwordStep('guesser'));
    await codeStep(signIn.twoFactor?.challenge ?? '', notACode(secret));
    await codeStep(signIn.twoFactor?.challenge ?? '', 'aaaaa-bbbbb');
    expect(await failures()).toBe(before + 2);
  });
});
