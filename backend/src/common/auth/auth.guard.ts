import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { STAFF_SCOPE_CONFIRM_HEADER, WIDGET_VISITOR_TOKEN_PREFIX } from '@avatar-studio/contracts';
import { APP_ENV, type AppEnv } from '../../config/env';
import { verifyVisitorToken } from './visitor-token';
import { DomainError, badInput, forbidden, unauthorized } from '../errors/domain-error';
import { API_KEY_PREFIX } from './api-key';
import { ACCESS_RULE, AccessRule } from './authenticated.decorator';
import { can, hasOrgRole, hasStaffRole } from './permissions';
import type { AuthenticatedRequest, Principal } from './principal';
import { PrincipalResolver } from './principal.resolver';
import { AccessPolicy } from '../../modules/organizations/access-policy';
import { isDatabaseUnavailable } from '../../database/resilient-pg';
import { MAX_ID } from '../http/id-param';

export { API_KEY_PREFIX };

/**
 * The one guard: reads the @Authenticated rule, authenticates the bearer (JWT through passport-jwt, or a
 * personal API key), resolves the `?organization_id=` scope, then checks staff and organization roles.
 */
@Injectable()
export class AuthGuard extends PassportAuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: PrincipalResolver,
    private readonly policy: AccessPolicy,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const rule =
      this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
        context.getHandler(),
        context.getClass(),
      ]) ?? {};
    const req = context.switchToHttp().getRequest<Request & AuthenticatedRequest>();
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

    // A chat widget visitor's token opens the widget's visitor routes and nothing else, public routes included.
    if (bearer?.startsWith(WIDGET_VISITOR_TOKEN_PREFIX) || rule.widgetVisitor) {
      if (!rule.widgetVisitor)
        throw unauthorized('A chat widget visitor token cannot call this route.', 'widget_token_refused');
      const visitor = bearer ? verifyVisitorToken(this.env.appSecret, bearer) : null;
      if (!visitor)
        throw unauthorized('The chat session has ended. Please reload the page.', 'widget_token_invalid');
      req.visitor = Object.freeze(visitor);
      return true;
    }

    if (!bearer) {
      if (rule.public) return true;
      throw unauthorized();
    }
    try {
      if (bearer.startsWith(API_KEY_PREFIX)) {
        const principal = await this.resolver.fromApiKey(bearer);
        if (!principal) throw unauthorized('The API key is not valid.', 'invalid_api_key');
        req.principal = principal;
      } else {
        await super.canActivate(context);
        req.principal = req.user as Principal;
      }
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err;
      // A public route still answers to a caller whose token is bad; it just treats them as anonymous.
      if (rule.public) return true;
      throw err;
    }

    let principal = req.principal!;
    if (principal.twoFactorEnrolmentRequired && !rule.twoFactorEnrolment && !rule.public) {
      throw forbidden(
        'Staff admins must set up two-factor sign-in first: open Settings and add an authenticator app.',
        'two_factor_enrolment_required',
      );
    }
    const rawOrg = req.query?.organization_id;
    if (rawOrg !== undefined && rawOrg !== '' && rawOrg !== 'null') {
      const id = Number(rawOrg);
      if (!Number.isInteger(id) || id < 1 || id > MAX_ID)
        throw badInput('organization_id must be a positive whole number.');
      const org = await this.policy.scope(
        principal,
        id,
        req.headers[STAFF_SCOPE_CONFIRM_HEADER] === String(id),
      );
      principal = { ...principal, org };
    }
    // Resolved once here; nothing after the guard can change who is calling or in which scope.
    req.principal = Object.freeze(principal);
    if (rule.staff && !hasStaffRole(principal.staffRole, rule.staff)) throw forbidden();
    if (
      rule.permission &&
      !can({ staffRole: principal.staffRole, orgRole: principal.org?.role ?? null }, rule.permission)
    ) {
      throw forbidden();
    }
    if (rule.orgRole) {
      if (!principal.org) throw badInput('organization_id is required.', 'organization_required');
      if (!hasOrgRole(principal.org.role, rule.orgRole)) throw forbidden();
    }
    return true;
  }

  /** Maps passport's outcome to our errors: an expired token has its own code, so the UI signs out. */
  override handleRequest<T>(err: unknown, user: T, info: unknown): T {
    if (err instanceof DomainError) throw err;
    // An unreachable database is not a bad token: the caller gets 503 and tries again.
    if (isDatabaseUnavailable(err)) throw err;
    if (user) return user;
    if (info instanceof Error && info.name === 'TokenExpiredError') {
      throw unauthorized('Your session has expired, please sign in again.', 'token_expired');
    }
    throw unauthorized('Your session is not valid, please sign in again.', 'invalid_token');
  }
}
