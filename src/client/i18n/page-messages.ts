/**
 * The message files each standalone page reads. Kept apart from the pages' code so the router can
 * fetch a page's words beside its code (not after it), and the page renders with its words at once.
 */
export const PAGE_MESSAGES = {
  adminLogin: ['admin/login', 'common/captcha', 'common/pages'],
  memberLogin: ['member/login', 'common/captcha'],
  survey: ['common/survey'],
  status: ['common/pages'],
} as const satisfies Record<string, readonly string[]>;
