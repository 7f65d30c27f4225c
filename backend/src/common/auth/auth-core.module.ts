import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AuthGuard } from './auth.guard';
import { CurrentPassword } from './current-password';
import { JwtStrategy } from './jwt.strategy';
import { PrincipalResolver } from './principal.resolver';
import { RateLimitStore } from './rate-limit.store';

/** The auth mechanism every route goes through: one global guard reading @Authenticated. */
@Global()
@Module({
  imports: [PassportModule],
  providers: [
    PrincipalResolver,
    JwtStrategy,
    CurrentPassword,
    RateLimitStore,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [PrincipalResolver, CurrentPassword, RateLimitStore],
})
export class AuthCoreModule {}
