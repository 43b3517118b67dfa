import { nowSeconds } from '../clock.js';
import type { Db } from '../db/connection.js';
import type { SmsDriver, SmsMessage } from './sms-message.js';

/** How a code (any template parameter) reads in the outbox. */
const MASK = '••••';

/**
 * For development only (`SMS_DRIVER=outbox`): messages land in `sms_outbox`, which super admins read in
 * the back office (routine.SmsOutbox), instead of being sent. The codes are masked: whoever reads the
 * outbox must not be able to use a code meant for a member's phone.
 */
export class OutboxSmsDriver implements SmsDriver {
  readonly sends = false;
  readonly route = 'outbox';

  constructor(private readonly db: Db) {}

  async send(message: SmsMessage): Promise<void> {
    const secrets = Object.values(message.params).filter((value) => value !== '');
    const content = secrets.reduce((text, secret) => text.replaceAll(secret, MASK), message.content);
    await this.db
      .insertInto('sms_outbox')
      .values({ mobile: message.mobile, template_code: message.templateCode, content: content.slice(0, 500), create_time: nowSeconds() })
      .execute();
  }
}
