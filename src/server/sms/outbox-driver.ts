import { nowSeconds } from '../clock.js';
import type { Db } from '../db/connection.js';
import type { SmsDriver, SmsMessage } from './sms-driver.js';

/** For local use: messages land in `sms_outbox`, which the back office lists (routine.SmsOutbox). */
export class OutboxSmsDriver implements SmsDriver {
  constructor(private readonly db: Db) {}

  async send(message: SmsMessage): Promise<void> {
    await this.db
      .insertInto('sms_outbox')
      .values({ mobile: message.mobile, template_code: message.templateCode, content: message.content.slice(0, 500), create_time: nowSeconds() })
      .execute();
  }
}
