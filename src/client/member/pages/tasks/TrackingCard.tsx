import { useTranslate } from 'react-admin';
import { TrackingRecords } from '../../../pages/survey/TrackingPage.js';
import { PageCard } from '../common/PageCard.js';

/** `survey/tracking`: the member's survey attempts and quick task submissions inside the centre. */
export function TrackingCard() {
  const translate = useTranslate();
  return (
    <PageCard title={translate('memberShell.menus.survey/tracking')}>
      <TrackingRecords t={translate} />
    </PageCard>
  );
}
