import { Injectable, Logger } from '@nestjs/common';
import { isFeatureOn, LANDING_PATH, SPANISH_LANDING_PATH } from '@avatar-studio/contracts';
import { AppConfigService } from '../app-config/app-config.service';
import { FeatureFlagsService } from '../app-config/feature-flags.service';
import { renderLandingPage } from './landing-page';

/** What the web handler knows of a page request that decides between the landing page and the app. */
export interface LandingRequest {
  path: string;
  /** The browser holds a session (the hint cookie): `/` is the app then. */
  signedInHint: boolean;
  /** `?uid=` signs in with a temporary token, which only the app can exchange. */
  temporaryUid: boolean;
}

/** Renders the landing page a request should get, or null when the app (the shell) answers it. */
export interface LandingPages {
  render(request: LandingRequest, nonce: string): Promise<string | null>;
}

/** The landing pages from the public app config (read through its few-seconds cache). */
@Injectable()
export class LandingService implements LandingPages {
  private readonly logger = new Logger('Landing');

  constructor(
    private readonly config: AppConfigService,
    private readonly flags: FeatureFlagsService,
  ) {}

  async render(request: LandingRequest, nonce: string): Promise<string | null> {
    const { path } = request;
    if (path !== LANDING_PATH && path !== SPANISH_LANDING_PATH) return null;
    if (request.temporaryUid) return null;
    try {
      const read = await this.flags.reader();
      const landing = isFeatureOn('landing_enabled', read);
      const spanish = isFeatureOn('spanish_enabled', read);
      if (path === LANDING_PATH && (!landing || request.signedInHint)) return null;
      if (path === SPANISH_LANDING_PATH && !spanish) return null;
      const config = new Map((await this.config.listPublic()).map((entry) => [entry.key, entry.value]));
      const language = path === SPANISH_LANDING_PATH ? 'es' : 'en';
      return renderLandingPage(
        {
          language,
          config,
          signupEnabled: isFeatureOn('signup_enabled', read),
          otherLanguageEnabled: language === 'en' ? spanish : landing,
          featureIcons: isFeatureOn('features_icons_enabled', read),
        },
        nonce,
      );
    } catch (err) {
      // The app answers instead (it shows the sign-in page), so an unreadable config never blanks the site.
      this.logger.warn(`Landing page not rendered: ${(err as Error).message}`);
      return null;
    }
  }
}
