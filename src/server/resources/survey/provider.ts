import { isIP } from 'node:net';
import type { Row } from '../../../schema/definition.js';
import { errors } from '../../errors.js';
import { isFinalStatus } from '../../services/survey/participations.js';
import type { ResourceHooks } from '../hooks.js';

/**
 * `survey.Provider`: the secret is sealed before it is stored and never sent back; the exit map must
 * name our outcomes; the allowlist must hold addresses or ranges only.
 */

function checkAllowlist(text: string): void {
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
    if (!family || !prefixOk || extra !== undefined) throw errors.invalidAllowlistEntry(entry);
  }
}

export const providerHooks: ResourceHooks = {
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
