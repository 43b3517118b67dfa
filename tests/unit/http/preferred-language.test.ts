// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { acceptedLanguageTags, preferredLanguage } from '../../../src/contract/headers.js';
import { currentLanguage, storeLanguage } from '../../../src/client/i18n/store-config.js';
import { setLayout } from '../../../src/client/shell/layout-store.js';
import { detectLanguage } from '../../../src/server/i18n.js';

/** With no stored choice, the client, the first paint and the API speak the language the browser prefers. */

function browserPrefers(...languages: string[]): void {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  Object.defineProperty(navigator, 'language', { value: languages[0] ?? '', configurable: true });
}

afterEach(() => {
  localStorage.clear();
  browserPrefers('zh-CN', 'zh');
});

describe('the language a browser prefers', () => {
  it('takes the first tag of a language the site speaks, else Chinese', () => {
    expect(preferredLanguage(['en-US', 'en'])).toBe('en');
    expect(preferredLanguage(['zh-Hans-CN'])).toBe('zh-cn');
    expect(preferredLanguage(['fr-FR', 'en-GB', 'zh-CN'])).toBe('en');
    expect(preferredLanguage(['fr-FR'])).toBe('zh-cn');
    expect(preferredLanguage(['english'])).toBe('zh-cn');
  });

  it('reads an Accept-Language header by its weights', () => {
    expect(acceptedLanguageTags('en-US,en;q=0.9,zh-CN;q=0.8')).toEqual(['en-US', 'en', 'zh-CN']);
    expect(acceptedLanguageTags('zh-CN;q=0.5, en;q=0.9, *;q=0.1, de;q=0')).toEqual(['en', 'zh-CN']);
    expect(detectLanguage(undefined, undefined, 'fr;q=1, en-GB;q=0.7')).toBe('en');
    expect(detectLanguage(undefined, undefined, 'en;q=0.2, zh-TW;q=0.8')).toBe('zh-cn');
    // a language asked for by the client wins over the browser's preference
    expect(detectLanguage('zh-cn', undefined, 'en-US')).toBe('zh-cn');
    expect(detectLanguage(undefined, undefined, undefined)).toBe('zh-cn');
  });

  it('is the client’s language until the visitor chooses one, which then wins', () => {
    browserPrefers('en-US', 'en');
    expect(currentLanguage()).toBe('en');
    // saving a layout preference is no choice of language: it keeps following the browser
    setLayout({ isDark: true });
    browserPrefers('zh-CN');
    expect(currentLanguage()).toBe('zh-cn');
    storeLanguage('en');
    expect(currentLanguage()).toBe('en');
    expect(document.cookie).toContain('think-lang=en');
  });
});
