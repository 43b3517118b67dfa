import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enLogin from '../../locales/en/member/login.json';
import enTeam from '../../locales/en/member/team.json';
import zhLogin from '../../locales/zh-cn/member/login.json';
import zhTeam from '../../locales/zh-cn/member/team.json';
import { expectNoViolations, sweep } from './axe.js';
import { newPage, poll, startRig, url, type E2eRig } from './helpers.js';

/**
 * Teams in the member centre, in Chromium at 1440 and 390 px in zh-cn and en: a member creates a team and
 * leads it, their invitation link sends a second member (through the login) to the invitation, which names
 * the team and its leader; a wrong code is refused on its field in the page's language and nobody moves;
 * the member joins by pressing "Join", and the leader then reads that member's completes, earnings and the
 * commission at the team's rate, shown as a percentage; the member then leaves after a confirmation. axe
 * finds nothing on either side. Screenshots go
 * to `$E2E_SCREENSHOTS` (default a temporary folder).
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'chidao-teams');
const PASSWORD = 'Member_pass1';
const SECRET = 'team-e2e-secret';
type Language = 'zh-cn' | 'en';
const TEXTS = {
  'zh-cn': {
    login: zhLogin.login, team: zhTeam.memberTeam, created: '团队已创建',
    invalid: '邀请码无效：可能输入有误，或已被更换、撤销。请向队长索取当前的邀请码', joined: (name: string) => `您已加入团队「${name}」`, left: (name: string) => `您已退出团队「${name}」`,
  },
  en: {
    login: enLogin.login, team: enTeam.memberTeam, created: 'Team created',
    invalid: 'This invitation code is not valid: it may have been mistyped, replaced or revoked. Ask the team leader for the current one', joined: (name: string) => `You joined the team ${name}`, left: (name: string) => `You left the team ${name}`,
  },
} as const;
const CASES: { language: Language; phone: boolean }[] = [
  { language: 'zh-cn', phone: false },
  { language: 'en', phone: false },
  { language: 'zh-cn', phone: true },
  { language: 'en', phone: true },
];

let rig: E2eRig;
let adminToken = '';
let counter = 0;

const fill = (text: string, values: Record<string, string>) => text.replace(/%\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
const db = () => rig.server.server.app.db;

async function member(username: string): Promise<{ id: number; token: string }> {
  expect((await rig.server.admin('user.User/add', { token: adminToken, body: { username, nickname: `${username} N`, group_id: 1, password: PASSWORD } })).code).toBe(1);
  const login = await rig.server.api<{ userInfo: { id: number; token: string } }>('user/checkIn', { body: { tab: 'login', username, password: PASSWORD } });
  return { id: login.data.userInfo.id, token: login.data.userInfo.token };
}

/** A credited complete of a ¥`reward` survey, through the survey start and the provider's signed return. */
async function complete(taker: { token: string }, reward: string): Promise<void> {
  const code = `te${++counter}`;
  expect((await rig.server.admin('survey.Provider/add', { token: adminToken, body: { code, name: `Provider ${code}`, secret: SECRET } })).code).toBe(1);
  const provider = await db().selectFrom('survey_provider').select('id').where('code', '=', code).executeTakeFirstOrThrow();
  const title = `Team e2e survey ${counter}`;
  const body = { provider_id: provider.id, title, entry_url: 'https://panel.example/s?r={rid}', reward_money: reward, reward_score: 0, loi_minutes: 1, status: 'active' };
  expect((await rig.server.admin('survey.Survey/add', { token: adminToken, body })).code).toBe(1);
  const survey = await db().selectFrom('survey').select('id').where('title', '=', title).executeTakeFirstOrThrow();
  const started = await rig.server.api<{ url: string }>('survey/start', { body: { id: survey.id }, userToken: taker.token });
  const rid = new URL(started.data.url).searchParams.get('r') as string;
  await db().updateTable('survey_participation').set({ enter_time: Math.floor(Date.now() / 1000) - 3600 }).where('rid', '=', rid).execute();
  const query = `rid=${rid}&sig=${createHmac('sha256', SECRET).update(`/success?rid=${rid}`).digest('hex')}`;
  expect((await rig.server.api('survey/outcome', { body: { outcome: 'success', query } })).code).toBe(1);
}

async function signIn(page: Page, language: Language, username: string, path: string): Promise<void> {
  const texts = TEXTS[language];
  await page.goto(url(rig.server, path));
  await page.waitForURL(/\/user\/login\?redirect=/);
  await page.getByRole('textbox', { name: texts.login.username }).fill(username);
  await page.getByLabel(texts.login.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: texts.login.submit, exact: true }).click();
  await page.waitForURL((address) => address.pathname === '/user/team/members');
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startRig();
  adminToken = (await rig.server.loginAdmin()).token;
});

afterAll(async () => {
  await rig?.close();
});

