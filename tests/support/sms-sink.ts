import type { SmsDriver, SmsMessage } from '../../src/server/sms/sms-message.js';

/**
 * Texts kept in memory instead of being sent: give it to `startTestServer(kind, { sms: sink })` and read
 * what a member's phone would show, code included (the product's outbox masks codes).
 */
export class SmsSink implements SmsDriver {
  readonly messages: SmsMessage[] = [];
  readonly sends = true;
  readonly route = 'test sink';
  /** set to make every send fail with this reason, as a refusing SMS service would */
  failure: string | undefined;

  async send(message: SmsMessage): Promise<void> {
    if (this.failure !== undefined) throw new Error(this.failure);
    this.messages.push(message);
  }

  /** The last text sent to `mobile`; fails the test when none was. */
  last(mobile: string): SmsMessage {
    const message = this.messages.findLast((item) => item.mobile === mobile);
    if (!message) throw new Error(`no SMS was sent to ${mobile}`);
    return message;
  }
}
