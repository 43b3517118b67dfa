// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setMemberBootstrap } from '../../../src/client/member/shell/member-bootstrap.js';
import type { MemberRule } from '../../../src/client/providers/member-bootstrap.js';
import { renderApp } from '../shell/render-app.js';
import { http, ok } from '../shell/support.js';

/** The member centre in Chinese: no English left in its record lists. */

const server = setupServer();

const member = { id: 7, username: 'amy', nickname: 'Amy', email: 'amy@example.com', mobile: '', avatar: '/static/images/avatar.png', gender: 0, birthday: null, money: '12.50', score: 30, join_time: 0, motto: '', last_login_time: 0, last_login_ip: '', token: 'utok', refresh_token: 'uref' };

function rule(id: number, pid: number, name: string, title: string, component = '', type: MemberRule['type'] = 'menu', children?: MemberRule[]): MemberRule {
  return { id, pid, type, title, name, path: name, icon: 'fa fa-circle', menu_type: type === 'menu' ? 'tab' : null, url: '', component, extend: 'none', ...(children ? { children } : {}) };
}

const MENUS: MemberRule[] = [
  rule(1, 0, 'account', '我的账户', '', 'menu_dir', [rule(2, 1, 'account/overview', '账户概览', '/src/views/frontend/user/account/overview.vue'), rule(6, 1, 'account/balance', '余额记录', 'account/balance')]),
];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  // No stored language: the centre speaks the browser's, Chinese here (tests/support/ui-setup.ts).
  localStorage.clear();
  localStorage.setItem('userInfo', JSON.stringify(member));
  setMemberBootstrap(undefined);
  server.use(
    http.get('/api/index/index', () => ok({ site: { siteName: 'Panel', recordNumber: '', version: 'v1', cdnUrl: '' }, openMemberCenter: true, userInfo: member, rules: [], menus: MENUS })),
    http.get('/api/account/getUserData', () => ok({ today: { money: '0.00', completes: 0 }, month: { money: '0.00', completes: 0 }, total: { money: '0.00', completes: 0 }, balance: '12.50', score: 30 })),
    http.get('/api/account/getUserCharts', () => ok({ days: [], money: [], completes: [] })),
    http.get('/api/account/pendingCredits', () => ok({ list: [], total: 0, money: '0.00', score: 0 })),
    http.get('/api/account/balance', () =>
      ok({ list: Array.from({ length: 6 }, (_, index) => ({ id: index + 1, user_id: 7, money: '1.00', before: '0.00', after: '1.00', memo: `问卷奖励：#${index + 1}`, create_time: 0 })), total: 6 }),
    ),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());

describe('member centre in Chinese', () => {
  it('names the page range and the pager’s buttons in Chinese', async () => {
    renderApp('/user/account/balance');
    expect(await screen.findByText('问卷奖励：#6', {}, { timeout: 30_000 })).toBeTruthy();
    expect(screen.getByText('第 1-6 条，共 6 条')).toBeTruthy();
    expect(screen.queryByText(/\bof\b/)).toBeNull();
    const pager = screen.getByText('每页条数：').closest('.MuiTablePagination-root') as HTMLElement;
    expect(within(pager).getByRole('button', { name: '转到下一页' })).toBeTruthy();
    expect(within(pager).getByRole('button', { name: '转到上一页' })).toBeTruthy();
  });

  it('names the previous login on the overview in Chinese, and the first login as such', async () => {
    const site = { siteName: 'Panel', recordNumber: '', version: 'v1', cdnUrl: '', timeZone: 'Asia/Shanghai' };
    // 2026-12-01 06:30:05 UTC: 14:30:05 in Shanghai
    server.use(http.get('/api/index/index', () => ok({ site, openMemberCenter: true, userInfo: member, previousLogin: { time: Date.UTC(2026, 11, 1, 6, 30, 5) / 1000, ip: '203.0.113.5' }, rules: [], menus: MENUS })));
    renderApp('/user/account/overview');
    expect((await screen.findByTestId('stat-lastLogin', {}, { timeout: 30_000 })).textContent).toBe('上次登录2026-12-01 14:30:05，来自 203.0.113.5');
    cleanup();
    setMemberBootstrap(undefined);
    server.use(http.get('/api/index/index', () => ok({ site, openMemberCenter: true, userInfo: member, previousLogin: { time: null, ip: '' }, rules: [], menus: MENUS })));
    renderApp('/user/account/overview');
    expect((await screen.findByTestId('stat-lastLogin')).textContent).toBe('上次登录首次登录');
  });
});
