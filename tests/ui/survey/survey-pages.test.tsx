// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeUserInfo } from '../../../src/client/http/session.js';
import { createTranslate } from '../../../src/client/i18n/translate.js';
import { TaskHall } from '../../../src/client/member/pages/tasks/TasksPage.js';
import { WallEntries } from '../../../src/client/member/pages/tasks/WallEntries.js';
import { redirectTarget } from '../../../src/client/member/login/MemberLoginPage.js';
import { InterfacePage } from '../../../src/client/pages/survey/InterfacePage.js';
import { OutcomePage } from '../../../src/client/pages/survey/OutcomePage.js';
import { QuickTaskPage } from '../../../src/client/pages/survey/QuickTaskPage.js';
import { TrackingPage } from '../../../src/client/pages/survey/TrackingPage.js';
import { setSiteTimeZone } from '../../../src/client/format/datetime.js';
import { createSurveyApi } from '../../../src/client/pages/survey/survey-api.js';
import enSurvey from '../../../locales/en/common/survey.json';
import { renderInRouter } from '../shell/render-app.js';
import { fail, http, ok, testClient, useEnglish } from '../shell/support.js';

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  useEnglish();
  // the pages' bar offers the member menu, fetched with the member's menus
  server.use(http.get('/api/index/index', () => ok({ site: { siteName: 'Panel', recordNumber: '', version: 'v1', cdnUrl: '' }, openMemberCenter: true, userInfo: {}, rules: [], menus: [] })));
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

function signIn() {
  writeUserInfo({ id: 7, username: 'amy', nickname: 'Amy', token: 'utok' });
}

function renderAt(path: string, element: React.ReactElement) {
  const { client } = testClient(path);
  const api = createSurveyApi(client);
  const { router } = renderInRouter(
    <Routes>
      <Route path="/success" element={<OutcomePage page="success" api={api} />} />
      <Route path="/terminate" element={<OutcomePage page="terminate" api={api} />} />
      <Route path="/interface" element={element} />
      <Route path="/tracking" element={<TrackingPage api={api} />} />
      <Route path="/quicktask" element={<QuickTaskPage api={api} />} />
      <Route path="/user/login" element={<p>member login</p>} />
      <Route path="/user" element={<TaskHall t={createTranslate(enSurvey)} api={api} />} />
    </Routes>,
    path,
  );
  return { router, api };
}

