import { rootCertificates } from 'node:tls';

/** The mail settings of the config screen (group `mail`), as they are used to connect. */
export interface SmtpSettings {
  server: string;
  port: number;
  user: string;
  pass: string;
  /** `SSL`: TLS from the first byte (port 465); `TLS`: plain, then STARTTLS, which must succeed (port 587) */
  verification: 'SSL' | 'TLS';
  sender: string;
}

interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Each step of the SMTP conversation gets this long: the whole request must fit the client's 10 s. */
const STEP_TIMEOUT_MS = 8_000;

/**
 * Send one message through `smtp`; rejects with the mail server's or the network's error. Certificates
 * are checked against the system's authorities plus `trustedCa` (a PEM bundle, `SMTP_CA_FILE`).
 */
export async function sendMail(smtp: SmtpSettings, message: MailMessage, trustedCa?: string): Promise<void> {
  // Loaded on the first message: the mail library is larger than the rest of the server's code, and
  // most processes never send mail.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: smtp.server,
    port: smtp.port,
    secure: smtp.verification === 'SSL',
    requireTLS: smtp.verification === 'TLS',
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
    connectionTimeout: STEP_TIMEOUT_MS,
    greetingTimeout: STEP_TIMEOUT_MS,
    socketTimeout: STEP_TIMEOUT_MS,
    dnsTimeout: STEP_TIMEOUT_MS,
    // a `ca` replaces Node's authorities: keep them, and add the bundle
    tls: trustedCa ? { ca: [...rootCertificates, trustedCa] } : undefined,
  });
  try {
    await transport.sendMail({ from: smtp.sender, to: message.to, subject: message.subject, text: message.text });
  } finally {
    transport.close();
  }
}
