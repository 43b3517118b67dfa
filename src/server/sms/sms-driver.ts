import type { AppContext } from '../app-context.js';
import { AliyunSmsDriver } from './aliyun-driver.js';
import { OutboxSmsDriver } from './outbox-driver.js';

/** One text message: the template it was made from, its parameters and its rendered text. */
export interface SmsMessage {
  mobile: string;
  /** our template's code (`sms_template.template_code`) */
  templateCode: string;
  /** the provider's template ID (`sms_template.provider_template`), '' when the provider needs none */
  providerTemplate: string;
  params: Record<string, string>;
  content: string;
}

/** Where SMS go; rejects when the message could not be handed over. */
export interface SmsDriver {
  send(message: SmsMessage): Promise<void>;
}

/** The driver chosen by `SMS_DRIVER`. */
export function smsDriver(app: AppContext): SmsDriver {
  return app.settings.sms.driver === 'aliyun' ? new AliyunSmsDriver(app.settings.sms) : new OutboxSmsDriver(app.db);
}
