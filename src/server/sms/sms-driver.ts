import type { Db } from '../db/connection.js';
import type { SmsSettings } from '../settings.js';
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

/** The driver chosen by `SMS_DRIVER`; none when it is not set, and then no code goes by SMS. */
export function smsDriverFor(settings: SmsSettings, db: Db): SmsDriver | undefined {
  switch (settings.driver) {
    case 'aliyun':
      return new AliyunSmsDriver(settings);
    case 'outbox':
      return new OutboxSmsDriver(db);
    case 'none':
      return undefined;
  }
}

/** Where SMS go, for the start-up lines: the outbox, which only development should use, is named as such. */
export function describeSmsDriver(settings: SmsSettings): string {
  switch (settings.driver) {
    case 'aliyun':
      return 'Aliyun Dysms';
    case 'outbox':
      return 'outbox (SMS_DRIVER=outbox, development only: texts are kept in the back office, codes masked, not sent)';
    case 'none':
      return 'none (set SMS_DRIVER to send codes by SMS)';
  }
}
