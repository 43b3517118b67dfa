import { serverPack } from './merge.js';

/** The en server pack: one chunk, fetched by server-messages.ts when a screen first needs it. */
export const pack = serverPack(import.meta.glob<Record<string, string>>('../../../../locales/en/server/*.json', { eager: true, import: 'default' }));
