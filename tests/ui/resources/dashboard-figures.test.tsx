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
  });

  it('speaks Chinese with the Chinese pack and says when there is no survey', () => {
    renderFigures(zhDashboard, { ...figures, topSurveys: [] });
    expect(screen.getByText('转化率（30天）')).toBeTruthy();
    expect(screen.getByText('暂无问卷')).toBeTruthy();
  });
});
