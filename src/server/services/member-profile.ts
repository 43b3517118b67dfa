import type { Row } from '../../schema/definition.js';
import { nowSeconds } from '../clock.js';
import { centsToYuan } from '../db/values.js';
import { errors } from '../errors.js';
import { checkMemberFields, currentMember, memberBy, text, type Requester } from './member-accounts.js';

/** The member's profile and overview (docs/wire-contract.md#member-endpoints). */

/** ThinkPHP's `chsDash`: CJK, letters, digits, `_` and `-`. */
const CHS_DASH = /^[\p{Script=Han}A-Za-z0-9_-]+$/u;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkAvatar(value: unknown): string {
  const avatar = text(value);
  // a path of this site (an upload's `url`) or an http(s) address; nothing that could run script
  if (avatar.length > 255 || !(/^\/[^\s"'<>\\]*$/.test(avatar) || /^https?:\/\/[^\s"'<>\\]+$/.test(avatar))) throw errors.fieldInvalid('Please upload a valid avatar', 'avatar');
  return avatar;
}

function validDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * `POST /api/account/profile`: only avatar, username, nickname, gender, birthday and motto are read
 * (docs/wire-contract.md#member-endpoints).
 */
export async function updateProfile(requester: Requester, body: Row): Promise<void> {
  const { app } = requester;
  const member = await currentMember(requester);
  const changes: Row = {};
  const username = text(body.username);
  if (username === '') throw errors.fieldEmpty('Username', 'username');
  checkMemberFields(app, { username });
  if (username !== member.username) {
    const holder = await memberBy(app, 'username', username);
    if (holder && Number(holder.id) !== Number(member.id)) throw errors.alreadyExists('Username', 'username');
    changes.username = username;
  }
  const nickname = text(body.nickname);
  if (nickname === '') throw errors.fieldEmpty('Nickname', 'nickname');
  if (nickname.length > 50 || !CHS_DASH.test(nickname)) throw errors.fieldInvalid('Nickname may only hold Chinese characters, letters, digits, _ and -', 'nickname');
  changes.nickname = nickname;
  if (body.avatar !== undefined) changes.avatar = body.avatar === '' || body.avatar === null ? '' : checkAvatar(body.avatar);
  if (body.gender !== undefined) {
    const gender = Number(body.gender);
    if (![0, 1, 2].includes(gender) || body.gender === '') throw errors.fieldInvalid('Please select a gender', 'gender');
    changes.gender = gender;
  }
  const birthday = text(body.birthday);
  if (birthday !== '' && !validDate(birthday)) throw errors.fieldInvalid('Please enter a valid date', 'birthday');
  changes.birthday = birthday === '' ? null : birthday;
  if (body.motto !== undefined) {
    const motto = typeof body.motto === 'string' ? body.motto : '';
    if (motto.length > 255) throw errors.fieldInvalid('The motto is too long', 'motto');
    changes.motto = motto;
  }
  changes.update_time = nowSeconds();
  await app.db.updateTable('user').set(changes).where('id', '=', Number(member.id)).execute();
}

const DAY = 86_400;

/** `YYYY-MM-DD` of a Unix time in `timeZone`. */
function dayIn(timeZone: string, seconds: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(seconds * 1000));
}

/** `GET /api/account/overview` (docs/wire-contract.md#member-endpoints): score and money changes of the last seven days, oldest first. */
export async function overview(requester: Requester): Promise<{ days: string[]; score: number[]; money: string[] }> {
  const { app } = requester;
  const member = await currentMember(requester);
  const timeZone = await app.config.timeZone();
  const today = dayIn(timeZone, nowSeconds());
  const todayUtc = Date.parse(`${today}T00:00:00Z`) / 1000;
  const days = Array.from({ length: 7 }, (_, index) => new Date((todayUtc - (6 - index) * DAY) * 1000).toISOString().slice(0, 10));
  // a day more than the window, so any time zone's first day is covered; the day strings do the exact cut
  const since = nowSeconds() - 8 * DAY;
  const byDay = (rows: { amount: number; create_time: number | null }[]): Map<string, number> => {
    const totals = new Map<string, number>();
    for (const row of rows) {
      const day = dayIn(timeZone, Number(row.create_time));
      totals.set(day, (totals.get(day) ?? 0) + row.amount);
    }
    return totals;
  };
  const memberId = Number(member.id);
  const score = byDay(await app.db.selectFrom('user_score_log').select(['score as amount', 'create_time']).where('user_id', '=', memberId).where('create_time', '>=', since).execute());
  const money = byDay(await app.db.selectFrom('user_money_log').select(['money as amount', 'create_time']).where('user_id', '=', memberId).where('create_time', '>=', since).execute());
  return {
    days,
    score: days.map((day) => score.get(day) ?? 0),
    money: days.map((day) => centsToYuan(money.get(day) ?? 0)),
  };
}
