import type { AppContext } from '../../app-context.js';
import type { Identity } from '../../auth/identity.js';
import { nowSeconds } from '../../clock.js';
import type { Db } from '../../db/connection.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { errors, type ApiError } from '../../errors.js';
import { parseLocalDateTime, formatLocalDateTime } from '../../../contract/site-time.js';
import { appendEvent, newRid, type SurveyRow } from './participations.js';

/**
 * Which surveys a member may take now, and starting one (the task list and `/interface`).
 */

function idsOf(csv: string | null): number[] {
  return String(csv ?? '').split(',').filter(Boolean).map(Number);
}

/** Open to all when it names no group and no team; else to members of one of its groups or teams. */
function visibleTo(survey: Pick<SurveyRow, 'visible_groups' | 'visible_teams'>, member: Identity): boolean {
  const groups = idsOf(survey.visible_groups);
  const teams = idsOf(survey.visible_teams);
  if (groups.length === 0 && teams.length === 0) return true;
  return groups.includes(Number(member.account.group_id)) || (member.account.teamid != null && teams.includes(Number(member.account.teamid)));
}

/** Unix seconds of the start of today in the site's time zone. */
async function startOfToday(app: AppContext, db: Db): Promise<number> {
  const timeZone = await app.config.through(db).timeZone();
  const today = formatLocalDateTime(nowSeconds(), timeZone).slice(0, 10);
  return parseLocalDateTime(today, timeZone) ?? nowSeconds() - 86_400;
}

/** Why this member cannot start the survey now, or undefined when they can. */
async function refusal(app: AppContext, db: Db, survey: SurveyRow | undefined, member: Identity): Promise<ApiError | undefined> {
  if (!survey || survey.status !== 'active') return errors.surveyUnavailable();
  const provider = await db.selectFrom('survey_provider').select('status').where('id', '=', survey.provider_id).executeTakeFirst();
  if (provider?.status !== 'enable') return errors.surveyUnavailable();
  const now = nowSeconds();
  if (survey.start_time && Number(survey.start_time) > now) return errors.surveyNotStarted();
  if (survey.end_time && Number(survey.end_time) <= now) return errors.surveyEnded();
  if (!visibleTo(survey, member)) return errors.surveyNotVisible();
  const taken = await db.selectFrom('survey_participation').select('id').where('survey_id', '=', survey.id).where('user_id', '=', member.id).executeTakeFirst();
  if (taken) return errors.surveyAlreadyTaken();
  if (Number(survey.quota_total) > 0 && Number(survey.completes) >= Number(survey.quota_total)) return errors.surveyQuotaFull();
  if (Number(survey.daily_cap) > 0) {
    const since = await startOfToday(app, db);
    const row = await db
      .selectFrom('survey_participation')
      .select((eb) => eb.fn.countAll().as('total'))
      .where('survey_id', '=', survey.id)
      .where('enter_time', '>=', since)
      .executeTakeFirstOrThrow();
    if (Number(row.total) >= Number(survey.daily_cap)) return errors.surveyDailyCapReached();
  }
  return undefined;
}

/** The surveys this member may start now, best first. */
export async function availableSurveys(app: AppContext, member: Identity, limit = 100): Promise<SurveyRow[]> {
  const now = nowSeconds();
  const candidates = await app.db
    .selectFrom('survey as s')
    .innerJoin('survey_provider as p', 'p.id', 's.provider_id')
    .selectAll('s')
    .where('s.status', '=', 'active')
    .where('p.status', '=', 'enable')
    .where((eb) => eb.or([eb('s.start_time', 'is', null), eb('s.start_time', '<=', now)]))
    .where((eb) => eb.or([eb('s.end_time', 'is', null), eb('s.end_time', '>', now)]))
    .where((eb) => eb.or([eb('s.quota_total', '=', 0), eb('s.completes', '<', eb.ref('s.quota_total'))]))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('survey_participation as t').select('t.id').whereRef('t.survey_id', '=', 's.id').where('t.user_id', '=', member.id))))
    .orderBy('s.weigh', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit * 2)
    .execute();
  const visible = candidates.filter((survey) => visibleTo(survey, member));
  const capped = visible.filter((survey) => Number(survey.daily_cap) > 0);
  if (capped.length > 0) {
    const since = await startOfToday(app, app.db);
    const counts = await app.db
      .selectFrom('survey_participation')
      .select(['survey_id', (eb) => eb.fn.countAll().as('total')])
      .where('survey_id', 'in', capped.map((survey) => survey.id))
      .where('enter_time', '>=', since)
      .groupBy('survey_id')
      .execute();
    const started = new Map(counts.map((row) => [Number(row.survey_id), Number(row.total)]));
    return visible.filter((survey) => !Number(survey.daily_cap) || (started.get(Number(survey.id)) ?? 0) < Number(survey.daily_cap)).slice(0, limit);
  }
  return visible.slice(0, limit);
}

/** The entry URL with our rid, and the member id only where the survey says to send it. */
function entryUrlFor(survey: Pick<SurveyRow, 'entry_url' | 'send_uid'>, rid: string, memberId: number): string {
  let url = survey.entry_url.replaceAll('{rid}', encodeURIComponent(rid));
  if (Number(survey.send_uid)) url = url.replaceAll('{uid}', String(memberId));
  return url;
}

/** Start a survey: one participation per member and survey, checked under the survey's lock. */
export async function startSurvey(app: AppContext, member: Identity, surveyId: unknown, ip: string): Promise<{ url: string; rid: string }> {
  if (typeof surveyId !== 'number' && typeof surveyId !== 'string') throw errors.surveyUnavailable();
  if (!/^\d{1,15}$/.test(String(surveyId))) throw errors.surveyUnavailable();
  const id = Number(surveyId);
  try {
    return await app.db.transaction().execute(async (trx) => {
      let lookup = trx.selectFrom('survey').selectAll().where('id', '=', id);
      // Starts of one survey queue behind each other, so the caps are exact across processes.
      if (app.handle.dialect === 'postgres') lookup = lookup.forUpdate();
      const survey = await lookup.executeTakeFirst();
      const refused = await refusal(app, trx, survey, member);
      if (refused || !survey) throw refused ?? errors.surveyUnavailable();
      const rid = newRid();
      const now = nowSeconds();
      const inserted = await trx
        .insertInto('survey_participation')
        .values({
          rid, survey_id: survey.id, user_id: member.id, status: 'entered', source: '', credit_state: 'none',
          reward_money: Number(survey.reward_money), reward_score: Number(survey.reward_score), credited_money: 0, credited_score: 0,
          enter_time: now, finish_time: null, loi_seconds: null, entry_ip: ip.slice(0, 50), return_ip: '',
          flag_speeder: 0, flag_ip_changed: 0, flag_sig_invalid: 0, raw_query: '', money_log_id: null, score_log_id: null,
          create_time: now, update_time: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.updateTable('survey').set((eb) => ({ starts: eb('starts', '+', 1) })).where('id', '=', survey.id).execute();
      await appendEvent(trx, { participationId: Number(inserted.id), from: '', to: 'entered', source: 'start', ip });
      return { url: entryUrlFor(survey, rid, member.id), rid };
    });
  } catch (error) {
    // Two starts of one member racing: the unique (survey, member) index lets one through.
    if (isUniqueViolation(error)) throw errors.surveyAlreadyTaken();
    throw error;
  }
}