describe('teams in the member centre', () => {
  CASES.forEach(({ language, phone }, index) => {
    const width = phone ? 390 : 1440;
    it(`creates a team, invites a member by link who accepts, and shows the leader the commission at ${width} px in ${language}`, async () => {
      const { team: text } = TEXTS[language];
      const leaderName = `lead${index}`;
      const joinerName = `join${index}`;
      const teamName = language === 'zh-cn' ? `蓝队${index}` : `Blue ${index}`;
      await member(leaderName);
      const joiner = await member(joinerName);
      const leaderSide = await newPage(rig.browser, { language, phone });
      const memberSide = await newPage(rig.browser, { language, phone });
      try {
        // The leader-to-be creates the team on their team page.
        const lead = leaderSide.page;
        await signIn(lead, language, leaderName, '/user/team/members');
        await lead.getByText(text.none).waitFor();
        await lead.getByRole('textbox', { name: text.create.name }).fill(teamName);
        await lead.getByRole('button', { name: text.create.submit, exact: true }).click();
        await lead.getByText(TEXTS[language].created).waitFor();
        const invite = lead.getByRole('region', { name: text.invite.title });
        const link = await invite.getByRole('textbox', { name: text.invite.link }).inputValue();
        const code = await invite.getByRole('textbox', { name: text.invite.code }).inputValue();
        expect(code).toMatch(/^[A-Z2-9]{8}$/);
        expect(link).toBe(url(rig.server, `/user/team/members?invite=${code}`));
        expect(await lead.getByTestId('team-rate').textContent()).toContain('0%');

        // The invited member opens the link, signs in, and first sees the invitation: nothing has changed yet.
        const guest = memberSide.page;
        await signIn(guest, language, joinerName, `/user/team/members?invite=${code}`);
        const card = guest.getByRole('region', { name: fill(text.invitation.title, { name: teamName }) });
        await card.getByText(fill(text.summary.split(' |||| ')[0], { leader: `${leaderName} N`, smart_count: '1' })).waitFor();
        expect((await db().selectFrom('user').select('teamid').where('id', '=', joiner.id).executeTakeFirstOrThrow()).teamid).toBeNull();
        expectNoViolations(await sweep(guest, `team invitation ${language} ${width}`));
        await guest.screenshot({ path: join(SHOTS, `${language}-${width}-invitation.png`), fullPage: true });

        // Declining leaves the member where they were; a wrong code is refused on its field.
        await card.getByRole('button', { name: text.invitation.decline }).click();
        await card.waitFor({ state: 'detached' });
        const field = guest.getByRole('textbox', { name: text.join.code });
        await field.fill('WRONG234');
        await guest.getByRole('button', { name: text.join.look }).click();
        await guest.getByText(TEXTS[language].invalid).waitFor();
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        await field.fill(code.toLowerCase());
        await guest.getByRole('button', { name: text.join.look }).click();
        await card.getByRole('button', { name: fill(text.invitation.accept, { name: teamName }) }).click();
        await guest.getByText(TEXTS[language].joined(teamName)).waitFor();
        await guest.getByRole('heading', { name: fill(text.mine.title, { name: teamName }) }).waitFor();
        await guest.getByRole('button', { name: text.mine.leave }).waitFor();
        const team = await db().selectFrom('team').select(['id']).where('name', '=', teamName).executeTakeFirstOrThrow();
        expect((await db().selectFrom('user').select('teamid').where('id', '=', joiner.id).executeTakeFirstOrThrow()).teamid).toBe(team.id);
        if (phone) expect(await guest.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(guest, `team member ${language} ${width}`));
        await guest.screenshot({ path: join(SHOTS, `${language}-${width}-member.png`), fullPage: true });

        // The operator sets 12.5 %; the member earns ¥2.40; the leader reads 12.5 % and ¥0.30.
        expect((await rig.server.admin('team.Team/edit', { token: adminToken, body: { id: team.id, name: teamName, commission_rate_bp: 1250, status: 'enable' } })).code).toBe(1);
        await complete(joiner, '2.40');
        await lead.reload();
        await poll(() => lead.getByTestId('team-rate').textContent()).toContain('12.5%');
        await poll(() => lead.getByTestId('team-commission').textContent()).toContain('¥0.30');
        await lead.getByText(fill(text.commissionHelp, { rate: '12.5%' })).waitFor();
        const records = lead.getByRole(phone ? 'list' : 'table', { name: text.title });
        await records.getByText(`${joinerName} N (${joinerName})`).waitFor();
        await records.getByText('¥2.40').waitFor();
        await records.getByText('¥0.30').waitFor();
        await records.getByText(text.ownEarnings).waitFor();
        if (phone) expect(await lead.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expectNoViolations(await sweep(lead, `team leader ${language} ${width}`));
        await lead.screenshot({ path: join(SHOTS, `${language}-${width}-leader.png`), fullPage: true });
        // The member leaves after confirming; the page offers to join or create again.
        await guest.getByRole('button', { name: text.mine.leave }).click();
        const dialog = guest.getByRole('dialog', { name: fill(text.mine.leaveTitle, { name: teamName }) });
        await dialog.getByRole('button', { name: text.mine.leave }).click();
        await guest.getByText(TEXTS[language].left(teamName)).waitFor();
        await guest.getByText(text.none).waitFor();
        expect((await db().selectFrom('user').select('teamid').where('id', '=', joiner.id).executeTakeFirstOrThrow()).teamid).toBeNull();
        expect(leaderSide.errors).toEqual([]);
        expect(memberSide.errors).toEqual([]);
      } finally {
        await leaderSide.context.close();
        await memberSide.context.close();
      }
    });
  });
});
