import { sendEmailCode } from '../../services/code-delivery.js';
import { codeSenderController } from './code-sender.js';

/** `POST /api/Ems/send`: a verification code by mail. */
export const emsController = codeSenderController({ name: 'Ems', deliver: sendEmailCode, sent: 'Mail sent successfully~' });
