import { useEffect, useState } from 'react';
import type { PendingCredit, PendingCredits } from '../../../../contract/member-api.js';
import { formatDateTime } from '../../../format/datetime.js';
import { httpClient, type HttpClient } from '../../../http/index.js';
import type { Translate } from '../../../i18n/translate.js';

/**
 * The member's credits still held for a provider's hold period (docs/survey-domain.md#hold-period), not
 * yet in the balance: what is pending in all, beside the balance, and the soonest ones with the day each
 * becomes available (messages: `member/home`).
 */

/** The soonest credits the overview lists; the rest are counted. */
const SHOWN = 5;

async function loadPendingCredits(client: HttpClient = httpClient): Promise<PendingCredits> {
  const answer = await client.request<PendingCredits>('/api/account/pendingCredits', { area: 'user', showErrorMessage: false, params: { page: 1, limit: SHOWN } });
  return answer.data;
}

/** The pending credits once loaded; undefined while loading, or when the call failed (the overview shows none). */
export function usePendingCredits(load: () => Promise<PendingCredits> = loadPendingCredits): PendingCredits | undefined {
  const [pending, setPending] = useState<PendingCredits | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    load().then(
      (loaded) => alive && setPending(loaded),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [load]);
  return pending;
}

/** Whether anything is pending: the overview shows the pending figures only then. */
export function hasPending(pending: PendingCredits | undefined): pending is PendingCredits {
  return pending !== undefined && pending.total > 0;
}

/** An amount as the member reads it: `¥1.50`, or `10 points`. */
function amountText(t: Translate, credit: Pick<PendingCredit, 'kind' | 'money' | 'score'>): string {
  return credit.kind === 'money' ? `¥${credit.money ?? '0.00'}` : t('memberHome.pending.points', { smart_count: credit.score ?? 0 });
}

/** What is pending in all: `¥20.00`, `¥20.00 + 10 points`, or `10 points`. */
export function pendingTotalText(t: Translate, pending: PendingCredits): string {
  const parts: string[] = [];
  if (pending.money !== '0.00' || pending.score === 0) parts.push(`¥${pending.money}`);
  if (pending.score > 0) parts.push(t('memberHome.pending.points', { smart_count: pending.score }));
  return parts.join(' + ');
}

/** When a credit becomes available, on the site's clock, to the minute. */
function availableText(t: Translate, releaseAt: number): string {
  return t('memberHome.pending.availableFrom', { date: formatDateTime(releaseAt, 'yyyy-mm-dd hh:MM') });
}

/** The soonest pending credits, each with its amount, what it is for and the day it becomes available. */
export function PendingCreditList({ t, pending }: { t: Translate; pending: PendingCredits }) {
  const more = pending.total - pending.list.length;
  return (
    <section className="ba-member__pending" aria-labelledby="ba-member-pending-title">
      <h2 id="ba-member-pending-title" className="ba-member__pending-title">
        {t('memberHome.pending.list')}
      </h2>
      <p className="ba-member__pending-hint">{t('memberHome.pending.hint')}</p>
      <ul className="ba-member__pending-list">
        {pending.list.map((credit) => (
          <li key={credit.id} data-testid="pending-credit">
            <strong>{amountText(t, credit)}</strong>
            <span className="ba-member__pending-memo">{credit.memo}</span>
            <time dateTime={new Date(credit.release_at * 1000).toISOString()}>{availableText(t, credit.release_at)}</time>
          </li>
        ))}
      </ul>
      {more > 0 && <p className="ba-member__pending-hint">{t('memberHome.pending.more', { count: more })}</p>}
    </section>
  );
}
