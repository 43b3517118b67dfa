import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedColumns, type FieldDefinition, type ResourceDefinition } from '../../src/schema/definition.js';
import { dynamicDb } from '../../src/server/db/connection.js';
import { storedDefault } from '../../src/server/db/values.js';
import { DATABASES, PROJECT_ROOT, startTestServer, type ApiRequest, type TestServer } from '../support/test-server.js';

/**
 * A list carries a related row (`x-ref` with `as`) as its resource lets the operator read it: the key,
 * the label and the `x-ref.fields`, through that resource's presentation; the key alone to an operator
 * who may not read the related resource's list. The same holds for remote selects, searches and the CSV export.
 */

type Row = Record<string, unknown>;
type ListData = { list: Row[]; total: number };
const ADMIN_PASS = 'Refs_pass1';
const MEMBER_PASS = 'Member_pass1';

/** The project's schemas and those of the modules in the catalogue, all loaded at once. */
function schemasWithModules(): { root: string; schemas: string } {
  const root = mkdtempSync(join(tmpdir(), 'chidao-refs-'));
  const schemas = join(root, 'schemas');
  cpSync(join(PROJECT_ROOT, 'schemas'), schemas, { recursive: true });
  for (const module of readdirSync(join(PROJECT_ROOT, 'modules'))) {
    const dir = join(PROJECT_ROOT, 'modules', module, 'schemas');
    if (existsSync(dir)) cpSync(dir, schemas, { recursive: true });
  }
  return { root, schemas };
}

const schemasDir = schemasWithModules();
afterAll(() => rmSync(schemasDir.root, { recursive: true, force: true }));

/** The fields of a resource whose related row its list carries. */
function relationsOf(definition: ResourceDefinition): (FieldDefinition & { ref: NonNullable<FieldDefinition['ref']> })[] {
  return definition.fields.filter((field): field is FieldDefinition & { ref: NonNullable<FieldDefinition['ref']> } => Boolean(field.ref?.as && !field.ref.many && field.storage));
}

