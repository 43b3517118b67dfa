import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enLogin from '../../locales/en/member/login.json';
import zhLogin from '../../locales/zh-cn/member/login.json';
import enSurvey from '../../locales/en/common/survey.json';
import zhSurvey from '../../locales/zh-cn/common/survey.json';
import { signRequest, type SignatureRecipe } from '../../src/server/services/survey/signature-recipe.js';
import { sweep } from './axe.js';
import { newPage, startRig, url, type E2eRig } from './helpers.js';

/**
 * A survey wall from the member's side, in Chromium, in Chinese and English at 1440 and 390 px, on one
 * server: the member opens the wall from the surveys page's "more surveys" entry and lands on the wall's
 * host (a local stand-in on 127.0.0.1) with their opaque wall id; the wall then calls our real callback
 * address, signed as its preset says, with a credit and later its reversal (with its reason); the member's
 * task records show the credit, then its reversal and why, as labels, money and dates (no ids, JSON or Unix
 * times), with no accessibility violation.
 */

const SECRET = 'offerwall-secret-3';
const WALL_NAME = 'Offer Wall';
const PASSWORD = 'Member_pass1';
const TEXTS = {
  'zh-cn': { login: zhLogin.login, survey: zhSurvey.survey, credited: '已入账', reversed: '已撤销', reason: '渠道已撤销（渠道说明：Chargeback by advertiser）' },
  en: { login: enLogin.login, survey: enSurvey.survey, credited: 'Credited', reversed: 'Reversed', reason: 'Reversed by the provider (the provider says: Chargeback by advertiser)' },
} as const;
type Language = keyof typeof TEXTS;

let rig: E2eRig;
let wallHost: Server;
let wallOrigin = '';
let provider: Record<string, unknown>;
/** the member ids the stand-in wall was opened with, as it received them */
const opened: string[] = [];

beforeAll(async () => {
  // The wall's own site: a page that shows the member it was opened for, as a real wall's would.
  wallHost = createServer((request, response) => {
    const member = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('subId') ?? '';
    opened.push(member);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><head><title>Offer wall</title></head><body><main><h1>Offer wall</h1></main></body></html>');
  });
  await new Promise<void>((resolve) => wallHost.listen(0, '127.0.0.1', resolve));
  wallOrigin = `http://127.0.0.1:${(wallHost.address() as AddressInfo).port}`;
  rig = await startRig();
  const token = (await rig.server.loginAdmin()).token;
  const added = await rig.server.admin('survey.Provider/add', {
    token, body: { code: 'offerwall', name: WALL_NAME, preset: 'offerwall', secret: SECRET, reason_param: 'reason', wall_url: `${wallOrigin}/offers?subId={member}` },
  });
  expect({ code: added.code, msg: added.msg }).toMatchObject({ code: 1 });
  provider = (await rig.server.server.app.db.selectFrom('survey_provider').selectAll().where('code', '=', 'offerwall').executeTakeFirstOrThrow()) as Record<string, unknown>;
});

afterAll(async () => {
  await rig?.close();
  await new Promise((resolve) => wallHost?.close(resolve));
});

/** The wall's server-to-server call to our callback address, signed by the preset's recipe. */
async function wallCallback(pairs: [string, string][]): Promise<void> {
  const recipe = JSON.parse(String(provider.signature)) as SignatureRecipe;
  const query = pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
  const path = '/api/survey/callback/offerwall';
  const signed = signRequest(recipe, SECRET, String(provider.sig_param), { method: 'GET', origin: new URL(rig.server.url).origin, path, query, headers: {}, body: '', contentType: '' });
  const response = await rig.server.raw(`${signed.path}?${signed.query}`);
  expect(response.status).toBe(200);
  expect(await response.text()).not.toMatch(/"code"\s*:\s*0/);
}

async function login(page: Page, language: Language, username: string): Promise<void> {
  const texts = TEXTS[language].login;
  await page.goto(url(rig.server, '/user/login'));
  await page.getByRole('textbox', { name: texts.username }).fill(username);
  await page.getByLabel(texts.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
  await page.waitForURL(/\/user\/(?!login)/);
}

/** The member's wall records as they read: a table at 1440 px, one card a record on a phone. */
async function wallRecordText(page: Page, language: Language, phone: boolean): Promise<string> {
  const name = TEXTS[language].survey.tracking.walls;
  const records = phone ? page.getByRole('list', { name }) : page.getByRole('table', { name });
  await records.waitFor();
  return (await records.innerText()).replace(/\s+/g, ' ');
}

describe('a survey wall from the member centre', () => {
  let counter = 0;
  for (const language of ['zh-cn', 'en'] as const) {
    for (const phone of [false, true]) {
      it(`opens the wall, then shows its credit and its reversal in the task records (${language}, ${phone ? '390 px' : '1440 px'})`, async () => {
        const texts = TEXTS[language];
        const username = `waller${++counter}`;
        const token = (await rig.server.loginAdmin()).token;
        expect((await rig.server.admin('user.User/add', { token, body: { username, nickname: username, group_id: 1, password: PASSWORD } })).code).toBe(1);
        const member = (await rig.server.server.app.db.selectFrom('user').select('id').where('username', '=', username).executeTakeFirstOrThrow()) as { id: number };
        const { context, page, errors } = await newPage(rig.browser, { language, phone });
        try {
          await login(page, language, username);
          await page.goto(url(rig.server, '/user/survey/tasks'));
          const entries = page.getByRole('region', { name: texts.survey.walls.title });
          await entries.getByRole('button', { name: texts.survey.walls.open.replace('%{name}', WALL_NAME) }).click();
          await page.waitForURL(`${wallOrigin}/offers?**`);
          await page.getByRole('heading', { name: 'Offer wall' }).waitFor();
          // The wall got the member's opaque wall id (128 random bits in hex), never their numeric id.
          const wallId = new URL(page.url()).searchParams.get('subId') ?? '';
          expect(wallId).toMatch(/^[0-9a-f]{32}$/);
          expect(opened).toContain(wallId);

          const transaction = `OW-${language}-${phone ? 'phone' : 'desk'}-1001`;
          await wallCallback([['subId', wallId], ['transId', transaction], ['reward', '1.25'], ['status', '1']]);
          await page.goto(url(rig.server, '/user/survey/tracking'));
          const credited = await wallRecordText(page, language, phone);
          expect(credited).toContain(WALL_NAME);
          expect(credited).toContain(texts.credited);
          expect(credited).toContain('¥1.25');
          expect(credited).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
          const balance = await rig.server.server.app.db.selectFrom('user').select('money').where('id', '=', member.id).executeTakeFirstOrThrow();
          expect(Number(balance.money)).toBe(125);

          await wallCallback([['subId', wallId], ['transId', transaction], ['reward', '1.25'], ['status', '2'], ['reason', 'Chargeback by advertiser']]);
          await page.reload();
          await page.getByText(texts.reason, { exact: true }).waitFor();
          const reversed = await wallRecordText(page, language, phone);
          expect(reversed).toContain(texts.reversed);
          expect(reversed).toContain('¥1.25');
          expect(reversed).toContain(texts.reason);
          // Readable: no wall id, no stored message, no Unix time.
          expect(reversed).not.toContain(wallId);
          expect(reversed).not.toMatch(/[{}]|"key"|\b1\d{9}\b/);
          const after = await rig.server.server.app.db.selectFrom('user').select('money').where('id', '=', member.id).executeTakeFirstOrThrow();
          expect(Number(after.money)).toBe(0);

          expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
          expect(await sweep(page, `task records (${language}, ${phone ? 'phone' : 'desktop'})`)).toEqual([]);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});
