import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 (implicit TLS with a fresh self-signed certificate) that keeps every
 * mail it is given. Point the product at it with `SMTP_CA_FILE: sink.caFile` and the config values of
 * `sinkConfig(sink)`.
 */

export interface Mail {
  to: string[];
  raw: string;
}

export interface MailSink {
  port: number;
  mails: Mail[];
  /** the certificate to trust, as a PEM file */
  caFile: string;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const certDir = mkdtempSync(join(tmpdir(), 'chidao-mail-ca-'));
  const caFile = join(certDir, 'ca.pem');
  writeFileSync(caFile, pems.cert);
  const mails: Mail[] = [];
  const smtp = new SMTPServer({
    secure: true,
    key: pems.private,
    cert: pems.cert,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    caFile,
    async close() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      rmSync(certDir, { recursive: true, force: true });
    },
  };
}

/** The `mail` group of the config, pointing at the sink. */
export function sinkConfig(sink: Pick<MailSink, 'port'>): Record<string, string> {
  return {
    smtp_server: '127.0.0.1',
    smtp_port: String(sink.port),
    smtp_user: 'mailer',
    smtp_pass: 'secret',
    smtp_verification: 'SSL',
    smtp_sender_mail: 'panel@example.com',
  };
}

/** A raw mail's text body decoded (base64 or quoted-printable, as a mailer picks for the text); other text as it is. */
function decodedBody(text: string): string {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return text;
  const headers = text.slice(0, split);
  const body = text.slice(split + 4);
  if (/^Content-Transfer-Encoding:\s*base64/im.test(headers)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/^Content-Transfer-Encoding:\s*quoted-printable/im.test(headers)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_whole, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return text;
}

/** The code in a mail or SMS body ("…: AB3D"), in either language. */
export function codeIn(text: string): string {
  const match = /(?:code is|验证码是)[:：]\s*([2-8A-Z]{4})/.exec(decodedBody(text));
  if (!match) throw new Error(`no code in ${text}`);
  return match[1];
}