describe('outcome pages', () => {
  it('report the page and the raw query, then show the reward and the new balance', async () => {
    let body: unknown;
    let token: string | null = null;
    server.use(
      http.post('/api/survey/outcome', async ({ request }) => {
        body = await request.json();
        token = request.headers.get('ba-user-token');
        return ok({
          status: 'complete', already_recorded: false, survey: { id: 3, title: 'Coffee habits' }, credit_state: 'credited',
          credited: { money: '1.50', score: 10 }, reason: '', balance: { money: '11.50', score: 40 },
        });
      }),
    );
    signIn();
    renderAt('/success?rid=ab12&sig=f00d', <p />);
    expect(await screen.findByRole('heading', { name: 'Survey complete' })).toBeTruthy();
    expect((await screen.findByTestId('reward')).textContent).toBe('Credited: ¥1.50 + 10 points');
    expect(screen.getByTestId('balance').textContent).toBe('Your balance is now ¥11.50, points 40');
    expect(screen.getByText('Coffee habits')).toBeTruthy();
    expect(body).toEqual({ outcome: 'success', query: 'rid=ab12&sig=f00d' });
    expect(token).toBe('utok');
    expect(document.title).toContain('Survey complete');
  });

  it('say when a reward held for the provider’s hold period becomes available, on the site’s clock', async () => {
    setSiteTimeZone(undefined);
    // 2026-12-01 06:30 UTC: 14:30 in Shanghai.
    const availableAt = Date.UTC(2026, 11, 1, 6, 30) / 1000;
    server.use(
      http.post('/api/survey/outcome', () =>
        ok({
          status: 'complete', already_recorded: false, survey: { id: 3, title: 'Coffee habits' }, credit_state: 'credited',
          credited: { money: '20.00', score: 10 }, available_at: availableAt, reason: '', balance: { money: '0.00', score: 0 },
        }),
      ),
      http.get('/api/index/index', () => ok({ site: { siteName: 'Panel', timeZone: 'Asia/Shanghai' }, openMemberCenter: true, userInfo: {}, rules: [], menus: [] })),
    );
    signIn();
    renderAt('/success?rid=ab12&sig=f00d', <p />);
    expect((await screen.findByTestId('reward')).textContent).toBe('Credited: ¥20.00 + 10 points');
    expect((await screen.findByTestId('available-at')).textContent).toBe("Held for the provider's hold period: available in your balance from 2026-12-01 14:30");
    expect(document.body.textContent).not.toContain(String(availableAt));
    // The zone is the page's for good: the later pages of this file learn theirs as a fresh page does.
    setSiteTimeZone(undefined);
  });

  it('head the page with what was recorded, whatever page the provider chose', async () => {
    const report = (status: string, extra: Record<string, unknown> = {}) => ({
      status, already_recorded: false, survey: { id: 3, title: 'Coffee habits' }, credit_state: 'none', credited: { money: '0.00', score: 0 }, reason: '', ...extra,
    });
    const recorded: Record<string, ReturnType<typeof report>> = {
      security: report('security', { reason: 'The survey reported a quality problem, so no reward was credited' }),
      full: report('overquota', { reason: 'This survey was already full' }),
      reversed: report('reversed', { already_recorded: true, credit_state: 'reversed', reason: 'This survey return was already recorded' }),
    };
    server.use(http.post('/api/survey/outcome', async ({ request }) => ok(recorded[((await request.json()) as { query: string }).query])));
    const cases = [
      { query: 'security', heading: 'Failed the security check', tone: 'error', text: 'The survey reported a quality problem, so no reward was credited' },
      { query: 'full', heading: 'Survey full', tone: 'warning', text: 'This survey was already full' },
      { query: 'reversed', heading: 'Reward reversed', tone: 'error', text: 'The complete recorded for this survey was reversed: no reward is given for it.' },
    ];
    for (const { query, heading, tone, text } of cases) {
      renderAt(`/success?${query}`, <p />);
      expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
      expect(screen.getByText(text)).toBeTruthy();
      expect(screen.queryByRole('heading', { name: /Success|Survey complete/ })).toBeNull();
      expect(document.querySelector('[data-tone]')?.getAttribute('data-tone')).toBe(tone);
      expect(document.title).toContain(heading);
      cleanup();
    }
  });

  it('say why nothing was credited, and show an unknown link as an error', async () => {
    server.use(
      http.post('/api/survey/outcome', async ({ request }) => {
        const { query } = (await request.json()) as { query: string };
        if (query === 'rid=nope') return fail('This survey link is unknown');
        if (query === 'rid=forged') return fail('The signature of this survey return is invalid');
        return ok({
          status: 'terminate', already_recorded: true, survey: { id: 3, title: 'Coffee habits' }, credit_state: 'none',
          credited: { money: '0.00', score: 0 }, reason: 'This survey return was already recorded',
        });
      }),
    );
    renderAt('/terminate?rid=ab12', <p />);
    expect(await screen.findByRole('heading', { name: 'Already recorded' })).toBeTruthy();
    expect(screen.getByText('Recorded as: Screened out')).toBeTruthy();
    expect(screen.queryByTestId('reward')).toBeNull();
    expect(screen.queryByTestId('balance')).toBeNull();
    cleanup();
    renderAt('/success?rid=nope', <p />);
    expect((await screen.findByRole('alert')).textContent).toBe('This survey link is unknown');
    expect(screen.getByRole('heading', { name: 'Result not recorded' })).toBeTruthy();
    cleanup();
    // A return whose signature fails is refused by the server (nothing recorded), never shown as a success.
    renderAt('/success?rid=forged', <p />);
    expect((await screen.findByRole('alert')).textContent).toBe('The signature of this survey return is invalid');
    expect(screen.getByRole('heading', { name: 'Result not recorded' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /Success|Survey complete/ })).toBeNull();
  });
});

