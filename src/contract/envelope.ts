import type { BusinessCode } from './codes.js';

/** Every handled API response: `{code, msg, time, data}` over HTTP 200. */
export interface Envelope<T = unknown> {
  code: BusinessCode;
  msg: string;
  /** Unix seconds of the request. */
  time: number;
  data: T;
}

export interface ListData<T> {
  list: T[];
  total: number;
  remark: string;
}

export function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'code' in value && 'msg' in value;
}
