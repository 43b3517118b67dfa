import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * `/metrics` for a Prometheus scraper: off unless a token or an address list is set, refused to anyone
 * else, and in the text format, with request counts by route (never by raw address), the database pool,
 * the process, and the business figures read from the database at scrape time.
 */

const TOKEN = 'scrape-token-0123456789';
const SECRET = 'provider-secret-1';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition's samples; every line must be a comment (`# HELP`, `# TYPE`) or a sample (prom-client writes NaN as `Nan`, which Prometheus reads). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      expect(line).toMatch(/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/);
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[Nn]a[Nn]|[+-]Inf)$/.exec(line);
    expect(match, line).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const pair of (match?.[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ name: match?.[1] ?? '', labels, value: Number(match?.[3]) });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;
}

async function scrape(server: TestServer, token = TOKEN): Promise<{ text: string; samples: Sample[] }> {
  const response = await server.raw('/metrics', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, samples: parseExposition(text) };
}

describe('who may read /metrics', () => {
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startTestServer('sqlite', { env });
    servers.push(server);
    return server;
  };

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it('is off (404) when neither METRICS_TOKEN nor METRICS_ALLOW is set', async () => {
    const server = await start({});
    const response = await server.raw('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('chidao_');
  });

  it('asks for the bearer token of METRICS_TOKEN', async () => {
    const server = await start({ METRICS_TOKEN: TOKEN });
    const none = await server.raw('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.text()).not.toContain('chidao_');
    expect((await server.raw('/metrics', { headers: { authorization: 'Bearer scrape-token-wrong-56789' } })).status).toBe(401);
    expect((await server.raw('/metrics', { headers: { authorization: TOKEN } })).status).toBe(401);
    await scrape(server);
  });

  it('admits only the addresses of METRICS_ALLOW, and with both set asks for both', async () => {
    const elsewhere = await start({ METRICS_ALLOW: '10.0.0.0/8' });
    expect((await elsewhere.raw('/metrics')).status).toBe(403);
    const here = await start({ METRICS_ALLOW: '10.0.0.0/8, 127.0.0.1' });
    expect((await here.raw('/metrics')).status).toBe(200);
    const both = await start({ METRICS_ALLOW: '127.0.0.1', METRICS_TOKEN: TOKEN });
    expect((await both.raw('/metrics')).status).toBe(401);
    await scrape(both);
  });

  it('refuses to start on a short token or an address list it cannot read', async () => {
    await expect(start({ METRICS_TOKEN: 'short' })).rejects.toThrow(/METRICS_TOKEN must be at least 16/);
    await expect(start({ METRICS_ALLOW: '10.0.0.0/8, 10.0.0.300' })).rejects.toThrow(/METRICS_ALLOW .*"10\.0\.0\.300"/);
  });

  it('counts each server apart when several run in one process', async () => {
    const first = await start({ METRICS_TOKEN: TOKEN });
    const second = await start({ METRICS_TOKEN: TOKEN });
    for (let round = 0; round < 3; round += 1) await first.api('index/index');
    const route = { route: 'user:index/index', method: 'GET', status: '200' };
    expect(valueOf((await scrape(first)).samples, 'chidao_http_requests_total', route)).toBe(3);
    expect(valueOf((await scrape(second)).samples, 'chidao_http_requests_total', route)).toBeUndefined();
  });
});

describe.each(DATABASES)('metrics on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const admin = <T = unknown>(path: string, request: ApiRequest = {}) => server.admin<T>(path, { token, ...request });

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { METRICS_TOKEN: TOKEN } });
    token = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('counts requests and their time by the action they ran, never by the raw address', async () => {
    const route = { route: 'admin:auth.Admin/index', method: 'GET', status: '200' };
    const before = valueOf((await scrape(server)).samples, 'chidao_http_requests_total', route) ?? 0;
    for (const id of [1, 2, 3]) expect((await admin('auth.Admin/index', { query: { id, quickSearch: `who${id}` } })).code).toBe(1);
    await server.raw('/api/nosuchcontroller42/act?id=42');
    await server.raw('/storage/nothing-here-7.png');

    const { text, samples } = await scrape(server);
    expect(valueOf(samples, 'chidao_http_requests_total', route)).toBe(before + 3);
    expect(valueOf(samples, 'chidao_http_request_duration_seconds_count', route)).toBe(before + 3);
    expect(valueOf(samples, 'chidao_http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(before + 3);
    expect(valueOf(samples, 'chidao_http_requests_total', { route: '/api/:controller/:action', status: '404' })).toBe(1);
    expect(text).not.toContain('nosuchcontroller42');
    expect(text).not.toContain('who1');
    expect(text).not.toContain('nothing-here-7');
  });

  it('reports the process, and the database pool on PostgreSQL', async () => {
    const { samples } = await scrape(server);
    expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(1_000_000);
    expect(valueOf(samples, 'chidao_db_figures_up')).toBe(1);
    if (kind === 'postgres') {
      expect(valueOf(samples, 'chidao_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'chidao_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, 'chidao_db_pool_waiting_queries')).toBe(0);
    } else {
      expect(valueOf(samples, 'chidao_db_pool_connections')).toBeUndefined();
    }
  });

  it("shows a survey start as in progress and a provider's credit and reversal, read from the database", async () => {
    const code = `m${kind.slice(0, 2)}`;
    expect((await admin('survey.Provider/add', { body: { code, name: `Provider ${code}`, secret: SECRET } })).code).toBe(1);
    const provider = await server.server.app.db.selectFrom('survey_provider').select('id').where('code', '=', code).executeTakeFirstOrThrow();
    const added = await admin('survey.Survey/add', {
      body: { provider_id: provider.id, title: `Metrics ${kind}`, entry_url: 'https://panel.example/s/1?r={rid}', reward_money: '1.50', reward_score: 10, loi_minutes: 1, status: 'active' },
    });
    expect(added.code).toBe(1);
    const survey = await server.server.app.db.selectFrom('survey').select('id').where('title', '=', `Metrics ${kind}`).executeTakeFirstOrThrow();
    expect((await admin('user.User/add', { body: { username: `metric${kind}`, nickname: 'Metric', group_id: 1, password: 'Member_pass1' } })).code).toBe(1);
    const login = await server.api<{ userInfo: { token: string } }>('user/checkIn', { body: { tab: 'login', username: `metric${kind}`, password: 'Member_pass1' } });
    const userToken = login.data.userInfo.token;

    const before = (await scrape(server)).samples;
    expect(valueOf(before, 'chidao_survey_completes', { provider: code })).toBe(0);
    const started = await server.api<{ url: string }>('survey/start', { body: { id: survey.id }, userToken });
    const rid = new URL(started.data.url).searchParams.get('r') as string;
    const inProgress = (await scrape(server)).samples;
    expect(valueOf(inProgress, 'chidao_survey_participations_in_progress')).toBe((valueOf(before, 'chidao_survey_participations_in_progress') ?? 0) + 1);

    await server.server.app.db.updateTable('survey_participation').set({ enter_time: Math.floor(Date.now() / 1000) - 600 }).where('rid', '=', rid).execute();
    const query = `rid=${rid}&sig=${createHmac('sha256', SECRET).update(`/success?rid=${rid}`).digest('hex')}`;
    expect((await server.api<{ credit_state: string }>('survey/outcome', { body: { outcome: 'success', query }, userToken })).data.credit_state).toBe('credited');

    const credited = (await scrape(server)).samples;
    expect(valueOf(credited, 'chidao_survey_completes', { provider: code })).toBe(1);
    expect(valueOf(credited, 'chidao_survey_credited_yuan', { provider: code })).toBe(1.5);
    expect(valueOf(credited, 'chidao_survey_reversals', { provider: code })).toBe(0);
    expect(valueOf(credited, 'chidao_survey_participations_in_progress')).toBe(valueOf(before, 'chidao_survey_participations_in_progress') ?? 0);

    expect((await admin('survey.Participation/reconcile', { body: { action: 'reverse', rids: [rid], reason: 'Client rejected' } })).code).toBe(1);
    const reversed = (await scrape(server)).samples;
    expect(valueOf(reversed, 'chidao_survey_completes', { provider: code })).toBe(0);
    expect(valueOf(reversed, 'chidao_survey_credited_yuan', { provider: code })).toBe(0);
    expect(valueOf(reversed, 'chidao_survey_reversals', { provider: code })).toBe(1);
  });

  it('reports payouts in every state the schema declares', async () => {
    const { samples } = await scrape(server);
    for (const status of ['pending', 'approved', 'paid', 'rejected']) expect(valueOf(samples, 'chidao_payouts', { status })).toBe(0);
    await server.server.app.db.insertInto('payout').values({ user_id: 1, amount: 500, status: 'pending', create_time: 1 }).execute();
    expect(valueOf((await scrape(server)).samples, 'chidao_payouts', { status: 'pending' })).toBe(1);
  });

  it('counts the runs of a job and their time, as the job runner ends them', async () => {
    const job = { job: 'login-attempts', outcome: 'succeeded' };
    const before = valueOf((await scrape(server)).samples, 'chidao_job_runs_total', job) ?? 0;
    expect((await admin('routine.Jobs/run', { body: { name: 'login-attempts' } })).code).toBe(1);
    let samples: Sample[] = [];
    for (let wait = 0; wait < 100 && (valueOf(samples, 'chidao_job_runs_total', job) ?? 0) === before; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      samples = (await scrape(server)).samples;
    }
    expect(valueOf(samples, 'chidao_job_runs_total', job)).toBeGreaterThanOrEqual(before + 1);
    expect(valueOf(samples, 'chidao_job_duration_seconds_count', job)).toBe(valueOf(samples, 'chidao_job_runs_total', job));
    expect(valueOf(samples, 'chidao_job_duration_seconds_bucket', { ...job, le: '900' })).toBe(valueOf(samples, 'chidao_job_runs_total', job));
    expect(valueOf(samples, 'chidao_job_runs_total', { job: 'login-attempts', outcome: 'failed' })).toBeUndefined();
  });
});