describe('/interface', () => {
  it('sends a stranger to member login and back here afterwards', async () => {
    const { router } = renderAt('/interface?id=3', <InterfacePage go={vi.fn()} />);
    await waitFor(() => expect(router.location.pathname).toBe('/user/login'));
    expect(router.location.search).toBe(`?redirect=${encodeURIComponent('/interface?id=3')}`);
    expect(redirectTarget(new URLSearchParams(router.location.search).get('redirect'))).toBe('/interface?id=3');
    for (const unsafe of ['//evil.example/x', 'https://evil.example', '/\\evil.example', null]) expect(redirectTarget(unsafe)).toBe('/user');
  });

  it('starts the survey and goes on to the provider, or shows the refusal', async () => {
    signIn();
    const go = vi.fn();
    let started: unknown;
    server.use(
      http.post('/api/survey/start', async ({ request }) => {
        started = await request.json();
        return (started as { id: number }).id === 3 ? ok({ url: 'https://panel.example/s?r=ab12' }) : fail('You have already taken this survey');
      }),
    );
    const { client } = testClient('/interface');
    const api = createSurveyApi(client);
    const interfaceRoute = <Routes><Route path="/interface" element={<InterfacePage api={api} go={go} />} /></Routes>;
    renderInRouter(interfaceRoute, '/interface?id=3');
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://panel.example/s?r=ab12'));
    expect(started).toEqual({ id: 3 });
    cleanup();
    renderInRouter(interfaceRoute, '/interface?id=4');
    expect((await screen.findByRole('alert')).textContent).toBe('You have already taken this survey');
    expect(go).toHaveBeenCalledTimes(1);
  });
});

/** The participation schema's labels and colours, as `/api/survey/records` sends them. */
const participationTags = {
  status: { complete: { label: 'Complete', color: 'success' }, terminate: { label: 'Terminate', color: 'default' }, timeout: { label: 'Timeout', color: 'default' } },
  credit_state: { none: { label: 'Not credited', color: 'default' }, held: { label: 'Held for review', color: 'warning' }, credited: { label: 'Credited', color: 'success' } },
};

