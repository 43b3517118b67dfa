import type { Db } from '../db/connection.js';
import type { SmsSettings } from '../settings.js';
import { AliyunSmsDriver } from './aliyun-driver.js';
import { OutboxSmsDriver } from './outbox-driver.js';
import type { SmsDriver } from './sms-message.js';

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
