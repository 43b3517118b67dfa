import { ledgerLogHooks } from './ledger-log.js';

/** The balance ledger (`user.MoneyLog`): entries are added through the ledger service, never edited. */
export const moneyLogHooks = ledgerLogHooks('money');
