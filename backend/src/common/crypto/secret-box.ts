import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

/** Encrypts stored secrets (API keys, webhook URLs) with AES-256-GCM under a key derived from APP_SECRET. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = createHash('sha256').update(`secret-box:${appSecret}`).digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  decrypt(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  static isEncrypted(value: string | null | undefined): boolean {
    return typeof value === 'string' && value.startsWith(PREFIX);
  }
}

/** What answers show of a secret: its last 4 characters at most. */
export function maskSecret(plain: string | null | undefined): string | null {
  if (!plain) return plain === '' ? '' : null;
  return '••••••••' + (plain.length > 8 ? plain.slice(-4) : '');
}

export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('••••••••');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
