import type { Language } from '../../contract/headers.js';
import { httpClient, type HttpClient } from '../http/index.js';
import { isUserLoggedIn } from '../http/session.js';
import { storeLanguage } from '../i18n/store-config.js';

/**
 * The member picks a language in a member page's language menu. A signed-in member's choice is kept on
 * the server first (`POST /api/account/language`), so the texts and mails sent to them later speak it;
 * then the choice is stored here and the page reloads in it. A choice the server could not keep (the
 * connection lost) still changes the page: the next login keeps the language again.
 */
export async function chooseLanguage(language: Language, client: HttpClient = httpClient, reload: () => void = () => window.location.reload()): Promise<void> {
  if (isUserLoggedIn()) {
    await client.request('/api/account/language', { area: 'user', method: 'POST', data: { lang: language }, showErrorMessage: false }).catch(() => undefined);
  }
  storeLanguage(language);
  reload();
}
