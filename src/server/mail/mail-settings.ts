import type { AppContext } from '../app-context.js';
import type { SmtpSettings } from './smtp.js';

const NAMES = ['smtp_server', 'smtp_port', 'smtp_user', 'smtp_pass', 'smtp_verification', 'smtp_sender_mail'] as const;

/** The mail settings of the config screen (group `mail`), or undefined while any of them is empty: no mail can go out then. */
export async function configuredSmtp(app: AppContext): Promise<SmtpSettings | undefined> {
  const values = await Promise.all(NAMES.map((name) => app.config.get(name)));
  if (values.some((value) => value.trim() === '')) return undefined;
  const [server, port, user, pass, verification, sender] = values;
  return { server, port: Number(port), user, pass, verification: verification === 'SSL' ? 'SSL' : 'TLS', sender };
}
