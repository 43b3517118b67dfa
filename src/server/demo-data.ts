import type { AppContext } from './app-context.js';
import { createServer } from './boot.js';
import { nowSeconds } from './clock.js';
import { describeDatabaseUrl } from './db/connection.js';
import { completeRow } from './db/seed.js';
import { hashPassword, randomPassword } from './auth/passwords.js';
import { settingsFromEnv } from './settings.js';

/**
 * Demo data for trying the product: what `npm run demo-data` adds to an install, and what the test
 * servers add to each new test database (tests/support/test-server.ts), so the suite's fixtures come
 * from the same rows the command writes. A fresh install has none of it: its administrator is the
 * operator's, and it has no member until someone registers or an administrator adds one.
 */

/** The demo member: BuildAdmin's demo account, which BuildAdmin sites and this product's tests know. */
export const DEMO_MEMBER = {
  username: 'user',
  nickname: 'User',
  email: '18888888888@qq.com',
  mobile: '18888888888',
  gender: 2,
  birthday: '2000-01-01',
} as const;

/** What one run of the demo data added (a second run adds nothing). */
export interface DemoDataResult {
  /** the demo member's login, when this run added it */
  member?: { id: number; username: string; password: string };
  /** why the demo member was not added: a member already holds its username, email or mobile number */
  memberPresent?: { id: number; username: string };
}

/**
 * Add the demo data, once: the demo member, in the members' default group (the first), enabled, with
 * `password` or a random one (told in the answer). A member already holding the demo member's
 * username, email or mobile number (an earlier run, or a real person) is left as they are and nothing
 * is added.
 */
export async function addDemoData(app: AppContext, options: { password?: string } = {}): Promise<DemoDataResult> {
  const definition = app.resources.get('system/user');
  if (!definition) throw new Error('the schema system/user is missing');
  return app.db.transaction().execute(async (trx) => {
    const present = await trx
      .selectFrom('user')
      .select(['id', 'username'])
      .where((where) => where.or([where('username', '=', DEMO_MEMBER.username), where('email', '=', DEMO_MEMBER.email), where('mobile', '=', DEMO_MEMBER.mobile)]))
      .orderBy('id')
      .executeTakeFirst();
    if (present) return { memberPresent: { id: Number(present.id), username: String(present.username) } };
    const group = await trx.selectFrom('user_group').select('id').orderBy('id').executeTakeFirst();
    const password = options.password || randomPassword();
    const now = nowSeconds();
    const row = completeRow(definition, { ...DEMO_MEMBER, group_id: group ? Number(group.id) : 0, status: 'enable', password: await hashPassword(password), salt: '', join_time: now }, now);
    delete row[definition.primaryKey];
    const inserted = await trx.insertInto('user').values(row as never).returning('id').executeTakeFirstOrThrow();
    return { member: { id: Number(inserted.id), username: DEMO_MEMBER.username, password } };
  });
}

/** The start banner's note while the install has no member at all: how to get one to try the member centre with. */
export async function noMembersNote(app: AppContext): Promise<string | undefined> {
  const anyone = await app.db.selectFrom('user').select('id').limit(1).executeTakeFirst();
  return anyone ? undefined : 'none yet: members register in the member centre, or `npm run demo-data` adds a demo member to try it with';
}

interface CommandOutput {
  line(text: string): void;
  error(text: string): void;
}

/**
 * `npm run demo-data`: open the database DATABASE_URL names (created and migrated as a start does, so it
 * also works before the first `npm start`), add the demo data and print the demo member's login. Runs
 * while no server uses an SQLite file (one process per file); on PostgreSQL beside a running server.
 * `DEMO_MEMBER_PASSWORD` gives the demo member that password instead of a random one. Answers the exit code.
 */
export async function runDemoDataCommand(env: NodeJS.ProcessEnv, projectRoot: string, output: CommandOutput): Promise<number> {
  const settings = settingsFromEnv(env, projectRoot);
  let server: Awaited<ReturnType<typeof createServer>> | undefined;
  try {
    server = await createServer(settings);
    const result = await addDemoData(server.app, { password: env.DEMO_MEMBER_PASSWORD });
    output.line(`Demo data for ${describeDatabaseUrl(settings.databaseUrl)}:`);
    if (result.member) output.line(`  demo member added: #${result.member.id} ${result.member.username} / ${result.member.password} (member centre login; shown only now)`);
    else if (result.memberPresent) output.line(`  demo member not added: member #${result.memberPresent.id} "${result.memberPresent.username}" already holds its username, email or mobile number`);
    if (server.adminLogin?.generated) output.line(`  the database was new: admin login ${server.adminLogin.username} / ${server.adminLogin.password} (shown only now)`);
    return 0;
  } catch (error) {
    output.error(`error: the demo data was not added: ${error instanceof Error ? error.message : String(error)}`);
    output.error(`错误：未添加演示数据：${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await server?.close();
  }
}
