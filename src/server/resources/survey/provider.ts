import { isIP } from 'node:net';
import type { Row } from '../../../schema/definition.js';
import { sameText } from '../../../schema/local-text.js';
import { allows } from '../../auth/identity.js';
import type { RequestContext } from '../../http/controller.js';
import { errors, type ApiError } from '../../errors.js';
import { isFinalStatus } from '../../services/survey/participations.js';
import { buildTestReturn, checkTestReturn, TEST_OUTCOMES, type AlgorithmLabels, type TestOutcome } from '../../services/survey/provider-test.js';
import type { ProviderRow } from '../../services/survey/returns.js';
import type { ResourceHooks } from '../hooks.js';

/**
 * `survey.Provider`: the secret is sealed before it is stored and never sent back; the exit map must
 * name our outcomes; the allowlist must hold addresses or ranges only. `testReturn` (its own node) builds
 * signed returns for an outcome and checks a pasted one, with the provider's stored secret; for a real
 * attempt only when the admin may also reconcile participations.
 */

const RECONCILE_NODE = 'survey/participation/reconcile';

function checkAllowlist(text: string): void {
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
    if (!family || !prefixOk || extra !== undefined) throw errors.invalidAllowlistEntry(entry);
  }
}

/** This site as the browser reached it, for the addresses the test tool builds. */
function originOf(ctx: RequestContext): string {
  const host = String(ctx.request.headers.host ?? `${ctx.app.settings.host}:${ctx.app.settings.port}`);
  return `${ctx.request.protocol}://${host}`;
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
  const algorithmField = ctx.controller.resource?.fields.find((field) => field.name === 'sig_algo');
  const labels: AlgorithmLabels = (algorithm) => algorithmField?.ui.options?.[algorithm] ?? sameText(algorithm);
  const message = (error: ApiError) => ctx.t(error.msg, error.params);
  const signer = { realAttempts: ctx.identity !== undefined && allows(ctx.identity, RECONCILE_NODE) };
  if (ctx.body.mode === 'check') {
    const check = await checkTestReturn(ctx.app.db, provider, secret, typeof ctx.body.url === 'string' ? ctx.body.url : '', signer, labels);
    return { ...check, problems: check.problems.map(message), warnings: check.warnings.map(message) };
  }
  const outcome = ctx.body.outcome;
  if (!(TEST_OUTCOMES as readonly unknown[]).includes(outcome)) throw errors.providerTestOutcomeInvalid();
  const rid = ctx.body.rid === undefined || ctx.body.rid === '' ? undefined : String(ctx.body.rid);
  return buildTestReturn(provider, secret, outcome as TestOutcome, rid, originOf(ctx), signer);
}

export const providerHooks: ResourceHooks = {
  actions: { testReturn },
  async beforeWrite(operator, write) {
    const { values, existing } = write;
    const exitMap = values.exit_map as Row | undefined;
    for (const [code, outcome] of Object.entries(exitMap ?? {})) {
      if (!isFinalStatus(outcome) || outcome === 'timeout') throw errors.exitMapInvalid(code);
    }
    if (typeof values.ip_allowlist === 'string') checkAllowlist(values.ip_allowlist);
    const algorithm = values.sig_algo ?? existing?.sig_algo ?? 'hmac_sha256';
    const secret = typeof values.secret === 'string' ? values.secret : '';
    if (secret !== '') values.secret = operator.app.secrets.seal(secret);
    else delete values.secret;
    const hasSecret = secret !== '' || Boolean(existing?.secret);
    if (algorithm !== 'none' && !hasSecret) throw errors.providerSecretRequired();
  },
};