describe('/tracking and the task list', () => {
  it('lists the member’s records, newest first, paged', async () => {
    signIn();
    const pages: string[] = [];
    server.use(
      http.get('/api/survey/records', ({ request }) => {
        const page = new URL(request.url).searchParams.get('page') ?? '1';
        pages.push(page);
        const record = (id: number, status: string, credited: string) => ({
          id, survey_id: id, title: `Survey ${id}`, status, credit_state: credited === '0.00' ? 'none' : 'credited', reward_money: '1.50', reward_score: 10,
          credited_money: credited, credited_score: credited === '0.00' ? 0 : 10, enter_time: 1_700_000_000, finish_time: null,
          // reconciliation accepted the first as complete, with the administrator's reason
          reason: id === 40 ? 'Accepted in the provider’s June file' : '',
        });
        const held = { ...record(38, 'complete', '0.00'), credit_state: 'held' };
        return ok({ list: page === '1' ? [record(40, 'complete', '1.50'), record(39, 'terminate', '0.00'), held] : [record(1, 'timeout', '0.00')], total: 16, tags: participationTags });
      }),
      http.get('/api/survey/quickTaskRecords', () =>
        ok({
          list: [{ id: 9, task_id: 2, title: 'Review an app', status: 'rejected', reason: 'Screenshot unreadable', reward_money: '0.80', reward_score: 5, create_time: 1_700_000_000, review_time: 1_700_000_100 }],
          total: 1,
          tags: { status: { pending: { label: 'Pending review', color: 'warning' }, rejected: { label: 'Rejected', color: 'danger' } } },
        }),
      ),
      http.get('/api/survey/wallRecords', () =>
        ok({
          list: [
            { id: 5, provider: 'Offer wall', transaction_id: 'TX-77', state: 'reversed', unit: 'money', money: '2.00', score: 0, create_time: 1_700_000_000, credit_time: 1_700_000_000, reverse_time: 1_700_003_600, reason: 'Reversed by the provider (the provider says: Duplicate)' },
            { id: 4, provider: 'Points router', transaction_id: 'R-9', state: 'credited', unit: 'score', money: '0.00', score: 120, create_time: 1_700_000_000, credit_time: 1_700_000_000, reverse_time: null, reason: '' },
          ],
          total: 2,
          tags: { state: { credited: { label: 'Credited', color: 'success' }, reversed: { label: 'Reversed', color: 'danger' }, refused: { label: 'Refused', color: 'warning' } } },
        }),
      ),
      // Outside the member centre the page asks the member bootstrap for the site's time zone.
      http.get('/api/index/index', () => ok({ site: { siteName: 'Panel', timeZone: 'Pacific/Auckland' }, openMemberCenter: true, userInfo: {}, rules: [], menus: [] })),
    );
    renderAt('/tracking', <p />);
    expect(await screen.findByText('Survey 40')).toBeTruthy();
    // 2023-11-14 22:13:20 UTC is the next morning in Auckland (daylight time, UTC+13).
    expect(screen.getAllByText('2023-11-15 11:13:20').length).toBeGreaterThan(0);
    // Each status reads and colours as the server's tags (the schema) say: a screen-out is neutral, not a warning.
    const chip = (text: string, scope: HTMLElement = document.body) => within(scope).getAllByText(text)[0].closest('.MuiChip-root')?.className ?? '';
    expect(chip('Complete')).toContain('MuiChip-colorSuccess');
    expect(screen.getByText('¥1.50 + 10 points')).toBeTruthy();
    const surveys = screen.getByRole('table', { name: 'Task tracking' });
    expect(within(surveys).getByRole('columnheader', { name: 'Reason' })).toBeTruthy();
    expect(within(surveys).getByText('Accepted in the provider’s June file')).toBeTruthy();
    expect(chip('Terminate')).toContain('MuiChip-colorDefault');
    expect(chip('Held for review')).toContain('MuiChip-colorWarning');
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Timeout')).toBeTruthy();
    expect(pages).toEqual(['1', '2']);
    const quick = screen.getByRole('table', { name: 'Quick tasks' });
    expect(within(quick).getByText('Review an app')).toBeTruthy();
    expect(chip('Rejected', quick)).toContain('MuiChip-colorError');
    expect(within(quick).getByText('Screenshot unreadable')).toBeTruthy();
    // A quick task is not a survey, and its time is when it was submitted.
    expect(within(quick).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Task', 'Status', 'Reason', 'Credited', 'Submitted']);
    // Survey walls: the wall, the state as the schema labels it, the amount in its unit, the date it last changed.
    const walls = screen.getByRole('table', { name: 'Survey walls' });
    const rows = within(walls).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Offer wall', 'Reversed', '¥2.00', 'Reversed by the provider (the provider says: Duplicate)', 'TX-77', '2023-11-15 12:13:20'],
      ['Points router', 'Credited', '120 points', '-', 'R-9', '2023-11-15 11:13:20'],
    ]);
    expect(chip('Reversed', walls)).toContain('MuiChip-colorError');
    setSiteTimeZone(undefined);
  });

  it('reads a credit of one kind without "0 points" or "¥0.00", and one point as "1 point"', async () => {
    signIn();
    server.use(
      http.get('/api/survey/records', () =>
        ok({
          list: [
            { id: 2, survey_id: 2, title: 'Money only', status: 'complete', credit_state: 'credited', reward_money: '1.50', reward_score: 0, credited_money: '1.50', credited_score: 0, enter_time: 1_700_000_000, finish_time: 1_700_000_600, reason: '' },
            { id: 1, survey_id: 1, title: 'One point', status: 'complete', credit_state: 'credited', reward_money: '0.00', reward_score: 1, credited_money: '0.00', credited_score: 1, enter_time: 1_700_000_000, finish_time: 1_700_000_600, reason: '' },
          ],
          total: 2,
          tags: participationTags,
        }),
      ),
      http.get('/api/survey/quickTaskRecords', () =>
        ok({
          list: [{ id: 9, task_id: 2, title: 'Points task', status: 'approved', reason: '', reward_money: '0.00', reward_score: 5, create_time: 1_700_000_000, review_time: 1_700_000_100 }],
          total: 1,
          tags: { status: { approved: { label: 'Approved', color: 'success' } } },
        }),
      ),
      http.get('/api/survey/wallRecords', () =>
        ok({
          list: [{ id: 4, provider: 'Points router', transaction_id: 'R-1', state: 'refused', unit: 'score', money: '0.00', score: 0, create_time: 1_700_000_000, credit_time: null, reverse_time: null, reason: 'Unknown member' }],
          total: 1,
          tags: { state: { refused: { label: 'Refused', color: 'warning' } } },
        }),
      ),
      http.get('/api/index/index', () => ok({ site: { siteName: 'Panel', timeZone: 'UTC' }, openMemberCenter: true, userInfo: {}, rules: [], menus: [] })),
    );
    renderAt('/tracking', <p />);
    const surveys = await screen.findByRole('table', { name: 'Task tracking' });
    const credited = (table: HTMLElement, title: string) => {
      const row = within(table).getByText(title).closest('tr') as HTMLElement;
      return within(row).getAllByRole('cell').map((cell) => cell.textContent);
    };
    expect(credited(surveys, 'Money only')[2]).toBe('¥1.50');
    expect(credited(surveys, 'One point')[2]).toBe('1 point');
    expect(credited(await screen.findByRole('table', { name: 'Quick tasks' }), 'Points task')[3]).toBe('5 points');
    // A refused wall transaction credited nothing: a dash, not "0 points".
    expect(credited(await screen.findByRole('table', { name: 'Survey walls' }), 'Points router')[2]).toBe('-');
    expect(document.body.textContent).not.toMatch(/\b0 points|¥0\.00/);
    setSiteTimeZone(undefined);
  });

  it('shows the surveys open to the member, each starting through /interface', async () => {
    signIn();
    server.use(
      http.get('/api/survey/tasks', () => ok({
          list: [
            { id: 3, title: 'Coffee habits', description: 'Five questions', reward_money: '1.50', reward_score: 10, loi_minutes: 9, end_time: null },
            { id: 4, title: 'Pilot', description: '', reward_money: '0.00', reward_score: 1, loi_minutes: 2, end_time: null },
            { id: 5, title: 'Unpaid', description: '', reward_money: '0.00', reward_score: 0, loi_minutes: 2, end_time: null },
          ],
        })),
      http.get('/api/survey/walls', () => ok({ list: [] })),
      http.get('/api/survey/quickTasks', () => ok({ list: [] })),
    );
    renderAt('/user', <p />);
    expect(await screen.findByText('Coffee habits')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Quick tasks' })).toBeNull();
    expect(screen.getByText('Reward ¥1.50 + 10 points')).toBeTruthy();
    // a part that is nothing is left out, and one point is singular
    expect(screen.getByText('Reward 1 point')).toBeTruthy();
    expect(screen.getByText('No reward')).toBeTruthy();
    expect(screen.getByText('About 9 min')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Start' })[0].getAttribute('href')).toBe('/interface?id=3');
  });

  it('offers a "more surveys" entry per wall, which opens the wall at the address the server gives', async () => {
    signIn();
    const asked: string[] = [];
    server.use(
      http.get('/api/survey/walls', () => ok({ list: [{ code: 'cpx', name: 'CPX Research' }, { code: 'gone', name: 'Closed wall' }] })),
      http.get('/api/survey/wall', ({ request }) => {
        const code = new URL(request.url).searchParams.get('provider') ?? '';
        asked.push(code);
        return code === 'cpx' ? ok({ url: 'https://offers.example/?app=1&ext_user_id=0f3a' }) : fail('This survey wall is not available');
      }),
    );
    const { client } = testClient('/user');
    const go = vi.fn();
    renderInRouter(<WallEntries t={createTranslate(enSurvey)} api={createSurveyApi(client)} go={go} />, '/user');
    expect(await screen.findByRole('heading', { name: 'More surveys' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'More surveys: Closed wall' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This survey wall is not available');
    expect(go).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'More surveys: CPX Research' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://offers.example/?app=1&ext_user_id=0f3a'));
    expect(asked).toEqual(['gone', 'cpx']);
  });

  it('shows no wall entry while the site has no walls', async () => {
    signIn();
    server.use(
      http.get('/api/survey/walls', () => ok({ list: [] })),
      http.get('/api/survey/tasks', () => ok({ list: [] })),
      http.get('/api/survey/quickTasks', () => ok({ list: [] })),
    );
    const { client } = testClient('/user');
    const api = createSurveyApi(client);
    renderInRouter(<TaskHall t={createTranslate(enSurvey)} api={api} />, '/user');
    expect(await screen.findByText('No survey and no quick task is open to you right now. Please check again later.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'More surveys' })).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('lists the quick tasks in the hall while no survey is open, and says nothing is open only when neither is', async () => {
    signIn();
    const quick = { id: 4, title: 'Shelf photo', description: 'A photo of the shelf', reward_money: '0.50', reward_score: 5, form: { properties: {}, required: [] }, my_status: null, my_reason: '' };
    let open = [quick, { ...quick, id: 5, title: 'Reviewed one', my_status: 'approved' }];
    server.use(
      http.get('/api/survey/tasks', () => ok({ list: [] })),
      http.get('/api/survey/walls', () => ok({ list: [] })),
      http.get('/api/survey/quickTasks', () => ok({ list: open })),
    );
    renderAt('/user', <p />);
    const section = await screen.findByRole('region', { name: 'Quick tasks' });
    expect(within(section).getByRole('heading', { name: 'Quick tasks' })).toBeTruthy();
    expect(within(section).getByText('Shelf photo')).toBeTruthy();
    expect(within(section).getByText('Approved and credited')).toBeTruthy();
    expect(within(section).getAllByRole('link', { name: 'Fill in' }).map((link) => link.getAttribute('href'))).toEqual(['/quicktask?id=4']);
    expect(screen.queryByText(/is open to you right now/)).toBeNull();
    cleanup();
    open = [];
    renderAt('/user', <p />);
    expect(await screen.findByText('No survey and no quick task is open to you right now. Please check again later.')).toBeTruthy();
  });
});

describe('/quicktask', () => {
  const task = {
    id: 2, title: 'Review an app', description: 'Install it and rate it', reward_money: '0.80', reward_score: 5, review: 'manual', my_status: null, my_reason: '',
    form: {
      type: 'object', required: ['name', 'platform', 'proof'],
      properties: {
        name: { type: 'string', title: 'Your name', maxLength: 20 },
        platform: { type: 'string', title: 'Platform', enum: ['ios', 'android'], 'x-ui': { widget: 'radio', options: { ios: 'iPhone', android: 'Android' } } },
        email: { type: 'string', title: 'Email', format: 'email', maxLength: 100 },
        proof: { type: 'string', title: 'Screenshot', 'x-ui': { widget: 'image' } },
      },
    },
  };

  it('draws the task’s form from its schema, uploads the image, shows every refusal on its field at once, then the result', async () => {
    signIn();
    const bodies: unknown[] = [];
    server.use(
      http.get('/api/survey/quickTasks', () => ok({ list: [task, { ...task, id: 3, title: 'Done already', my_status: 'approved' }] })),
      http.post('/api/ajax/upload', () => ok({ file: { url: '/storage/default/20261123/proof.png' } })),
      http.post('/api/survey/quickTaskSubmit', async ({ request }) => {
        const body = (await request.json()) as { answers: Record<string, unknown> };
        bodies.push(body);
        if (body.answers.name === 'Taken') {
          return fail('Your name already exists', 0, { field: 'name', errors: { name: 'Your name already exists', email: 'Email is on a blocked domain' } });
        }
        return ok({ id: 11, status: 'pending' }, 'Submitted, waiting for review');
      }),
    );
    const { router } = renderAt('/quicktask', <p />);
    expect(await screen.findByText('Done already')).toBeTruthy();
    // the state's words come with the locale, which may arrive just after the list
    expect(await screen.findByText('Approved and credited')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Fill in' }));
    await waitFor(() => expect(router.location.search).toBe('?id=2'));
    expect(await screen.findByRole('heading', { name: 'Review an app' })).toBeTruthy();

    // Each widget as declared: a choice of two as radio buttons, an email on one line with the email keyboard.
    const platform = screen.getByRole('group', { name: /Platform/ });
    expect(within(platform).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['iPhone', 'Android']);
    expect(screen.queryByRole('combobox')).toBeNull();
    const email = screen.getByLabelText(/Email/) as HTMLInputElement;
    expect({ tag: email.tagName, type: email.type }).toEqual({ tag: 'INPUT', type: 'email' });

    // Submitting a blank form names every missing answer at once, before anything is sent.
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please correct the answers marked below (3).');
    const messageOf = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(messageOf(screen.getByLabelText(/Your name/))).toBe('Your name cannot be empty');
    expect(messageOf(platform)).toBe('Platform cannot be empty');
    expect(messageOf(screen.getByLabelText(/^Screenshot/))).toBe('Screenshot cannot be empty');
    fireEvent.change(email, { target: { value: 'not an address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(messageOf(email)).toBe('Please enter the correct email address'));
    expect(bodies).toEqual([]);

    fireEvent.click(within(platform).getByRole('radio', { name: 'iPhone' }));
    fireEvent.change(screen.getByLabelText(/^Screenshot/), { target: { files: [new File(['png'], 'proof.png', { type: 'image/png' })] } });
    expect(await screen.findByRole('img', { name: 'Screenshot' })).toBeTruthy();
    // an image answer can be taken back before submitting, and the same file chosen again
    fireEvent.click(screen.getByRole('button', { name: 'Remove image: Screenshot' }));
    expect(screen.queryByRole('img', { name: 'Screenshot' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Screenshot/));
    fireEvent.change(screen.getByLabelText(/^Screenshot/), { target: { files: [new File(['png'], 'proof.png', { type: 'image/png' })] } });
    expect(await screen.findByRole('img', { name: 'Screenshot' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Your name/), { target: { value: 'Taken' } });
    fireEvent.change(email, { target: { value: 'amy@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    // The server's refusal of several fields shows on each of them.
    await waitFor(() => expect(messageOf(screen.getByLabelText(/Your name/))).toBe('Your name already exists'));
    expect(messageOf(email)).toBe('Email is on a blocked domain');
    expect(screen.getByRole('alert').textContent).toBe('Please correct the answers marked below (2).');

    fireEvent.change(screen.getByLabelText(/Your name/), { target: { value: 'Amy' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect((await screen.findByRole('status')).textContent).toBe('Submitted, waiting for review');
    expect(bodies.at(-1)).toEqual({ id: 2, answers: { name: 'Amy', platform: 'ios', email: 'amy@example.com', proof: '/storage/default/20261123/proof.png' } });
  });

  it('sends strangers to member login and back', async () => {
    const { router } = renderAt('/quicktask?id=2', <p />);
    await waitFor(() => expect(router.location.pathname).toBe('/user/login'));
    expect(new URLSearchParams(router.location.search).get('redirect')).toBe('/quicktask?id=2');
  });
});
