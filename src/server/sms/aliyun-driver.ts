import { createHmac, randomUUID } from 'node:crypto';
import type { SmsSettings } from '../settings.js';
import type { SmsDriver, SmsMessage } from './sms-message.js';

const TIMEOUT_MS = 8_000;

/** RFC 3986 encoding as Aliyun's RPC signature wants it: `~` kept, space as `%20`, `*` `'` `(` `)` `!` encoded. */
function aliyunEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Signature v1.0 of an RPC call: HMAC-SHA1 with `<secret>&` over `METHOD&%2F&<encoded sorted query>`, base64. */
function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  const query = Object.keys(params)
    .sort()
    .map((key) => `${aliyunEncode(key)}=${aliyunEncode(params[key])}`)
    .join('&');
  const stringToSign = `${method}&${aliyunEncode('/')}&${aliyunEncode(query)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
}

/** Aliyun Dysms `SendSms` (API version 2017-05-25), signed GET request. */
export class AliyunSmsDriver implements SmsDriver {
  readonly sends = true;
  readonly route: string;

  constructor(private readonly settings: SmsSettings) {
    this.route = ['aliyun', settings.aliyunEndpoint, settings.aliyunAccessKeyId, settings.aliyunSignName].join('\n');
  }

  async send(message: SmsMessage): Promise<void> {
    const params: Record<string, string> = {
      AccessKeyId: this.settings.aliyunAccessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      RegionId: 'cn-hangzhou',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
      PhoneNumbers: message.mobile,
      SignName: this.settings.aliyunSignName,
      TemplateCode: message.providerTemplate || message.templateCode,
      TemplateParam: JSON.stringify(message.params),
    };
    const signature = aliyunSignature('GET', params, this.settings.aliyunAccessKeySecret);
    const url = new URL(this.settings.aliyunEndpoint);
    for (const [key, value] of Object.entries({ Signature: signature, ...params })) url.searchParams.set(key, value);
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await response.text();
    let body: { Code?: string; Message?: string };
    try {
      body = JSON.parse(text) as { Code?: string; Message?: string };
    } catch {
      throw new Error(`Dysms answered HTTP ${response.status} without JSON`);
    }
    // Dysms answers HTTP 200 with Code "OK" on success; anything else carries its reason in Message
    if (!response.ok || body.Code !== 'OK') throw new Error(`Dysms refused: ${body.Code ?? response.status} ${body.Message ?? ''}`.trim());
  }
}
