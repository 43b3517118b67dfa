// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { AdminContext, memoryStore } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { SurveyFigures, type DashboardFigures } from '../../../src/client/admin/pages/dashboard/SurveyFigures.js';
import dashboard from '../../../locales/en/admin/dashboard.json';
import zhDashboard from '../../../locales/zh-cn/admin/dashboard.json';

afterEach(cleanup);

const figures: DashboardFigures = {
  members: 1234,
  activeSurveys: 5,
  days: Array.from({ length: 30 }, (_, index) => ({ date: `2026-11-${String(index + 1).padStart(2, '0')}`, starts: index, completes: Math.floor(index / 2), credited: '0.00' })),
  period: { starts: 435, completes: 210, conversion: 48.3, credited: '315.00' },
  payoutsPending: { count: 3, amount: '120.00' },
  topSurveys: [{ id: 3, title: 'Coffee habits', starts: 40, completes: 21, credited_money: '31.50' }],
};

function renderFigures(messages: object, value: DashboardFigures = figures) {
  const i18nProvider = polyglotI18nProvider(() => ({ ...englishMessages, ...messages }), 'en', [{ locale: 'en', name: 'en' }], { allowMissing: true });
  render(
    <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
      <SurveyFigures figures={value} />
    </AdminContext>,
  );
}

describe('dashboard figures', () => {
  it('shows the totals, the 30-day chart and the top surveys', () => {
    renderFigures(dashboard);
    expect(screen.getByTestId('figure-members').textContent).toBe('1234');
    expect(screen.getByText('Conversion (30 days)')).toBeTruthy();
    expect(screen.getByTestId('figure-periodConversion').textContent).toBe('48.3%');
    expect(screen.getByTestId('figure-periodCredited').textContent).toBe('¥315.00');
    expect(screen.getByText('Payouts waiting')).toBeTruthy();
    expect(screen.getByTestId('figure-payoutsPending').textContent).toBe('3 / ¥120.00');
    expect(screen.getByRole('img', { name: 'Starts and completes per day' })).toBeTruthy();
    const top = screen.getByRole('table', { name: 'Top surveys' });
    expect(within(top).getByText('Coffee habits')).toBeTruthy();
    expect(within(top).getByText('¥31.50')).toBeTruthy();
    // no survey wall yet: no wall table
    expect(screen.queryByRole('table', { name: 'Survey walls (30 days)' })).toBeNull();
  });

  it('leaves out the figures the admin may not read: no member count, payouts or daily series without them', () => {
    renderFigures(dashboard, { activeSurveys: 5, topSurveys: figures.topSurveys });
    expect(screen.getByTestId('figure-activeSurveys').textContent).toBe('5');
    expect(screen.queryByTestId('figure-members')).toBeNull();
    expect(screen.queryByTestId('figure-payoutsPending')).toBeNull();
    expect(screen.queryByTestId('figure-periodCredited')).toBeNull();
    expect(screen.queryByRole('img', { name: 'Starts and completes per day' })).toBeNull();
    expect(within(screen.getByRole('table', { name: 'Top surveys' })).getByText('Coffee habits')).toBeTruthy();
  });

  it('shows each survey wall\'s credits, reversals, refusals and net amount', () => {
    const walls = [
      { id: 4, name: 'CPX Research', credited: 12, reversed: 2, refused: 1, money: '18.40', score: 0 },
      { id: 5, name: 'Points router', credited: 3, reversed: 0, refused: 0, money: '0.00', score: 450 },
    ];
    renderFigures(dashboard, { ...figures, walls });
    const table = screen.getByRole('table', { name: 'Survey walls (30 days)' });
    const rows = within(table).getAllByRole('row').map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Wall', 'Credited', 'Reversed', 'Refused', 'Amount (net of reversals)'],
      ['CPX Research', '12', '2', '1', '¥18.40'],
      ['Points router', '3', '0', '0', '450'],
    ]);
  });

  it('speaks Chinese with the Chinese pack and says when there is no survey', () => {
    renderFigures(zhDashboard, { ...figures, topSurveys: [] });
    expect(screen.getByText('转化率（30天）')).toBeTruthy();
    expect(screen.getByText('暂无问卷')).toBeTruthy();
    cleanup();
    renderFigures(zhDashboard, { ...figures, walls: [{ id: 4, name: 'CPX Research', credited: 1, reversed: 0, refused: 0, money: '1.00', score: 0 }] });
    expect(screen.getByRole('table', { name: '问卷墙（30 天）' })).toBeTruthy();
    expect(screen.getByText('金额（扣除撤销）')).toBeTruthy();
  });
});
