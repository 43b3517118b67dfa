import type { ReactElement } from 'react';
import { ChangePasswordPage } from './password/ChangePasswordPage.js';
import { LedgerPage } from './ledger/LedgerPage.js';
import { OverviewPage } from './overview/OverviewPage.js';
import { ProfilePage } from './profile/ProfilePage.js';
import { RankingPage } from './ranking/RankingPage.js';
import { TasksPage } from './tasks/TasksPage.js';
import { TrackingCard } from './tasks/TrackingCard.js';
import { TeamPage } from './team/TeamPage.js';
import { WalletPage } from './wallet/WalletPage.js';

interface MemberPage {
  /** message files below `locales/<lang>/`, loaded with the route */
  messages: readonly string[];
  render(): ReactElement;
}

/**
 * The member centre's pages by name. A `user_rule` menu item names its page in `component`: BuildAdmin's
 * view file where BuildAdmin has that page (`/src/views/frontend/user/account/overview.vue`, read back as
 * `account/overview` by `memberPageNameOf`), else our name (`survey/tasks`). One map serves both.
 */
export const MEMBER_PAGES: Readonly<Record<string, MemberPage>> = {
  'survey/tasks': { messages: ['common/survey'], render: () => <TasksPage /> },
  'survey/tracking': { messages: ['common/survey'], render: () => <TrackingCard /> },
  'survey/ranking': { messages: ['member/ranking'], render: () => <RankingPage /> },
  'account/overview': { messages: ['member/home'], render: () => <OverviewPage /> },
  'account/profile': { messages: ['member/account', 'common/captcha'], render: () => <ProfilePage /> },
  'account/changePassword': { messages: ['member/account'], render: () => <ChangePasswordPage /> },
  'account/balance': { messages: ['member/account'], render: () => <LedgerPage kind="balance" /> },
  'account/integral': { messages: ['member/account'], render: () => <LedgerPage kind="integral" /> },
  'account/payout': { messages: ['member/home'], render: () => <WalletPage /> },
  'team/members': { messages: ['member/team'], render: () => <TeamPage /> },
};
