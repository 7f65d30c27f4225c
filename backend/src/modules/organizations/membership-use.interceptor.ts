import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../../common/auth/principal';
import { OrganizationsRepository } from './organizations.repository';

/**
 * Records a member's use of the organization a request is scoped to (the "Last used" of the members list), so
 * that resolving the scope stays a read: at most once a minute per membership, never delaying the request.
 */
@Injectable()
export class MembershipUseInterceptor implements NestInterceptor {
  constructor(private readonly orgs: OrganizationsRepository) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
      if (principal?.org?.member) {
        void this.orgs.touchLastUse(principal.org.organization_id, principal.user_id).catch(() => undefined);
      }
    }
    return next.handle();
  }
}
