import { expect } from 'vitest';
import { dynamicDb } from '../../src/server/db/connection.js';
import type { TestServer } from './test-server.js';

const LIMITED_PASSWORD = 'Limited_pass1';
let serial = 0;

/**
 * A new administrator whose one group holds exactly these permission nodes (rule names), signed in:
 * its token. Each call makes a group and an administrator of their own.
 */
export async function adminHolding(server: TestServer, superToken: string, ruleNames: string[]): Promise<string> {
  const name = `held${++serial}x${Date.now() % 100_000}`;
  const db = dynamicDb(server.server.app.db);
  const rules = (await db.selectFrom('admin_rule').select(['id', 'name']).where('name', 'in', ruleNames).execute()) as { id: number; name: string }[];
  expect(rules.map((rule) => rule.name).sort()).toEqual([...ruleNames].sort());
  const group = await server.admin('auth.Group/add', { token: superToken, body: { pid: 1, name, rules: rules.map((rule) => rule.id), status: '1' } });
  expect(group.code, group.msg).toBe(1);
  const { id: groupId } = (await db.selectFrom('admin_group').select('id').where('name', '=', name).executeTakeFirstOrThrow()) as { id: number };
  const added = await server.admin('auth.Admin/add', { token: superToken, body: { username: name, nickname: name, password: LIMITED_PASSWORD, group_arr: [groupId], status: '1' } });
  expect(added.code, added.msg).toBe(1);
  return (await server.loginAdmin(name, LIMITED_PASSWORD)).token;
}
