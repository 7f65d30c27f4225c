import { SetMetadata, applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiQuery, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { OrgRole, Permission, StaffRole } from './permissions';
import type { AuthenticatedRequest, OrgScope, Principal } from './principal';
import type { WidgetVisitor } from './visitor-token';

export interface AccessRule {
  /** Anyone, signed in or not (the principal is still set when a valid token is sent). */
  public?: boolean;
  /** At least this staff role. */
  staff?: StaffRole;
  /** At least this role in the organization named by `?organization_id=` (required then). */
  orgRole?: OrgRole;
  /**
   * A permission of the contracts table, judged on the caller's staff role and their role in the request's scope
   * (for an action on no particular resource; services ask AccessPolicy about resources).
   */
  permission?: Permission;
  /** Open to a staff admin who must enrol a second factor first (enrolment itself, the profile, sign-out). */
  twoFactorEnrolment?: boolean;
  /**
   * A chat widget visitor's route: only a visitor token (`wv.` prefix) is accepted here, and a visitor token is
   * refused on every other route.
   */
  widgetVisitor?: boolean;
}

export const ACCESS_RULE = 'access-rule';

/**
 * The one auth decorator. `@Authenticated()` = any signed-in user; `@Authenticated({ staff: 'admin' })`;
 * `@Authenticated({ orgRole: 'Manager' })`; `@Authenticated({ permission: 'staff.manage' })`;
 * `@Authenticated({ public: true })`. Routes without it are treated as `@Authenticated()`. Services still check
 * access on the resource itself, through AccessPolicy. Every signed-in route takes the `?organization_id=` scope,
 * which the guard resolves once; handlers read it with @CurrentScope() (or the principal's `org`).
 */
export function Authenticated(rule: AccessRule = {}) {
  const decorators: (ClassDecorator & MethodDecorator)[] = [SetMetadata(ACCESS_RULE, rule)];
  if (rule.widgetVisitor) {
    decorators.push(
      ApiBearerAuth(),
      ApiUnauthorizedResponse({ description: 'No, expired or wrong widget visitor token' }),
    );
  } else if (!rule.public) {
    decorators.push(
      ApiBearerAuth(),
      ApiUnauthorizedResponse({ description: 'No or expired session' }),
      ApiQuery({
        name: 'organization_id',
        required: false,
        type: String,
        description: 'Organization scope',
      }),
    );
    if (rule.staff || rule.orgRole || rule.permission)
      decorators.push(ApiForbiddenResponse({ description: 'Role not allowed' }));
  }
  return applyDecorators(...decorators);
}

/** The caller (throws nothing: the guard already ensured one exists on non-public routes). */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal as Principal;
});

/** The request's organization scope (`?organization_id=`) as the guard resolved it, frozen; null without one. */
export const CurrentScope = createParamDecorator((_data: unknown, ctx: ExecutionContext): OrgScope | null => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal?.org ?? null;
});

/** The widget visitor of a `widgetVisitor` route (the guard ensured one). */
export const CurrentVisitor = createParamDecorator((_data: unknown, ctx: ExecutionContext): WidgetVisitor => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>().visitor as WidgetVisitor;
});

/** The caller, or undefined on a public route called without a token. */
export const OptionalUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): Principal | undefined => {
    return ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  },
);
