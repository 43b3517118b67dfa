import { LANGUAGES, type Language } from '../../contract/headers.js';
import { LANGUAGE_NAMES, storeLanguage } from '../i18n/store-config.js';

/**
 * Language links for the standalone pages. Choosing one stores it and reloads (docs/client.md#languages), so every
 * message pack and the `think-lang` header follow.
 */
export function LanguageSwitch({ current, className = '', reload = () => window.location.reload() }: { current: Language; className?: string; reload?: () => void }) {
  return (
    <nav className={`ba-lang-switch ${className}`} aria-label="Language">
      {LANGUAGES.map((language: Language) => (
        <button
          key={language}
          type="button"
          lang={language}
          aria-pressed={language === current}
          className={language === current ? 'is-active' : ''}
          onClick={() => {
            if (language === current) return;
            storeLanguage(language);
            reload();
          }}
        >
          {LANGUAGE_NAMES[language]}
        </button>
      ))}
    </nav>
  );
}
