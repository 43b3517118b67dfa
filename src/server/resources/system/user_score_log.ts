import { ledgerLogHooks } from './ledger-log.js';

/** The points ledger (`user.ScoreLog`): entries are added through the ledger service, never edited. */
export const scoreLogHooks = ledgerLogHooks('score');
