import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { FeatureFlagsService } from '../app-config/feature-flags.service';

/**
 * The gate of switched-off features on the socket, for what clients send: an event the contracts declaration
 * gives to a feature that is off is ignored (nothing runs, nothing is answered).
 */
@Injectable()
export class FeatureGateWsGuard implements CanActivate {
  constructor(@Optional() private readonly flags?: FeatureFlagsService) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.flags) return true;
    return this.flags.eventAllowedNow(context.switchToWs().getPattern());
  }
}
