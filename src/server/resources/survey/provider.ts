import type { RequestContext, Operator, ResourceHooks } from '../../app-context.js';
import { isIP } from 'node:net';
import type { Row } from '../../../schema/definition.js';
import { allows } from '../../auth/identity.js';
import type { AdminNode } from '../../../generated/permission-nodes.js';
import { errors, type ApiError } from '../../errors.js';
import { isReportedStatus, OUTCOME_PAGE_OF, REPORTED_STATUSES } from '../../../contract/outcomes.js';
import type { ToolBuildInput, ToolRequest } from '../../../contract/provider-tool.js';
import { nowSeconds } from '../../clock.js';
import { buildTest, checkTest, sendTest, TEST_OUTCOMES, type CallbackAnswer, type ToolProvider } from '../../services/survey/provider-test.js';
import { recipeOf, type ProviderRow } from '../../services/survey/returns.js';
import { providerPresets, presetById } from '../../services/survey/presets.js';
import { parseReversalRule } from '../../services/survey/reversal-rules.js';
import { parseRecipe, type SignatureRecipe } from '../../services/survey/signature-recipe.js';
import { publicOriginOf } from '../../http/public-origin.js';
import { isOneOf } from '../../../contract/checks.js';

/**
 * `survey.Provider`: the secret is sealed before it is stored and never sent back; the exit map must
 * name our outcomes; the allowlist must hold addresses or ranges only. `testReturn` (its own node) is the
 * hash calculator: it builds signed returns and callbacks for an outcome, checks a pasted request and sends
 * a test callback, with the provider's stored recipe and secret; for a real attempt or member only when the
 * admin may also reconcile participations.
 */

const RECONCILE_NODE: AdminNode = 'survey/participation/reconcile';

function checkAllowlist(text: string): void {
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
    if (!family || !prefixOk || extra !== undefined) throw errors.invalidAllowlistEntry(entry);
  }
}

/** What `testReturn` was asked to build or send: the outcome and the ids the admin typed (blank: new test ones). */
function buildInputOf(body: Row): ToolBuildInput {
  const outcome = body.outcome;
  if (!isOneOf(TEST_OUTCOMES, outcome)) throw errors.providerTestOutcomeInvalid();
  const given = (name: string) => {
    const value = body[name];
    if (value === undefined || value === null) return undefined;
    const text = String(value).trim();
    return text === '' ? undefined : text;
  };
  const input: ToolBuildInput = { outcome: outcome };
  for (const name of ['rid', 'member', 'amount', 'transaction'] as const) {
    const value = given(name);
    if (value !== undefined) input[name] = value;
  }
  return input;
}

/**
 * The test callback sent through this server's own callback address (fastify's `inject`: the whole request
 * path, hooks and all, without a network round trip). It comes from an address the provider's allowlist
 * admits, as the provider's server would, so the allowlist neither refuses it nor logs it as a stranger.
 */
async function injectCallback(ctx: RequestContext, provider: ProviderRow, request: ToolRequest): Promise<CallbackAnswer> {
  const url = new URL(request.url);
  const allowed = provider.ip_allowlist.split(/[\s,]+/).find(Boolean)?.split('/')[0];
  try {
    const response = await ctx.request.server.inject({
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers: { ...request.headers, host: url.host, 'think-lang': ctx.lang },
      ...(request.body !== '' ? { payload: request.body } : {}),
      remoteAddress: allowed ?? '127.0.0.1',
    });
    return { status: response.statusCode, contentType: String(response.headers['content-type'] ?? ''), body: response.body.slice(0, 4000) };
  } catch {
    throw errors.providerTestSendFailed();
  }
}

/**
 * `POST testReturn {id, mode, …}`, the provider test tool (services/survey/provider-test.ts):
 * - `{mode: "build", outcome, rid? | member?, amount?, transaction?}`: the signed return URL and callback;
 * - `{mode: "check", url, method?, headers?, body?}`: whether the pasted request verifies and, if not, why;
 * - `{mode: "send", outcome, …}`: the test callback sent through our callback address, and its answer.
 */
