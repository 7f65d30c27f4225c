import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { featureDisabled, FeatureFlagsService } from './feature-flags.service';

/**
 * The one gate of switched-off features on HTTP: a call under a declared API prefix of a feature that is off
 * (or carrying its query parameter) answers 404 `feature_disabled`, before authentication and whether or not
 * a route exists there yet, so a feature's routes are gated the day they are added. Data is left untouched.
 */
@Injectable()
export class FeatureGateMiddleware implements NestMiddleware {
  constructor(private readonly flags: FeatureFlagsService) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    const url = new URL(req.originalUrl, 'http://local');
    if (!url.pathname.startsWith('/api/')) return next();
    let path = url.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // A malformed escape: matched as it is (the router answers such a path itself).
    }
    this.flags
      .disabledFeatureOfCall(path, url.searchParams.keys())
      .then((feature) => next(feature ? featureDisabled(feature) : undefined), next);
  }
}
