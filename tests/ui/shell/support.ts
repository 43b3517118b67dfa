import { http, HttpResponse } from 'msw';
import { vi } from 'vitest';
import enHttp from '../../../locales/en/common/http.json';
import { createHttpClient } from '../../../src/client/http/http-client.js';
import { PROJECT_DEFINITIONS, PROJECT_SCHEMA_PAGES } from '../../support/definitions.js';
import { createTranslate } from '../../../src/client/i18n/translate.js';
import type { AdminBootstrap, MenuRule } from '../../../src/client/providers/admin-bootstrap.js';

export const ADMIN_API = '/chidaoadminstator.php';

export function ok(data: unknown, msg = '') {
  return HttpResponse.json({ code: 1, msg, time: 0, data });
}

export function fail(msg: string, code = 0, data: unknown = null) {
  return HttpResponse.json({ code, msg, time: 0, data });
}

/** An http client as the app wires it, with spies for its navigate/notify. */
export function testClient(path = '/chidaoadminstator/login') {
  const navigate = vi.fn();
  const notify = vi.fn();
  const client = createHttpClient({ navigate, notify, translate: createTranslate(enHttp), currentPath: () => path });
  return { client, navigate, notify };
}

/** Use English messages, so assertions read like the UI. */
export function useEnglish(): void {
  localStorage.setItem('storeConfig_v2', JSON.stringify({ lang: { defaultLang: 'en', fallbackLang: 'zh-cn', langArray: [] } }));
}

export const PUZZLE = {
  id: 'puzzle-1',
  text: ['<circle>', '<triangle>'],
  base64: 'data:image/png;base64,iVBORw0KGgo=',
  width: 350,
  height: 200,
};

/** `getBoundingClientRect` of every `<img>`: jsdom lays nothing out. */
export function imagesRenderedAt(rect: { left: number; top: number; width: number; height: number }) {
  return vi.spyOn(HTMLImageElement.prototype, 'getBoundingClientRect').mockReturnValue({
    ...rect,
    x: rect.left,
    y: rect.top,
    right: rect.left + rect.width,
    bottom: rect.top + rect.height,
    toJSON: () => rect,
  } as DOMRect);
}

function rule(partial: Partial<MenuRule> & Pick<MenuRule, 'id' | 'name'>): MenuRule {
  return {
    pid: 0,
    type: 'menu',
    title: partial.name,
    path: partial.type === 'button' ? '' : partial.name,
    icon: 'fa fa-circle-o',
    menu_type: partial.type === 'button' || partial.type === 'menu_dir' ? null : 'tab',
    url: '',
    component: '',
    keepalive: 0,
    extend: 'none',
    ...partial,
  };
}

/**
 * A small rule tree: a dashboard, a directory with two schema screens (and their buttons), a nested directory, a link and an iframe menu.
 * Pages are named by BuildAdmin's view paths, except one by a schema `$id` as older versions stored it.
 */
export function sampleMenus(): MenuRule[] {
  return [
    rule({ id: 1, name: 'dashboard', title: 'Console', component: '/src/views/backend/dashboard.vue', icon: 'fa fa-dashboard', children: [rule({ id: 2, pid: 1, type: 'button', name: 'dashboard/index', title: 'View' })] }),
    rule({
      id: 3,
      name: 'auth',
      type: 'menu_dir',
      title: 'Permissions',
      icon: 'fa fa-group',
      children: [
        rule({ id: 4, pid: 3, name: 'auth/admin', title: 'Administrators', component: '/src/views/backend/auth/admin/index.vue', children: [rule({ id: 5, pid: 4, type: 'button', name: 'auth/admin/add', title: 'Add button' })] }),
        rule({ id: 6, pid: 3, name: 'auth/adminLog', title: 'Admin logs', component: 'system/admin_log' }),
        rule({
          id: 7,
          pid: 3,
          name: 'auth/deep',
          type: 'menu_dir',
          title: 'Deeper',
          children: [rule({ id: 8, pid: 7, name: 'routine/adminInfo', title: 'My profile', component: 'routine/adminInfo' })],
        }),
        rule({ id: 9, pid: 3, name: 'auth/empty', type: 'menu_dir', title: 'Empty directory' }),
      ],
    }),
    rule({ id: 10, name: 'docs', title: 'Documentation', menu_type: 'link', url: 'https://doc.example.com' }),
    rule({ id: 11, name: 'status', title: 'Status page', menu_type: 'iframe', url: 'https://status.example.com' }),
    rule({ id: 12, name: 'moduleStore/moduleStore', title: 'Module store', component: 'moduleStore' }),
  ];
}

export function sampleBootstrap(menus = sampleMenus()): AdminBootstrap {
  return {
    adminInfo: { id: 1, username: 'admin', nickname: 'Admin', avatar: '/static/images/avatar.png', last_login_time: '2024-06-01 10:00:00', super: true },
    menus,
    definitions: PROJECT_DEFINITIONS,
    schemaPages: PROJECT_SCHEMA_PAGES,
    siteConfig: {
      siteName: 'Test Site',
      version: 'v1.0.0',
      cdnUrl: '',
      apiUrl: 'https://buildadmin.com',
      upload: { maxSize: 10485760, saveName: '', allowedSuffixes: 'jpg,png', allowedMimeTypes: [], mode: 'local' },
    },
    terminal: { phpDevelopmentServer: false, npmPackageManager: 'npm' },
  };
}

export { http };
