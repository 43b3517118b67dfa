import { centsToYuan } from '../../../../contract/money.js';
import type { PointsExchangeAnswer, PointsExchangeRequest, PointsExchangeState } from '../../../../contract/member-api.js';
import { httpClient, type HttpClient } from '../../../http/index.js';

/** The points page's exchange of points for balance (`/api/account/pointsExchange`, `exchangePoints`). */

export type { PointsExchangeAnswer, PointsExchangeState } from '../../../../contract/member-api.js';

export interface PointsExchangeApi {
  state(): Promise<PointsExchangeState>;
  /** answers the server's message; `requestId` names this exchange, so a doubled submit is applied once */
  exchange(points: string, requestId: string): Promise<string>;
}

function createPointsExchangeApi(client: HttpClient = httpClient): PointsExchangeApi {
  const quiet = { area: 'user' as const, showErrorMessage: false };
  return {
    async state() {
      return (await client.request<PointsExchangeState>('/api/account/pointsExchange', quiet)).data;
    },
    async exchange(points, requestId) {
      const data: PointsExchangeRequest = { points, request_id: requestId };
      return (await client.request<PointsExchangeAnswer>('/api/account/exchangePoints', { ...quiet, method: 'POST', data })).msg;
    },
  };
}

export const pointsExchangeApi: PointsExchangeApi = createPointsExchangeApi();

/** A new exchange's id: 32 hex digits (works on a plain-HTTP site, where `crypto.randomUUID` does not). */
export function newRequestId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The yuan that `points` make at `rate` points a yuan, exactly, or undefined when they make no whole cents. */
export function yuanOf(points: string, rate: number): string | undefined {
  if (!/^\d{1,10}$/.test(points.trim()) || rate < 1) return undefined;
  const hundredths = Number(points.trim()) * 100;
  if (hundredths % rate !== 0) return undefined;
  const cents = hundredths / rate;
  return centsToYuan(cents);
}
