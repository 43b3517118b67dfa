import { DEFAULT_ADMIN_ENTRANCE, type Language } from './headers.js';
import { OUTCOME_PAGES } from './outcomes.js';

/**
 * The standalone pages the client loads on their own (not inside the back office or member centre):
 * their addresses, their module (relative to `src/client`) and the message files they read. The
 * client router fetches a page's words beside its code; the server announces both in the HTML it
 * answers for the address, so they download beside the app's entry instead of after it.
 */
interface StandalonePage {
  readonly paths: readonly string[];
  readonly module: string;
  readonly messages: readonly string[];
}

/** What every survey page reads: its own words, and the member menu's (its bar offers the member centre's menu). */
const SURVEY_MESSAGES = ['common/survey', 'member/shell'] as const;

export const STANDALONE_PAGES = {
  adminLogin: { paths: [`${DEFAULT_ADMIN_ENTRANCE}/login`], module: 'admin/login/AdminLoginPage.tsx', messages: ['admin/login', 'common/captcha', 'common/pages'] },
  memberLogin: { paths: ['/user/login'], module: 'member/login/MemberLoginPage.tsx', messages: ['member/login', 'common/captcha'] },
  outcome: { paths: OUTCOME_PAGES.map((page) => `/${page}`), module: 'pages/survey/OutcomePage.tsx', messages: SURVEY_MESSAGES },
  interface: { paths: ['/interface'], module: 'pages/survey/InterfacePage.tsx', messages: SURVEY_MESSAGES },
  // The form's date field reads its words (`dateInput.*`) from common/http.
  quickTask: { paths: ['/quicktask'], module: 'pages/survey/QuickTaskPage.tsx', messages: [...SURVEY_MESSAGES, 'common/http'] },
  tracking: { paths: ['/tracking'], module: 'pages/survey/TrackingPage.tsx', messages: SURVEY_MESSAGES },
  status: { paths: ['/404', '/401'], module: 'pages/StatusPage.tsx', messages: ['common/pages'] },
} as const satisfies Record<string, StandalonePage>;

/**
 * The renderer of the first views of some standalone pages (src/client/first-paint.tsx), built for Node
 * beside the client: its path relative to the client's build directory.
 */
export const FIRST_PAINT_MODULE = 'server/first-paint.js';

/** The standalone pages with a first view painted by the server. */
export const FIRST_PAINT_PAGES = ['adminLogin', 'memberLogin', 'outcome'] as const satisfies readonly (keyof typeof STANDALONE_PAGES)[];
export type FirstPaintPage = (typeof FIRST_PAINT_PAGES)[number];

/**
 * The `<meta name>` under which the server writes the site's name (`site_name`) into every page it
 * answers, read by the client from the first paint (src/client/components/site-identity.ts).
 */
export const SITE_NAME_META = 'application-name';

/** A page's first view, as the renderer gives it to the server. */
export interface FirstPaint {
  /** the page's markup, for inside the app's root element */
  html: string;
  /** the document title the page sets */
  title: string;
}

/** What the module at FIRST_PAINT_MODULE exports: the view of a page at `path` (with `search`) in a language, for a site of that name. */
export type RenderFirstPaint = (page: FirstPaintPage, path: string, search: string, language: Language, siteName: string) => Promise<FirstPaint>;
