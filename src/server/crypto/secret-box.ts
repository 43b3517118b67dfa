import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets kept at rest (provider signing keys): AES-256-GCM under a key derived from the server's token
 * key, so a copied database alone does not reveal them. Stored as `v1:<iv>.<tag>.<ciphertext>` in base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', serverKey, 'chidao-secret-box', 'stored secrets v1', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1:${[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.')}`;
  }

  /** The plain text, or undefined when the value was not sealed with this key (changed TOKEN_SECRET, tampering). */
  open(sealed: string): string | undefined {
    const [version, rest] = sealed.split(':', 2);
    const parts = rest?.split('.') ?? [];
    if (version !== 'v1' || parts.length !== 3) return undefined;
    try {
      const [iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
