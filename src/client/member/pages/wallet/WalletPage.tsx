import { useTranslate } from 'react-admin';
import { PageCard } from '../common/PageCard.js';
import { Wallet } from './Wallet.js';
import '../../member-home.css';

/** `account/payout`: payment details, a payout request and the payout log. */
export function WalletPage() {
  const translate = useTranslate();
  return (
    <PageCard title={translate('memberHome.wallet.title')} maxWidth={720}>
      <Wallet t={translate} />
    </PageCard>
  );
}