async function testReturn(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const id = String(ctx.body.id ?? '');
  if (!/^\d{1,15}$/.test(id)) throw errors.recordNotFound();
  const row = await ctx.app.db.selectFrom('survey_provider').selectAll().where('id', '=', Number(id)).executeTakeFirst();
  if (!row) throw errors.recordNotFound();
  const message = (error: ApiError) => ctx.t(error.msg, error.params);
  const tool: ToolProvider = {
    row,
    recipe: recipeOf(row),
    secret: row.secret ? (ctx.app.secrets.open(row.secret) ?? '') : '',
    origin: publicOriginOf(ctx.app, ctx.request),
    signer: { realAttempts: ctx.identity !== undefined && allows(ctx.identity, RECONCILE_NODE) },
    now: nowSeconds(),
  };
  if (ctx.body.mode === 'check') {
    const text = (name: string) => (typeof ctx.body[name] === 'string' ? ctx.body[name] : undefined);
    const check = await checkTest(ctx.app.db, tool, { url: text('url') ?? '', method: text('method'), headers: text('headers'), body: text('body') });
    return { ...check, problems: check.problems.map(message), warnings: check.warnings.map(message) };
  }
  const input = buildInputOf(ctx.body);
  if (ctx.body.mode === 'send') {
    // Injected, the request reaches the endpoint over plain HTTP with this request's host.
    const origin = ctx.app.settings.publicUrl || `http://${ctx.request.host}`;
    return sendTest({ ...tool, origin }, input, (request) => injectCallback(ctx, row, request));
  }
  const built = buildTest(tool, input);
  return { ...built, notes: built.notes.map(message) };
}

/** This site's public origin for the addresses a provider's row shows (`PUBLIC_URL`, else the request's). */
function originFor(operator: Operator): string {
  return operator.request ? publicOriginOf(operator.app, operator.request) : operator.app.settings.publicUrl;
}

/**
 * The addresses to hand to the provider: its callback, and for a project provider one exit URL per outcome
 * with the provider's own respondent-id macro where our rid goes (`{rid}` when it names none).
 */
function providerAddresses(origin: string, row: Row): Row {
  const code = encodeURIComponent(String(row.code ?? ''));
  const addresses: Row = { callback_url: `${origin}/api/survey/callback/${code}` };
  if (row.kind === 'project') {
    const macro = String(row.exit_placeholder || '{rid}');
    // One per outcome page a project provider sends members back to, in the order a provider's form lists them.
    addresses.exit_urls = Object.fromEntries(REPORTED_STATUSES.map((status) => [status, `${origin}/${OUTCOME_PAGE_OF[status]}?${String(row.rid_param)}=${macro}`]));
  }
  return addresses;
}

/** Columns a preset fills (its `fields`), for the ones the request leaves out. */
function fillFromPreset(values: Row, presetId: unknown): void {
  const preset = typeof presetId === 'string' ? presetById(presetId) : undefined;
  if (!preset) throw errors.unknownPreset();
  if (!('kind' in values)) values.kind = preset.kind;
  for (const [name, value] of Object.entries(preset.fields)) if (!(name in values)) values[name] = value;
}

/** `GET presets`: every preset with its kind, the public document it follows, and the columns it fills. */
async function presets(ctx: RequestContext) {
  return {
    list: providerPresets().map((preset) => ({
      id: preset.id, version: preset.version, kind: preset.kind, title: preset.title[ctx.lang], source: { ...preset.source, document: preset.source.document[ctx.lang] },
      notes: preset.notes?.[ctx.lang] ?? '', fields: preset.fields,
    })),
  };
}

export const providerHooks: ResourceHooks = {
  actions: { testReturn, presets },
  // The presets are reference data: whoever may open the provider list may read them.
  permissions: { presets: ['index'] },
  async present(operator, rows, view) {
    if (view !== 'edit') return rows;
    const origin = originFor(operator);
    return rows.map((row) => ({ ...row, ...providerAddresses(origin, row) }));
  },
  async beforeWrite(operator, write) {
    const { values, existing } = write;
    // Choosing a preset (on add, or a different one on edit) fills the columns the request leaves out.
    if ('preset' in values && (write.mode === 'add' || values.preset !== existing?.preset)) fillFromPreset(values, values.preset);
    const exitMap = values.exit_map as Row | undefined;
    for (const [code, outcome] of Object.entries(exitMap ?? {})) {
      if (!isReportedStatus(outcome)) throw errors.exitMapInvalid(code);
    }
    if (typeof values.ip_allowlist === 'string') checkAllowlist(values.ip_allowlist);
    if ('signature' in values) values.signature = parseRecipe(values.signature);
    if ('reversal' in values) values.reversal = parseReversalRule(values.reversal);
    const kind = values.kind ?? existing?.kind ?? 'project';
    const wallUrl = String(values.wall_url ?? existing?.wall_url ?? '');
    if (kind === 'wall' && !(wallUrl.includes('{member}') && /^https?:\/\/\S+$/i.test(wallUrl))) throw errors.wallUrlInvalid();
    const recipe = (values.signature as SignatureRecipe | undefined) ?? (existing ? recipeOf(existing as ProviderRow) : undefined);
    const secret = typeof values.secret === 'string' ? values.secret : '';
    if (secret !== '') values.secret = operator.app.secrets.seal(secret);
    else delete values.secret;
    const hasSecret = secret !== '' || Boolean(existing?.secret);
    if (recipe?.key !== 'none' && !hasSecret) throw errors.providerSecretRequired();
  },
};
