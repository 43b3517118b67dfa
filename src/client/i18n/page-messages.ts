import { STANDALONE_PAGES } from '../../contract/standalone-pages.js';

/** The message files each standalone page reads (one list per page, shared with the server's preloading). */
export const PAGE_MESSAGES = {
  adminLogin: STANDALONE_PAGES.adminLogin.messages,
  memberLogin: STANDALONE_PAGES.memberLogin.messages,
  survey: STANDALONE_PAGES.outcome.messages,
  quickTask: STANDALONE_PAGES.quickTask.messages,
  status: STANDALONE_PAGES.status.messages,
} as const;
