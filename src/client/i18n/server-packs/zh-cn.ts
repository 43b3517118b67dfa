import { serverPack } from './merge.js';

/** The zh-cn server pack: one chunk, fetched by server-messages.ts when a screen first needs it. */
export const pack = serverPack(import.meta.glob<Record<string, string>>('../../../../locales/zh-cn/server/*.json', { eager: true, import: 'default' }));
