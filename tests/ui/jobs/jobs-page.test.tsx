// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import jobsEn from '../../../locales/en/admin/jobs.json';
import jobsZh from '../../../locales/zh-cn/admin/jobs.json';
import { resetBootstrap, setBootstrap } from '../../../src/client/admin/bootstrap-store.js';
import { JobsPage } from '../../../src/client/admin/pages/jobs/JobsPage.js';
import { fakeDataProvider, renderScreen } from '../resources/support.js';
import { ADMIN_API, fail, http, ok, sampleBootstrap, useEnglish } from '../shell/support.js';

/**
 * The background jobs screen against a fake server: each job's schedule in words, its last run, duration,
 * outcome, next run and failures in the page language; "Run now" for a super admin only, its answer (or
 * refusal) read out in the status region.
 */

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  localStorage.clear();
  useEnglish();
  setBootstrap(sampleBootstrap());
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetBootstrap();
});
afterAll(() => server.close());

const JOBS = [
  { name: 'survey-timeouts', title: 'Expire survey attempts past their time', every_seconds: 60, last_run: '2026-12-02 15:56:00', last_trigger: 'schedule', last_outcome: 'succeeded', last_duration_ms: 6, next_run: '2026-12-02 15:57:00', failures: 0, last_error: '' },
  { name: 'member-rankings', title: 'Rebuild member rankings', every_seconds: 600, last_run: '2026-12-02 15:50:00', last_trigger: 'manual', last_outcome: 'failed', last_duration_ms: 2500, next_run: '2026-12-02 16:00:00', failures: 2, last_error: 'connection lost' },
];

function renderJobs(locale: 'en' | 'zh-cn' = 'en') {
  const pack = { ...englishMessages, ...(locale === 'en' ? jobsEn : jobsZh) };
  renderScreen(<JobsPage />, { resource: 'routine/jobs', dataProvider: fakeDataProvider({}), i18nProvider: polyglotI18nProvider(() => pack, locale, [{ locale, name: locale }], { allowMissing: true }), locale });
}

const facts = (article: HTMLElement) => within(article).getAllByRole('term').map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);

describe('the background jobs screen', () => {
  it('shows each job’s schedule, runs and failures in words and date-time labels, and Run now for a super admin', async () => {
    server.use(http.get(`${ADMIN_API}/routine.Jobs/index`, () => ok({ list: JOBS, can_run: true })));
    renderJobs();
    const rankings = await screen.findByRole('article', { name: 'Rebuild member rankings' });
    expect(facts(rankings)).toEqual(['Schedule: Every 10 minutes', 'Last run: 2026-12-02 15:50:00 (run now)', 'Took: 2.5 s', 'Next run: 2026-12-02 16:00:00', 'Failures (recent runs): 2']);
    expect(within(rankings).getByText('Failed')).toBeTruthy();
    expect(within(rankings).getByText('Last error: connection lost')).toBeTruthy();
    expect(facts(screen.getByRole('article', { name: 'Expire survey attempts past their time' }))[0]).toBe('Schedule: Every minute');
    expect(screen.getAllByRole('button', { name: /^Run now: / }).map((button) => button.getAttribute('aria-label'))).toEqual(['Run now: Expire survey attempts past their time', 'Run now: Rebuild member rankings']);
  });

  it('runs a job now and reads out the answer, or the server’s refusal', async () => {
    const posted: unknown[] = [];
    server.use(
      http.get(`${ADMIN_API}/routine.Jobs/index`, () => ok({ list: JOBS, can_run: true })),
      http.post(`${ADMIN_API}/routine.Jobs/run`, async ({ request }) => {
        posted.push(await request.json());
        return posted.length === 1 ? ok({ name: 'member-rankings' }, 'The job was started: its run will be shown here when it ends') : fail('This job was just started or is running: its run is shown here when it ends');
      }),
    );
    renderJobs();
    fireEvent.click(await screen.findByRole('button', { name: 'Run now: Rebuild member rankings' }));
    const status = screen.getByRole('status');
    await waitFor(() => expect(status.textContent).toContain('Rebuild member rankings: The job was started: its run will be shown here when it ends'));
    expect(posted).toEqual([{ name: 'member-rankings' }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Run now: Rebuild member rankings' }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Run now: Rebuild member rankings' }));
    await waitFor(() => expect(status.textContent).toContain('This job was just started or is running'));
  });

  it('offers no Run now to other admins, and speaks Chinese on a Chinese page', async () => {
    server.use(http.get(`${ADMIN_API}/routine.Jobs/index`, () => ok({ list: JOBS, can_run: false })));
    renderJobs('zh-cn');
    const rankings = await screen.findByRole('article', { name: 'Rebuild member rankings' });
    expect(facts(rankings)[0]).toBe('计划: 每 10 分钟');
    expect(within(rankings).getByText('失败')).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: /立即运行/ })).toEqual([]);
  });
});