describe.each(DATABASES)('references on %s', (kind) => {
  let server: TestServer;
  let superToken: string;
  let serial = 0;
  const db = () => dynamicDb(server.server.app.db);
  const resources = () => [...server.server.app.resources.values()];
  const admin = <T = unknown>(path: string, request: ApiRequest) => server.admin<T>(path, request);

  /** An administrator whose one group holds exactly these permission nodes. */
  async function adminHolding(ruleNames: string[]): Promise<string> {
    const name = `refs${++serial}`;
    const rules = (await db().selectFrom('admin_rule').select(['id', 'name']).where('name', 'in', ruleNames).execute()) as Row[];
    expect(rules.map((rule) => rule.name).sort()).toEqual([...ruleNames].sort());
    const group = await admin('auth.Group/add', { token: superToken, body: { pid: 1, name, rules: rules.map((rule) => rule.id), status: '1' } });
    expect(group.code, group.msg).toBe(1);
    const groupId = ((await db().selectFrom('admin_group').select('id').where('name', '=', name).executeTakeFirstOrThrow()) as Row).id;
    const added = await admin('auth.Admin/add', { token: superToken, body: { username: name, nickname: name, password: ADMIN_PASS, group_arr: [groupId], status: '1' } });
    expect(added.code, added.msg).toBe(1);
    return (await server.loginAdmin(name, ADMIN_PASS)).token;
  }

  /** The node that lets an administrator read a resource's list. */
  const indexNode = (definition: ResourceDefinition) => (definition.menu?.buttons.includes('index') ? `${definition.menu.name}/index` : undefined);

  async function list(definition: ResourceDefinition, token: string, query: Row = {}): Promise<Row[]> {
    const response = await admin<ListData>(`${definition.controller}/index`, { token, query: { limit: 1000, ...query } });
    expect(response.code, `${definition.id}: ${response.msg}`).toBe(1);
    return response.data.list;
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { schemasDir: schemasDir.schemas });
    superToken = (await server.loginAdmin()).token;
  });

  afterAll(async () => {
    await server?.close();
  });

  describe('a team leader seen from the teams list', () => {
    let leaderId: number;
    let teamId: number;
    const SECRETS = ['leader@example.com', '13800138000', 'Secret Bank', 'Hidden Holder', 'Alipay Holder', '1990-05-17', '203.0.113.9'];

    beforeAll(async () => {
      const added = await admin('user.User/add', {
        token: superToken,
        body: { username: 'leader1', nickname: 'Leader One', group_id: 1, password: MEMBER_PASS, email: 'leader@example.com', mobile: '13800138000', birthday: '1990-05-17', bank: 'Secret Bank', bank_name: 'Hidden Holder', zhifubao_name: 'Alipay Holder' },
      });
      expect(added.code, added.msg).toBe(1);
      leaderId = Number(((await db().selectFrom('user').select('id').where('username', '=', 'leader1').executeTakeFirstOrThrow()) as Row).id);
      await db().updateTable('user').set({ last_login_ip: '203.0.113.9', money: 123456 }).where('id', '=', leaderId).execute();
      expect((await admin('team.Team/add', { token: superToken, body: { name: 'Leader team', leader_id: leaderId } })).code).toBe(1);
      teamId = Number(((await db().selectFrom('team').select('id').where('name', '=', 'Leader team').executeTakeFirstOrThrow()) as Row).id);
    });

    const teams = () => server.server.app.resources.get('team/team') as ResourceDefinition;
    const leaderOf = (rows: Row[]) => rows.find((row) => row.id === teamId)?.leader;

    it('shows an admin who may list only teams the leader’s id, nothing of the member', async () => {
      const token = await adminHolding(['team/team/index', 'team/team/export']);
      expect((await admin('user.User/index', { token, query: {} })).code).toBe(401);

      const rows = await list(teams(), token);
      expect(leaderOf(rows)).toEqual({ id: leaderId });
      const selected = await list(teams(), token, { select: 1 });
      expect(leaderOf(selected)).toEqual({ id: leaderId });
      for (const secret of [...SECRETS, 'leader1', 'Leader One', '1234.56']) {
        expect(JSON.stringify(rows)).not.toContain(secret);
        expect(JSON.stringify(selected)).not.toContain(secret);
      }

      const csv = await (await server.raw(`/chidaoadminstator.php/team.Team/export`, { headers: { batoken: token, 'think-lang': 'en' } })).text();
      expect(csv).toContain('Leader team');
      for (const secret of [...SECRETS, 'leader1']) expect(csv).not.toContain(secret);

      // Nor can the member's columns be guessed through a search on the relation.
      for (const field of ['leader.email', 'leader.username', 'leader.mobile']) {
        const searched = await admin<ListData>('team.Team/index', { token, query: { search: [{ field, operator: 'LIKE', val: 'leader' }] } });
        expect(searched.code, field).toBe(0);
        expect(searched.msg).toBe(`Unknown field: ${field}`);
      }
    });

    it('shows an admin who may read members the leader’s username, still no more', async () => {
      const token = await adminHolding(['team/team/index', 'team/team/export', 'user/user/index']);
      expect(leaderOf(await list(teams(), token))).toEqual({ id: leaderId, username: 'leader1' });
      expect(leaderOf(await list(teams(), superToken))).toEqual({ id: leaderId, username: 'leader1' });
      const csv = await (await server.raw(`/chidaoadminstator.php/team.Team/export`, { headers: { batoken: token, 'think-lang': 'en' } })).text();
      expect(csv).toContain('leader1');
      for (const secret of SECRETS) expect(csv).not.toContain(secret);

      const byName = await admin<ListData>('team.Team/index', { token, query: { search: [{ field: 'leader.username', operator: 'LIKE', val: 'leader' }] } });
      expect(byName.code, byName.msg).toBe(1);
      expect(byName.data.list.map((row) => row.id)).toEqual([teamId]);
      const byEmail = await admin('team.Team/index', { token: superToken, query: { search: [{ field: 'leader.email', operator: 'LIKE', val: 'leader' }] } });
      expect(byEmail.code).toBe(0);
    });

    it('quick-searches a member’s ledger by the username only for an admin who may read members', async () => {
      expect((await admin('user.MoneyLog/add', { token: superToken, body: { user_id: leaderId, money: '1.00', memo: 'Bonus' } })).code).toBe(1);
      const logs = server.server.app.resources.get('system/user_money_log') as ResourceDefinition;
      const reader = await adminHolding(['user/moneyLog/index', 'user/user/index']);
      const found = await list(logs, reader, { quickSearch: 'leader1' });
      expect(found.map((row) => row.user)).toEqual([{ id: leaderId, username: 'leader1', nickname: 'Leader One' }]);
      // The same search by an admin who may not read members: the statement is not the one above.
      const logsOnly = await adminHolding(['user/moneyLog/index']);
      expect(await list(logs, logsOnly, { quickSearch: 'leader1' })).toEqual([]);
      expect((await list(logs, logsOnly)).find((row) => row.user_id === leaderId)?.user).toEqual({ id: leaderId });
    });
  });

  describe('the label of a reference, for an admin who may fill it', () => {
    let providerId: number;
    let leaderId: number;
    const PROVIDER_SECRET = 'refs-provider-secret-0123456789';

    beforeAll(async () => {
      const added = await admin('survey.Provider/add', { token: superToken, body: { code: 'refsprov', name: 'Panel Alpha', secret: PROVIDER_SECRET } });
      expect(added.code, added.msg).toBe(1);
      providerId = Number(((await db().selectFrom('survey_provider').select('id').where('code', '=', 'refsprov').executeTakeFirstOrThrow()) as Row).id);
      const member = await admin('user.User/add', { token: superToken, body: { username: 'chooser1', nickname: 'Chooser Nick', group_id: 1, password: MEMBER_PASS, email: 'chooser@example.com' } });
      expect(member.code, member.msg).toBe(1);
      leaderId = Number(((await db().selectFrom('user').select('id').where('username', '=', 'chooser1').executeTakeFirstOrThrow()) as Row).id);
    });

    const select = (controller: string, token: string, query: Row = {}) => admin<ListData>(`${controller}/index`, { token, query: { select: 1, ...query } });

    it('lets an admin who may add surveys choose a provider by name, and read nothing else of it', async () => {
      const token = await adminHolding(['survey/survey/index', 'survey/survey/add', 'survey/survey/edit']);
      const choices = await select('survey.Provider', token);
      expect(choices.code, choices.msg).toBe(1);
      expect(choices.data.list).toContainEqual({ id: providerId, name: 'Panel Alpha' });
      for (const row of choices.data.list) expect(Object.keys(row).sort()).toEqual(['id', 'name']);
      expect(JSON.stringify(choices.data)).not.toContain(PROVIDER_SECRET);
      // Typing a name finds it; typing its code does not (only the label is searched).
      expect((await select('survey.Provider', token, { quickSearch: 'Alpha' })).data.list).toEqual([{ id: providerId, name: 'Panel Alpha' }]);
      expect((await select('survey.Provider', token, { quickSearch: 'refsprov' })).data.list).toEqual([]);
      // The form's current value is named (not "#id").
      expect((await select('survey.Provider', token, { initKey: 'id', initValue: [providerId] })).data.list).toEqual([{ id: providerId, name: 'Panel Alpha' }]);
      // Other columns cannot be searched or looked up by, and the list itself stays closed.
      expect((await select('survey.Provider', token, { initKey: 'secret', initValue: [PROVIDER_SECRET] })).code).toBe(0);
      expect((await admin('survey.Provider/index', { token, query: {} })).code).toBe(401);
      expect((await admin('survey.Provider/edit', { token, query: { id: providerId } })).code).toBe(401);

      // The survey it adds with that provider lists the provider by name.
      const survey = await admin('survey.Survey/add', { token, body: { provider_id: providerId, title: 'Chosen provider', entry_url: 'https://panel.example/s?r={rid}', loi_minutes: 5 } });
      expect(survey.code, survey.msg).toBe(1);
      const rows = (await admin<ListData>('survey.Survey/index', { token, query: { limit: 100 } })).data.list;
      expect(rows.find((row) => row.title === 'Chosen provider')?.provider).toEqual({ id: providerId, name: 'Panel Alpha' });
    });

    it('gives an admin who may only list surveys the provider’s key, and no choices', async () => {
      const token = await adminHolding(['survey/survey/index']);
      expect((await select('survey.Provider', token)).code).toBe(401);
      const rows = (await admin<ListData>('survey.Survey/index', { token, query: { limit: 100 } })).data.list;
      expect(rows.find((row) => row.title === 'Chosen provider')?.provider).toEqual({ id: providerId });
    });

    it('lets an admin who may add teams pick a leader by username, never reading the member’s other columns', async () => {
      const token = await adminHolding(['team/team/index', 'team/team/add']);
      const choices = await select('user.User', token, { quickSearch: 'chooser1' });
      expect(choices.code, choices.msg).toBe(1);
      expect(choices.data.list).toEqual([{ id: leaderId, username: 'chooser1' }]);
      // A member is not found by another column (the nickname, the email) than the label.
      expect((await select('user.User', token, { quickSearch: 'Chooser Nick' })).data.list).toEqual([]);
      expect((await select('user.User', token, { search: [{ field: 'email', operator: 'LIKE', val: 'chooser' }] })).data.list.length).toBeGreaterThan(0);
      const everyone = await select('user.User', token, { limit: 1000 });
      for (const row of everyone.data.list) expect(Object.keys(row).sort()).toEqual(['id', 'username']);
      expect(JSON.stringify(everyone.data)).not.toContain('chooser@example.com');
      expect((await admin('user.User/index', { token, query: {} })).code).toBe(401);
    });
  });

  describe('every schema with a relation', () => {
    /** One row in the resource's table, every column at its default, unique ones distinct, `values` over them. */
    async function insertRow(definition: ResourceDefinition, values: Row = {}): Promise<unknown> {
      const row: Row = {};
      for (const field of definition.fields) {
        if (!field.storage || field.name === definition.primaryKey) continue;
        const distinct = field.storage.type === 'bigint' ? 900_000 + ++serial : `walk${++serial}`;
        row[field.name] = field.name in values ? values[field.name] : field.unique ? distinct : storedDefault(field);
      }
      const inserted = (await db().insertInto(definition.table).values(row).returning(definition.primaryKey).executeTakeFirstOrThrow()) as Row;
      return inserted[definition.primaryKey];
    }

    /** For each resource with relations: the id of a row of it that names a row of every related resource. */
    const walked = new Map<string, { id: unknown; keys: Map<string, unknown> }>();

    beforeAll(async () => {
      const listed = resources().filter((definition) => definition.controller && relationsOf(definition).length > 0);
      // A row of every related resource to point at: one already there, or a new one.
      const targets = new Map<string, unknown>();
      for (const definition of listed) {
        for (const field of relationsOf(definition)) {
          if (targets.has(field.ref.resource)) continue;
          const related = server.server.app.resources.get(field.ref.resource) as ResourceDefinition;
          const existing = (await db().selectFrom(related.table).select(field.ref.key).limit(1).executeTakeFirst()) as Row | undefined;
          const key = existing ? existing[field.ref.key] : await insertRow(related);
          targets.set(field.ref.resource, key);
        }
      }
      for (const definition of listed) {
        const relations = relationsOf(definition);
        const keys = new Map(relations.map((field) => [field.name, targets.get(field.ref.resource)]));
        walked.set(definition.id, { id: await insertRow(definition, Object.fromEntries(keys)), keys });
      }
    });

    it('walks the schemas of the project and of the modules', () => {
      expect([...walked.keys()].sort()).toEqual(expect.arrayContaining(['team/team', 'system/user', 'user/payout', 'survey/participation', 'faq/question', 'feedback/ticket', 'announcement/notice']));
    });

    it('embeds only the key, the label and x-ref.fields, in lists and remote selects', async () => {
      for (const [id, { id: rowId }] of walked) {
        const definition = server.server.app.resources.get(id) as ResourceDefinition;
        for (const select of [undefined, 1]) {
          const row = (await list(definition, superToken, select ? { select } : {})).find((item) => String(item[definition.primaryKey]) === String(rowId));
          expect(row, `${id} lists its row`).toBeDefined();
          for (const field of relationsOf(definition)) {
            const embedded = row?.[field.ref.as as string] as Row;
            const related = server.server.app.resources.get(field.ref.resource) as ResourceDefinition;
            const hidden = related.fields.filter((item) => item.writeOnly).map((item) => item.name);
            expect(Object.keys(embedded).sort(), `${id} → ${field.ref.as}`).toEqual(embeddedColumns(field.ref).sort());
            expect(Object.keys(embedded).filter((name) => hidden.includes(name))).toEqual([]);
          }
        }
      }
    });

    it('embeds only the key for an admin who may not read the related resource', async () => {
      let checked = 0;
      for (const [id, { id: rowId, keys }] of walked) {
        const definition = server.server.app.resources.get(id) as ResourceDefinition;
        const node = indexNode(definition);
        if (!node) continue;
        checked += 1;
        const token = await adminHolding([node]);
        const row = (await list(definition, token)).find((item) => String(item[definition.primaryKey]) === String(rowId));
        for (const field of relationsOf(definition)) {
          const expected = field.ref.resource === id ? Object.keys(row?.[field.ref.as as string] as Row).sort() : [field.ref.key];
          expect(Object.keys(row?.[field.ref.as as string] as Row).sort(), `${id} → ${field.ref.as}`).toEqual(expected.sort());
          if (field.ref.resource === id) continue;
          expect(row?.[field.ref.as as string], `${id} → ${field.ref.as}`).toEqual({ [field.ref.key]: keys.get(field.name) });
          // The label of a related row it may not read cannot be searched for either.
          const searched = await admin(`${definition.controller}/index`, { token, query: { search: [{ field: `${field.ref.as}.${field.ref.label}`, operator: 'LIKE', val: 'a' }] } });
          expect(searched.code, `${id} searched by ${field.ref.as}.${field.ref.label}`).toBe(0);
        }
      }
      expect(checked).toBe(walked.size);
    });

    it('names the administrator behind a participation event only to one who may list administrators', async () => {
      const participations = server.server.app.resources.get('survey/participation') as ResourceDefinition;
      const participationId = walked.get('survey/participation')?.id;
      const reader = await adminHolding(['survey/participation/index', 'auth/admin/index']);
      const readerRow = (await db().selectFrom('admin').select(['id', 'nickname']).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()) as Row;
      const readerId = Number(readerRow.id);
      const events = server.server.app.resources.get('survey/participation_event') as ResourceDefinition;
      for (const adminId of [1, readerId]) await insertRow(events, { participation_id: participationId, admin_id: adminId });
      const eventsFor = async (token: string) => ((await list(participations, token)).find((row) => String(row.id) === String(participationId))?.events as Row[]).map((event) => [event.admin_id, event.admin_name]);
      expect(await eventsFor(superToken)).toEqual([[1, 'Admin'], [readerId, readerRow.nickname]]);
      // The super administrator is outside this reader's data limit on administrators: not named either.
      expect(await eventsFor(reader)).toEqual([[1, ''], [readerId, readerRow.nickname]]);
      expect(await eventsFor(await adminHolding(['survey/participation/index']))).toEqual([[1, ''], [readerId, '']]);
    });

    it('searches a relation only by what the list carries', async () => {
      for (const [id] of walked) {
        const definition = server.server.app.resources.get(id) as ResourceDefinition;
        for (const field of relationsOf(definition)) {
          const related = server.server.app.resources.get(field.ref.resource) as ResourceDefinition;
          const search = (column: string) => admin(`${definition.controller}/index`, { token: superToken, query: { search: [{ field: `${field.ref.as}.${column}`, operator: '=', val: '1' }] } });
          for (const column of embeddedColumns(field.ref).filter((name) => related.fields.find((item) => item.name === name)?.storage)) {
            const answer = await search(column);
            expect(answer.code, `${id} by ${field.ref.as}.${column}: ${answer.msg}`).toBe(1);
          }
          const other = related.fields.find((item) => item.storage && !embeddedColumns(field.ref).includes(item.name));
          if (other) expect((await search(other.name)).code, `${id} by ${field.ref.as}.${other.name}`).toBe(0);
        }
      }
    });
  });
});
