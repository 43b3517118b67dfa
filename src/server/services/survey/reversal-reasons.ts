import type { Language } from '../../../contract/headers.js';
import { sameText } from '../../../schema/local-text.js';
import type { Messages } from '../../i18n.js';
import { message, readStoredText, storedMessage, storedParam, type StoredParam } from '../../stored-text.js';
import type { ReportedStatus } from '../../../contract/outcomes.js';

/**
 * Why a provider took back what it credited (docs/survey-domain.md#reversals-of-wall-transactions): a
 * reason of ours, stored as a message key (`stored-text.ts`) so each member reads it in their language,
 * and beside it the provider's own words as it sent them (its reason parameter), never translated. The
 * reason of ours comes from the status the reversal carries, through the provider's exit map (PureSpectrum
 * sends the new status beside `oldStatus`, Toluna a reason code): a terminate is "did not qualify", an over
 * quota "already full", a security "quality checks"; anything else, or none, is "reversed by the provider".
 */

/** Our reason for each reported status a reversal can carry but a complete, and for anything else. */
const REASONS: Readonly<Record<Exclude<ReportedStatus, 'complete'> | 'other', string>> = {
  terminate: 'Reversed by the provider: the answers did not qualify',
  overquota: 'Reversed by the provider: the survey was already full',
  security: 'Reversed by the provider: the answers failed its quality checks',
  other: 'Reversed by the provider',
};

const WITH_PROVIDER_WORDS = '%s (the provider says: %s)';

/** The stored reason of a provider's reversal: the message its status maps to (stored text). */
export function providerReversalReason(status: ReportedStatus | undefined): string {
  const reason = status === undefined || status === 'complete' ? REASONS.other : REASONS[status];
  return storedMessage(reason);
}

/** A stored reason and the provider's own words as one parameter of another message (a ledger note). */
export function reasonParam(stored: string, providerWords: string): StoredParam {
  const reason = storedParam(stored);
  return providerWords === '' ? reason : message(WITH_PROVIDER_WORDS, [reason, providerWords]);
}

/** A stored reason in `lang`, followed by the provider's own words when it sent some; '' for none. */
export function reasonText(stored: string, providerWords: string, lang: Language, messages: Messages): string {
  const reason = readStoredText(stored, lang, messages);
  if (providerWords === '') return reason;
  if (reason === '') return providerWords;
  return messages.translator(lang)(WITH_PROVIDER_WORDS, [sameText(reason), sameText(providerWords)]);
}
