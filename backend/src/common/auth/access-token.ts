import { sign } from 'jsonwebtoken';
import type { AccessTokenPayload } from './jwt.strategy';

/** Access tokens live 15 minutes; the session behind them is checked on every request anyway. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export function signAccessToken(appSecret: string, payload: AccessTokenPayload): string {
  return sign(payload, appSecret, { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_SECONDS });
}
