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

const MENUS: MemberRule[] = [rule(1, 0, 'account', '我的账户', '', 'menu_dir', [rule(6, 1, 'account/balance', '余额记录', 'account/balance')])];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  // No stored language: the centre speaks its default, Chinese.
  localStorage.clear();
  localStorage.setItem('userInfo', JSON.stringify(member));
  setMemberBootstrap(undefined);
  server.use(
    http.get('/api/index/index', () => ok({ site: { siteName: 'Panel', recordNumber: '', version: 'v1', cdnUrl: '' }, openMemberCenter: true, userInfo: member, rules: [], menus: MENUS })),
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
});
