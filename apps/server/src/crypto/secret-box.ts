import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets the panel must show again: domain auth codes and transfer keys, FTP and
 * database passwords ("show password"), the private keys of sites' SSL certificates. The key is
 * derived per purpose from the panel's secret key, so one leaked purpose key opens nothing else. Format: base64url(iv | tag | ciphertext), prefixed with "v1.".
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: Buffer, purpose: string) {
    this.key = createHmac('sha256', secretKey).update(`secret-box:${purpose}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('unknown secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
