import type { Action, RequestContext } from '../../app-context.js';
import type { TaggedPage, WallEntry, WallRecord, WallUrlAnswer } from '../../../contract/member-api.js';
import { errors } from '../../errors.js';
import { enabledWalls, wallRecordsOf, wallUrlFor } from '../../services/survey/wall-members.js';
import { paging } from '../paging.js';
import { valueTagsOf } from '../value-tags.js';

/**
 * The member's survey walls under `/api/survey/*` (docs/survey-domain.md#walls-and-routers): the walls they may
 * open, the address of one for them, and their wall transactions. The rules live in `services/survey/wall-members.ts`.
 */

function memberId(ctx: RequestContext): number {
  if (!ctx.identity) throw errors.needLogin();
  return ctx.identity.id;
}

export const surveyWallActions: Record<string, Action> = {
  walls: async (ctx): Promise<{ list: WallEntry[] }> => {
    memberId(ctx);
    return { list: await enabledWalls(ctx.app) };
  },
  wall: async (ctx): Promise<WallUrlAnswer> => ({ url: await wallUrlFor(ctx.app, memberId(ctx), ctx.query.provider) }),
  wallRecords: async (ctx): Promise<TaggedPage<WallRecord>> => {
    const page = await wallRecordsOf(ctx.app, memberId(ctx), paging(ctx.query), ctx.lang);
    return { ...page, tags: valueTagsOf(ctx, 'survey/wall_transaction', ['state']) };
  },
};
