import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AuthModule } from '../../modules/auth/auth.module';
import { OrganizationsModule } from '../../modules/organizations/organizations.module';
import { StaffModule } from '../../modules/staff/staff.module';
import { UsersModule } from '../../modules/users/users.module';
import { AuthGuard } from './auth.guard';
import { JwtStrategy } from './jwt.strategy';
import { PrincipalCache } from './principal-cache';
import { PrincipalResolver } from './principal.resolver';
import { RateLimitStore } from './rate-limit.store';

/**
 * The auth mechanism every route goes through: one global guard reading @Authenticated. The principal comes from
 * the owners of sessions, users and staff, through their services. UsersModule is re-exported so that any module
 * can ask for the current password (CurrentPassword), and OrganizationsModule so that any module can ask the
 * access policy (AccessPolicy), without importing them. PrincipalCache is here so that every owner of what a
 * principal holds (sessions, users, staff roles) can forget a user at once after its own commit.
 */
@Global()
@Module({
  imports: [PassportModule, AuthModule, UsersModule, StaffModule, OrganizationsModule],
  providers: [
    PrincipalCache,
    PrincipalResolver,
    JwtStrategy,
    RateLimitStore,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [PrincipalCache, PrincipalResolver, RateLimitStore, UsersModule, OrganizationsModule],
})
export class AuthCoreModule {}
