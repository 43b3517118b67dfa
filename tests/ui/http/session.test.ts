// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession, isUserLoggedIn, readAdminInfo, readSession, writeAdminInfo, writeSession, writeUserInfo } from '../../../src/client/http/session.js';

beforeEach(() => localStorage.clear());

describe('sessions in localStorage', () => {
  it('reads empty tokens when nothing (or garbage) is stored', () => {
    expect(readSession('admin')).toEqual({ token: '', refreshToken: '' });
    localStorage.setItem('userInfo', '{not json');
    expect(readSession('user')).toEqual({ token: '', refreshToken: '' });
    localStorage.setItem('userInfo', '[]');
    expect(readSession('user')).toEqual({ token: '', refreshToken: '' });
  });

  it('keeps the admin in adminInfo and the member in userInfo, with the field names of docs/client.md#local-storage', () => {
    writeAdminInfo({ id: 1, username: 'admin', nickname: 'Admin', avatar: '/a.png', last_login_time: '', token: 'a', refresh_token: 'ar', super: true });
    writeSession('user', { token: 'u', refreshToken: 'ur' });
    expect(JSON.parse(localStorage.getItem('adminInfo') ?? '')).toEqual({ id: 1, username: 'admin', nickname: 'Admin', avatar: '/a.png', last_login_time: '', token: 'a', refresh_token: 'ar', super: true });
    expect(JSON.parse(localStorage.getItem('userInfo') ?? '')).toEqual({ token: 'u', refresh_token: 'ur' });
    expect(readSession('admin')).toEqual({ token: 'a', refreshToken: 'ar' });
    expect(readSession('user')).toEqual({ token: 'u', refreshToken: 'ur' });
  });

  it('writeSession patches the tokens only; writeAdminInfo merges', () => {
    writeAdminInfo({ id: 1, username: 'admin', token: 'a', refresh_token: 'ar' });
    writeSession('admin', { token: 'b' });
    writeAdminInfo({ super: true });
    expect(readAdminInfo()).toEqual({ id: 1, username: 'admin', token: 'b', refresh_token: 'ar', super: true });
  });

  it('clearSession forgets one area only', () => {
    writeSession('admin', { token: 'a' });
    writeSession('user', { token: 'u' });
    clearSession('user');
    expect(localStorage.getItem('userInfo')).toBeNull();
    expect(readSession('admin').token).toBe('a');
  });

  it('counts a member as logged in when id and token are both set', () => {
    expect(isUserLoggedIn()).toBe(false);
    writeUserInfo({ token: 't' });
    expect(isUserLoggedIn()).toBe(false);
    writeUserInfo({ id: 3 });
    expect(isUserLoggedIn()).toBe(true);
  });
});
