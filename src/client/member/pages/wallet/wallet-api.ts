import { httpClient, type HttpClient } from '../../../http/index.js';
import type { RecordsPage } from '../common/RecordTable.js';

/** The member's payment details, payout requests and payment log (`/api/paymentuser/*`, `account/paymentlog`). */

export type PaymentMethod = 'bank' | 'alipay';

interface PaymentDetails {
  payment: PaymentMethod | '';
  bank: string;
  bank_name: string;
  bank_address: string;
  /** masked */
  bank_num: string;
  zhifubao_name: string;
  /** masked */
  zhifubao: string;
}

export interface PayoutRecord {
  id: number;
  amount: string;
  method: PaymentMethod;
  status: 'pending' | 'approved' | 'paid' | 'rejected';
  reason: string;
  reference: string;
  /** masked */
  account: string;
  create_time: number;
  paid_time: number | null;
}

/** What the payouts page starts from (`GET /api/paymentuser/payment`). */
export interface WalletState {
  /** saved as they are shown: account numbers masked, sent back unchanged they keep the saved number */
  details: PaymentDetails;
  /** yuan strings */
  balance: string;
  minimum: string;
  /** each method's fields, all required */
  fields: Record<PaymentMethod, string[]>;
}

export interface WalletApi {
  details(): Promise<WalletState>;
  /** answers the server's message */
  saveDetails(values: Record<string, string>): Promise<string>;
  requestPayout(amount: string): Promise<string>;
  payouts(page: number, limit: number): Promise<RecordsPage<PayoutRecord>>;
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
      return (await client.request('/api/paymentuser/payout', { ...quiet, method: 'POST', data: { amount } })).msg;
    },
    async payouts(page, limit) {
      return (await client.request<RecordsPage<PayoutRecord>>('/api/account/paymentlog', { ...quiet, params: { page, limit } })).data;
    },
  };
}

export const walletApi: WalletApi = createWalletApi();
