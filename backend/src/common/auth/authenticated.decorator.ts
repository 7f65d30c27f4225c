import { SetMetadata, applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { OrgRole, StaffRole } from './permissions';
import type { AuthenticatedRequest, Principal } from './principal';

export interface AccessRule {
  /** Anyone, signed in or not (the principal is still set when a valid token is sent). */
  public?: boolean;
  /** At least this staff role. */
  staff?: StaffRole;
  /** At least this role in the organization named by `?organization_id=` (required then). */
  orgRole?: OrgRole;
  /** Open to a staff admin who must enrol a second factor first (enrolment itself, the profile, sign-out). */
  twoFactorEnrolment?: boolean;
}

export const ACCESS_RULE = 'access-rule';

/**
 * The one auth decorator. `@Authenticated()` = any signed-in user; `@Authenticated({ staff: 'admin' })`;
 * `@Authenticated({ orgRole: 'Manager' })`; `@Authenticated({ public: true })`. Routes without it are
 * treated as `@Authenticated()`. Services still check access on the resource itself.
 */
export function Authenticated(rule: AccessRule = {}) {
  const decorators: (ClassDecorator & MethodDecorator)[] = [SetMetadata(ACCESS_RULE, rule)];
  if (!rule.public) {
    decorators.push(ApiBearerAuth(), ApiUnauthorizedResponse({ description: 'No or expired session' }));
    if (rule.staff || rule.orgRole)
      decorators.push(ApiForbiddenResponse({ description: 'Role not allowed' }));
  }
  return applyDecorators(...decorators);
}

/** The caller (throws nothing: the guard already ensured one exists on non-public routes). */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal as Principal;
});

/** The caller, or undefined on a public route called without a token. */
export const OptionalUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): Principal | undefined => {
    return ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  },
);
