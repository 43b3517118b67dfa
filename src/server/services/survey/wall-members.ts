import { randomBytes } from 'node:crypto';
import type { Language } from '../../../contract/headers.js';
import type { Paged, WallEntry, WallRecord } from '../../../contract/member-api.js';
import { resourceOf, type AppContext } from '../../app-context.js';
import type { Db } from '../../db/connection.js';
import { pageRows, type PageRequest } from '../../db/pages.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { wireColumns } from '../../db/values.js';
import { errors } from '../../errors.js';
import { reasonText } from './reversal-reasons.js';

/**
 * The member's side of survey walls and routers: their wall id, the walls they may open, the address of one,
 * and their wall transactions.
 *
 * The id by which a survey wall knows a member (docs/survey-domain.md#walls-and-routers): 128 random bits in
 * hex, kept in `user.wall_member_id`. It is made the first time the member opens a wall and never changes, so
 * every process and every restart gives the provider the same id; it says nothing about the member (not their
 * numeric id, not derived from it), and only our database turns it back into a member. A key derived from a
 * server secret was not chosen: changing `TOKEN_SECRET` would give every member a new id, and the walls would
 * lose their members' histories.
 */

const WALL_MEMBER_ID = /^[0-9a-f]{32}$/;

/** The member's wall id, made now when they have none yet. */
async function wallMemberIdOf(db: Db, userId: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const current = await db.selectFrom('user').select('wall_member_id').where('id', '=', userId).executeTakeFirstOrThrow();
    if (current.wall_member_id) return current.wall_member_id;
    try {
      // Two first opens racing: the update that finds the column still empty wins, the other reads the winner's id.
      await db.updateTable('user').set({ wall_member_id: randomBytes(16).toString('hex') }).where('id', '=', userId).where('wall_member_id', '=', '').execute();
    } catch (error) {
      // Another member holds the same 128 random bits: draw again (a second time would be a broken generator).
      if (!isUniqueViolation(error) || attempt > 0) throw error;
    }
  }
}

/** The member a wall's callback names by their wall id, if any. */
export async function memberOfWallId(db: Db, wallMemberId: string | undefined): Promise<number | undefined> {
  // Some walls send the id back in capitals.
  const id = wallMemberId?.trim().toLowerCase() ?? '';
  if (!WALL_MEMBER_ID.test(id)) return undefined;
  const row = await db.selectFrom('user').select('id').where('wall_member_id', '=', id).executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

/** Where a wall's address takes the member's wall id. */
const MEMBER_PLACEHOLDER = '{member}';

/** The walls a member may open now: enabled providers of kind wall whose address is set, in the order they were added. */
export async function enabledWalls(app: AppContext): Promise<WallEntry[]> {
  const rows = await app.db
    .selectFrom('survey_provider')
    .select(['code', 'name'])
    .where('kind', '=', 'wall')
    .where('status', '=', 'enable')
    .where('wall_url', 'like', `%${MEMBER_PLACEHOLDER}%`)
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => ({ code: row.code, name: row.name }));
}

/**
 * The address of the wall `code` for this member: its `wall_url` with `{member}` replaced by their wall id
 * (URL-encoded). Only http and https addresses leave: the member's browser is sent there.
 */
export async function wallUrlFor(app: AppContext, userId: number, code: unknown): Promise<string> {
  const provider = typeof code === 'string' && code !== '' && code.length <= 32
    ? await app.db.selectFrom('survey_provider').select(['kind', 'status', 'wall_url']).where('code', '=', code).executeTakeFirst()
    : undefined;
  if (!provider || provider.status !== 'enable' || provider.kind !== 'wall') throw errors.unknownWall();
  if (!provider.wall_url.includes(MEMBER_PLACEHOLDER)) throw errors.wallNotReady();
  const url = provider.wall_url.split(MEMBER_PLACEHOLDER).join(encodeURIComponent(await wallMemberIdOf(app.db, userId)));
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // not an address at all: refused below
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw errors.wallNotReady();
  return url;
}

/**
 * The member's wall credits, reversals and refusals, newest first, with the wall's name and why a row was
 * refused or reversed in `lang` (test traffic is not theirs to see).
 */
export async function wallRecordsOf(app: AppContext, userId: number, page: PageRequest, lang: Language): Promise<Paged<WallRecord>> {
  const definition = resourceOf(app, 'survey/wall_transaction');
  const { rows, total } = await pageRows(
    page,
    app.db.selectFrom('survey_wall_transaction as w').where('w.user_id', '=', userId).where('w.state', '<>', 'test'),
    (base) =>
      base
        .leftJoin('survey_provider as p', 'p.id', 'w.provider_id')
        .select(['w.id', 'p.name', 'w.transaction_id', 'w.state', 'w.unit', 'w.money', 'w.score', 'w.create_time', 'w.credit_time', 'w.reverse_time', 'w.reason', 'w.provider_reason'])
        .orderBy('w.id', 'desc'),
  );
  return {
    list: rows.flatMap(({ name, reason, provider_reason: providerReason, ...row }): WallRecord[] => {
      const { state, ...shown } = wireColumns(definition, row);
      // The query leaves test traffic out; the check tells the type so.
      if (state === 'test') return [];
      return [{
        ...shown,
        state,
        provider: name ?? '',
        // A credit's own words (a term reason sent with it) are not a reason to show.
        reason: state === 'credited' ? '' : reasonText(reason, providerReason, lang, app.messages),
      }];
    }),
    total,
  };
}
