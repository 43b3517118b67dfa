import { sql } from 'kysely';
import type { Row } from '../../schema/definition.js';
import { nowSeconds } from '../clock.js';
import type { RequestContext } from '../controllers/controller.js';

/** `password`, `smtp_pass`, `salt`, `refreshToken`, `client_secret`…: masked in the admin log */
const SECRET_KEY = /pass|salt|token|secret/i;

/** Request data for the log with every key that looks like a secret replaced by `***`. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Row).map(([key, item]) => [key, SECRET_KEY.test(key) ? '***' : maskSecrets(item)]));
  }
  return value;
}

/** Admin writes (POST/DELETE) are logged, except reads that happen to be POSTs and logout (§5.9). */
export function shouldLog(ctx: RequestContext): boolean {
  return ctx.area === 'admin' && (ctx.method === 'POST' || ctx.method === 'DELETE') && !['select', 'index', 'logout'].includes(ctx.action);
}

async function titleOf(ctx: RequestContext): Promise<string> {
  if (ctx.logTitle) return ctx.logTitle;
  const path = ctx.controller.path.toLowerCase();
  const rows = (await ctx.app.db
    .selectFrom('admin_rule')
    .select(['name', 'title'])
    .where(sql`lower(name)`, 'in', [path, `${path}/${ctx.action}`])
    .execute()) as { name: string; title: string }[];
  const menu = rows.find((row) => row.name.toLowerCase() === path);
  const button = rows.find((row) => row.name.toLowerCase() === `${path}/${ctx.action}`);
  if (menu && button) return `${menu.title}-${button.title}`;
  return menu?.title ?? `Unknown(${ctx.action})`;
}

export async function writeAdminLog(ctx: RequestContext): Promise<void> {
  const identity = ctx.identity?.area === 'admin' ? ctx.identity : undefined;
  const username = identity?.username ?? (typeof ctx.params.username === 'string' ? ctx.params.username : 'Unknown');
  await ctx.app.db
    .insertInto('admin_log')
    .values({
      admin_id: identity?.id ?? 0,
      username: username.slice(0, 20),
      url: ctx.request.url.slice(0, 1500),
      title: (await titleOf(ctx)).slice(0, 100),
      data: JSON.stringify(maskSecrets(ctx.params)),
      ip: ctx.ip.slice(0, 50),
      useragent: ctx.userAgent.slice(0, 255),
      create_time: nowSeconds(),
    })
    .execute();
}
