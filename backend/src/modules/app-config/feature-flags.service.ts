import { Injectable, Logger } from '@nestjs/common';
import {
  disabledFeatureOfApiCall,
  disabledFeatureOfEvent,
  FEATURE_BY_FLAG,
  FEATURE_FLAGS,
  type FeatureDeclaration,
  type FeatureFlag,
  featureDisabledMessage,
  type FlagReader,
  isFeatureOn,
} from '@avatar-studio/contracts';
import { DomainError } from '../../common/errors/domain-error';
import { AppConfigService } from './app-config.service';

/** How old the flags kept for synchronous readers (socket emits) may get before they are re-read. */
const SNAPSHOT_MS = 5_000;

/** The answer to a call of a switched-off feature: 404, as if it were absent, with a sentence saying why. */
export function featureDisabled(feature: FeatureDeclaration): DomainError {
  return new DomainError(404, 'feature_disabled', featureDisabledMessage(feature), {
    feature: feature.flag,
  });
}

/**
 * The feature flags as the app config holds them, read through its public cache (a few seconds on other
 * instances; at once on the instance that saved a change), interpreted by the contracts declaration.
 */
@Injectable()
export class FeatureFlagsService {
  private readonly logger = new Logger('FeatureFlags');
  private snapshot: { values: Map<string, string | null>; at: number } | null = null;
  private loading: Promise<void> | null = null;

  constructor(private readonly config: AppConfigService) {
    config.onChange(() => this.refresh());
  }

  /** The flags' reader, from the config's short cache. */
  async reader(): Promise<FlagReader> {
    await this.refreshIfOld();
    return this.readerNow();
  }

  async isOn(flag: FeatureFlag): Promise<boolean> {
    return isFeatureOn(flag, await this.reader());
  }

  /**
   * Whether a feature is on, read from the database now rather than the cache: for the few places where a
   * change must show on every instance at once (sign-up, web search), at the price of a query.
   */
  async isOnNow(flag: FeatureFlag): Promise<boolean> {
    const values = await this.config.getMany(FEATURE_FLAGS);
    return isFeatureOn(flag, (f) => values[f]);
  }

  /** Throws 404 feature_disabled when the feature is switched off. */
  async assertOn(flag: FeatureFlag): Promise<void> {
    if (!isFeatureOn(flag, await this.reader())) throw featureDisabled(FEATURE_BY_FLAG[flag]);
  }

  /** The switched-off feature an HTTP call belongs to, or null. */
  async disabledFeatureOfCall(path: string, query: Iterable<string>): Promise<FeatureDeclaration | null> {
    return disabledFeatureOfApiCall(path, query, await this.reader());
  }

  /**
   * Whether a socket event may go out or come in now, without waiting: from the last flags read (refreshed in
   * the background when older than a few seconds), so emitting never waits for the database.
   */
  eventAllowedNow(event: string): boolean {
    void this.refreshIfOld();
    return disabledFeatureOfEvent(event, this.readerNow()) === null;
  }

  /** Re-reads the flags now (after a settings change on this instance). */
  async refresh(): Promise<void> {
    const entries = await this.config.listPublic();
    const wanted = new Set<string>(FEATURE_FLAGS);
    this.snapshot = {
      values: new Map(entries.filter((e) => wanted.has(e.key)).map((e) => [e.key, e.value])),
      at: Date.now(),
    };
  }

  private readerNow(): FlagReader {
    const values = this.snapshot?.values;
    return (flag) => values?.get(flag);
  }

  private async refreshIfOld(): Promise<void> {
    if (this.snapshot && Date.now() - this.snapshot.at < SNAPSHOT_MS) return;
    this.loading ??= this.refresh()
      .catch((err: Error) => {
        // Keep the last flags (the declared defaults before any read) rather than failing every request.
        this.logger.warn(`Feature flags could not be read: ${err.message}`);
      })
      .finally(() => (this.loading = null));
    await this.loading;
  }
}
