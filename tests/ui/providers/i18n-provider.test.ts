// @vitest-environment jsdom
import englishMessages from 'ra-language-english';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import zhReactAdmin from '../../../locales/zh-cn/common/react-admin.json';
import type { Language } from '../../../src/contract/headers.js';
import type { MessagePack } from '../../../src/client/i18n/translate.js';
import { bundledMessages, createI18nProvider, messagesFor } from '../../../src/client/providers/i18n-provider.js';

beforeEach(() => localStorage.clear());

/** Every leaf of a nested message object as [dotted key, text]. */
function leaves(pack: unknown, prefix = ''): [string, string][] {
  return Object.entries(pack as Record<string, unknown>).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[name, value] as [string, string]] : leaves(value, name);
  });
}

const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the zh-cn react-admin pack', () => {
  const english = leaves(englishMessages);
  const chinese = new Map(leaves(zhReactAdmin));

  it('translates every key of ra-language-english, and nothing else', () => {
    expect(english.length).toBeGreaterThan(150);
    expect(english.filter(([key]) => !chinese.has(key)).map(([key]) => key)).toEqual([]);
    const known = new Set(english.map(([key]) => key));
    expect([...chinese.keys()].filter((key) => !known.has(key))).toEqual([]);
  });

  it('keeps the placeholders of each message, in one form where English has plural forms', () => {
    // Polyglot gives Chinese a single plural form (the count is always shown), so a `||||` message
    // becomes one form with %{smart_count} that uses no placeholder English does not offer.
    const broken = english.filter(([key, text]) => {
      const translated = chinese.get(key) ?? '';
      const mine = placeholders(translated);
      // Chinese has no case: `%{field}` stands where English lower-cases it as `%{field_lower_first}`.
      const sameAs = (names: string[]) => names.map((name) => name.replace(/_lower_first$/, '')).join();
      if (!text.includes('||||')) return sameAs(mine) !== sameAs(placeholders(text));
      const offered = new Set(placeholders(text));
      return translated.includes('||||') || !mine.includes('smart_count') || mine.some((name) => !offered.has(name));
    });
    expect(broken.map(([key]) => key)).toEqual([]);
  });

  it('is actually Chinese (not copied English), except messages made of placeholders only', () => {
    const wordy = (text: string) => /[A-Za-z]/.test(text.replace(/%\{\w+\}/g, ''));
    const untranslated = english.filter(([key, text]) => wordy(text) && chinese.get(key) === text).map(([key]) => key);
    expect(untranslated).toEqual([]);
    expect([...chinese.values()].filter((text) => wordy(text) && !/[\u4e00-\u9fff]/.test(text))).toEqual([]);
  });
});

describe('the i18n provider', () => {
  it('speaks zh-cn by default', () => {
    const i18n = createI18nProvider({ reload: vi.fn() });
    expect(i18n.getLocale()).toBe('zh-cn');
    expect(i18n.translate('ra.action.save')).toBe('保存');
    expect(i18n.translate('http.timeout')).toBe('网络请求超时！');
    expect(i18n.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 10, total: 42 })).toBe('第 1-10 条，共 42 条');
    expect(i18n.translate('ra.notification.deleted', { smart_count: 3 })).toBe('已删除 3 项');
    expect(i18n.getLocales?.()).toEqual([
      { locale: 'zh-cn', name: '中文简体' },
      { locale: 'en', name: 'English' },
    ]);
  });

  it('starts in the stored language, and in zh-cn when the stored one is unknown', () => {
    localStorage.setItem('storeConfig_v2', JSON.stringify({ lang: { defaultLang: 'en' } }));
    const english = createI18nProvider({ reload: vi.fn() });
    expect(english.getLocale()).toBe('en');
    expect(english.translate('ra.action.save')).toBe('Save');
    expect(english.translate('http.disconnected')).toBe('You are disconnected!');
    localStorage.setItem('storeConfig_v2', JSON.stringify({ lang: { defaultLang: 'fr' } }));
    expect(createI18nProvider({ reload: vi.fn() }).getLocale()).toBe('zh-cn');
  });

  it('falls back to zh-cn for a key the language lacks, and to the default text or the key otherwise', () => {
    const packs: Record<Language, MessagePack> = { 'zh-cn': { page: { title: '首页', only: '仅中文' } }, en: { page: { title: 'Home' } } };
    expect(messagesFor('en', packs)).toEqual({ page: { title: 'Home', only: '仅中文' } });
    expect(messagesFor('zh-cn', packs)).toEqual(packs['zh-cn']);
    const i18n = createI18nProvider({ reload: vi.fn() });
    expect(i18n.translate('nothing.here', { _: 'Default' })).toBe('Default');
    expect(i18n.translate('nothing.here')).toBe('nothing.here');
  });

  it('loads message files lazily in the current and the fallback language, once', async () => {
    localStorage.setItem('storeConfig_v2', JSON.stringify({ lang: { defaultLang: 'en' } }));
    const files: Record<string, MessagePack> = {
      'zh-cn:admin/dashboard': { dashboard: { title: '控制台', hint: '仅中文' } },
      'en:admin/dashboard': { dashboard: { title: 'Dashboard' } },
    };
    const loadFiles = vi.fn(async (language: Language, names: readonly string[]) => Object.assign({}, ...names.map((name) => files[`${language}:${name}`] ?? {})) as MessagePack);
    const i18n = createI18nProvider({ reload: vi.fn(), loadFiles });
    expect(i18n.translate('dashboard.title')).toBe('dashboard.title');
    await i18n.loadMessages(['admin/dashboard']);
    expect(i18n.translate('dashboard.title')).toBe('Dashboard');
    expect(i18n.translate('dashboard.hint')).toBe('仅中文');
    await i18n.loadMessages(['admin/dashboard']);
    expect(loadFiles.mock.calls).toEqual([
      ['zh-cn', ['admin/dashboard']],
      ['en', ['admin/dashboard']],
    ]);
  });

  it('loads the real chunks through the default loader', async () => {
    const i18n = createI18nProvider({ reload: vi.fn() });
    await i18n.loadMessages(['common/http', 'admin/no-such-file']);
    expect(i18n.translate('http.status.502')).toBe('网关错误！');
  });

  it('switching language stores it in storeConfig_v2 (keeping the layout) and reloads', async () => {
    localStorage.setItem('storeConfig_v2', JSON.stringify({ layout: { layoutMode: 'Classic' }, lang: { defaultLang: 'zh-cn' } }));
    const reload = vi.fn();
    const i18n = createI18nProvider({ reload });
    await i18n.changeLocale('en');
    const stored = JSON.parse(localStorage.getItem('storeConfig_v2') ?? '{}');
    expect(stored.lang.defaultLang).toBe('en');
    expect(stored.layout).toEqual({ layoutMode: 'Classic' });
    expect(reload).toHaveBeenCalledOnce();
    expect(i18n.getLocale()).toBe('en');
    expect(i18n.translate('ra.action.save')).toBe('Save');
    await i18n.changeLocale('en');
    expect(reload).toHaveBeenCalledOnce();
  });

  it('bundles react-admin and http messages for both languages', () => {
    const packs = bundledMessages();
    expect((packs.en.ra as MessagePack).action).toMatchObject({ save: 'Save' });
    expect((packs['zh-cn'].http as MessagePack).operationSuccessful).toBe('操作成功');
  });
});
