import type { PayoutAnswer, PayoutRecord, PayoutRequest, TaggedPage, WalletState } from '../../../../contract/member-api.js';
import { httpClient, type HttpClient } from '../../../http/index.js';

/** The member's payment details, payout requests and payment log (`/api/paymentuser/*`, `account/paymentlog`). */

export type { PaymentDetails, PaymentMethod, PayoutRecord, WalletState } from '../../../../contract/member-api.js';

export interface WalletApi {
  details(): Promise<WalletState>;
  /** answers the server's message */
  saveDetails(values: Record<string, string>): Promise<string>;
  /** the server's message and the balance left (yuan) */
  requestPayout(amount: string): Promise<{ message: string; balance: string }>;
  payouts(page: number, limit: number): Promise<TaggedPage<PayoutRecord>>;
}

export function createWalletApi(client: HttpClient = httpClient): WalletApi {
  const quiet = { area: 'user' as const, showErrorMessage: false };
  return {
    async details() {
      return (await client.request<WalletState>('/api/paymentuser/payment', quiet)).data;
    },
    async saveDetails(values) {
      return (await client.request('/api/paymentuser/payment', { ...quiet, method: 'POST', data: values })).msg;
    },
    async requestPayout(amount) {
      const data: PayoutRequest = { amount };
      const answer = await client.request<PayoutAnswer>('/api/paymentuser/payout', { ...quiet, method: 'POST', data });
      return { message: answer.msg, balance: answer.data.balance };
    },
    async payouts(page, limit) {
      return (await client.request<TaggedPage<PayoutRecord>>('/api/account/paymentlog', { ...quiet, params: { page, limit } })).data;
    },
  };
}

export const walletApi: WalletApi = createWalletApi();
