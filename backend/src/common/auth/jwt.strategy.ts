import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_ENV, AppEnv } from '../../config/env';
import { unauthorized } from '../errors/domain-error';
import type { Principal } from './principal';
import { PrincipalResolver } from './principal.resolver';
import { accessTokenKey } from './access-token';

export interface AccessTokenPayload {
  sub: number;
  sid: string;
}

/** Verifies the bearer JWT (HS256, APP_SECRET) and checks that its session is still open. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_ENV) env: AppEnv,
    private readonly resolver: PrincipalResolver,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // passport-jwt hands the key to jsonwebtoken, which takes a KeyObject (see accessTokenKey).
      secretOrKey: accessTokenKey(env.appSecret) as unknown as string,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(payload: AccessTokenPayload): Promise<Principal> {
    if (typeof payload.sub !== 'number' || typeof payload.sid !== 'string') throw unauthorized();
    const principal = await this.resolver.fromSession(payload.sub, payload.sid);
    if (!principal) throw unauthorized('Your session has ended, please sign in again.', 'session_ended');
    return principal;
  }
}
