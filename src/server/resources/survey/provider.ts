import { isIP } from 'node:net';
import type { Row } from '../../../schema/definition.js';
import { sameText } from '../../../schema/local-text.js';
import { allows } from '../../auth/identity.js';
import type { RequestContext } from '../../http/controller.js';
import { errors, type ApiError } from '../../errors.js';
import { isFinalStatus } from '../../services/survey/participations.js';
import { buildTestReturn, checkTestReturn, TEST_OUTCOMES, type AlgorithmLabels, type TestOutcome } from '../../services/survey/provider-test.js';
import { OUTCOME_PAGES, recipeOf, type ProviderRow } from '../../services/survey/returns.js';
import { providerPresets, presetById } from '../../services/survey/presets.js';
import { parseReversalRule } from '../../services/survey/reversal-rules.js';
import { parseRecipe, type SignatureRecipe } from '../../services/survey/signature-recipe.js';
import { publicOriginOf } from '../../http/public-origin.js';
import type { Operator, ResourceHooks } from '../hooks.js';

/**
 * `survey.Provider`: the secret is sealed before it is stored and never sent back; the exit map must
 * name our outcomes; the allowlist must hold addresses or ranges only. `testReturn` (its own node) builds
 * signed returns for an outcome and checks a pasted one, with the provider's stored secret; for a real
 * attempt only when the admin may also reconcile participations.
 */

const RECONCILE_NODE = 'survey/participation/reconcile';

const ALGORITHM_NAMES = { md5: 'MD5', sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' } as const;

function checkAllowlist(text: string): void {
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
    if (!family || !prefixOk || extra !== undefined) throw errors.invalidAllowlistEntry(entry);
  }
}

/**
 * `POST testReturn {id, mode: "build", outcome, rid?}` answers the signed return URL and callback;
 * `{id, mode: "check", url}` answers whether the pasted URL verifies and, if not, why.
 */
async function testReturn(ctx: RequestContext) {
  if (ctx.method !== 'POST') throw errors.parameterError();
  const id = String(ctx.body.id ?? '');
  if (!/^\d{1,15}$/.test(id)) throw errors.recordNotFound();
  const provider = (await ctx.app.db.selectFrom('survey_provider').selectAll().where('id', '=', Number(id)).executeTakeFirst()) as ProviderRow | undefined;
  if (!provider) throw errors.recordNotFound();
  const secret = provider.secret ? (ctx.app.secrets.open(provider.secret) ?? '') : '';
  const labels: AlgorithmLabels = ({ key, algorithm }) => {
    const name = ALGORITHM_NAMES[algorithm];
    if (key === 'hmac') return sameText(`HMAC-${name.replace('-', '')}`);
    if (key === 'none') return { en: 'No signature', 'zh-cn': '不签名' };
    return key === 'append' ? { en: `${name} with secret appended`, 'zh-cn': `${name}（追加密钥）` } : { en: `${name} with secret prepended`, 'zh-cn': `${name}（前置密钥）` };
  };
  const message = (error: ApiError) => ctx.t(error.msg, error.params);
  const signer = { realAttempts: ctx.identity !== undefined && allows(ctx.identity, RECONCILE_NODE) };
  if (ctx.body.mode === 'check') {
    const check = await checkTestReturn(ctx.app.db, provider, secret, typeof ctx.body.url === 'string' ? ctx.body.url : '', signer, labels);
    return { ...check, problems: check.problems.map(message), warnings: check.warnings.map(message) };
  }
  const outcome = ctx.body.outcome;
  if (!(TEST_OUTCOMES as readonly unknown[]).includes(outcome)) throw errors.providerTestOutcomeInvalid();
  const rid = ctx.body.rid === undefined || ctx.body.rid === '' ? undefined : String(ctx.body.rid);
  return buildTestReturn(provider, secret, outcome as TestOutcome, rid, publicOriginOf(ctx.app, ctx.request), signer);
}

/** The outcome pages a project provider sends members back to, in the order a provider's form lists them. */
const EXIT_PAGES = Object.keys(OUTCOME_PAGES);

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
    addresses.exit_urls = Object.fromEntries(EXIT_PAGES.map((page) => [OUTCOME_PAGES[page], `${origin}/${page}?${String(row.rid_param)}=${macro}`]));
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
      id: preset.id, version: preset.version, kind: preset.kind, title: preset.title[ctx.lang], source: preset.source,
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
      if (!isFinalStatus(outcome) || outcome === 'timeout') throw errors.exitMapInvalid(code);
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
