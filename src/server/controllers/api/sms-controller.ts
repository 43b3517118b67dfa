import { sendSmsCode } from '../../services/code-delivery.js';
import { codeSenderController } from './code-sender.js';

/** `POST /api/Sms/send {mobile, template_code, event}`: a verification code by SMS, through `SMS_DRIVER`. */
export const smsController = codeSenderController({ name: 'Sms', deliver: sendSmsCode, sent: 'SMS sent successfully' });
