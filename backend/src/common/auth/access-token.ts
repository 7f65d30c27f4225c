import { sign, verify, VerifyOptions } from 'jsonwebtoken';
import { createSecretKey, KeyObject } from 'node:crypto';
import type { AccessTokenPayload } from './jwt.strategy';

/** Access tokens live 15 minutes; the session behind them is checked on every request anyway. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export function signAccessToken(appSecret: string, payload: AccessTokenPayload): string {
  return sign(payload, accessTokenKey(appSecret), {
    algorithm: 'HS256',
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
  });
}

/**
 * The signing key as a KeyObject, made once per secret: given a string, the JWT library tries to parse it as a
 * public key on every verification before using it as an HMAC secret, which costs measurable CPU per request.
 */
const keys = new Map<string, KeyObject>();
export function accessTokenKey(appSecret: string): KeyObject {
  let key = keys.get(appSecret);
  if (!key) {
    key = createSecretKey(Buffer.from(appSecret, 'utf8'));
    keys.set(appSecret, key);
  }
  return key;
}

export function verifyAccessToken(appSecret: string, token: string, options: VerifyOptions = {}): unknown {
  return verify(token, accessTokenKey(appSecret), { algorithms: ['HS256'], ...options });
}
