import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { OutboundBlockedError } from '../../common/outbound/address-policy';
import { describeOutboundFailure, OutboundHttp } from '../../common/outbound/outbound-http';
import { APP_ENV, AppEnv } from '../../config/env';
import { FeatureFlagsService } from '../app-config/feature-flags.service';
import { AppConfigService } from '../app-config/app-config.service';
import { isHttpUrl } from '../app-config/app-config.rules';
import { SearchProvider, SearchResult, SearxngProvider } from './search.provider';

export const SEARCH_UNAVAILABLE_MESSAGE = 'Web search is not available.';
export const SEARCH_FAILED_MESSAGE = 'Web search failed. Please try again.';

export const SEARCH_REFUSED_MESSAGE =
  'Web search failed: the search server is at a private address the server may not reach. An admin can change the search URL or allow it with OUTBOUND_ALLOW.';

/** The search server failed or timed out: 502, the gateway's fault rather than the caller's. */
export const searchFailed = () => new DomainError(502, 'search_failed', SEARCH_FAILED_MESSAGE);
/** The configured search server is at an address the outbound policy refuses. */
export const searchRefused = () => new DomainError(502, 'search_failed', SEARCH_REFUSED_MESSAGE);

/**
 * Web search for answers (`searchOnInternet`). On when app config `search_enabled` is on and a SearXNG URL is
 * known: app config `search_url`, else the SEARCH_URL env variable.
 */
@Injectable()
export class SearchService {
  private readonly logger = new Logger('Search');
  private readonly http: OutboundHttp;

  constructor(
    private readonly config: AppConfigService,
    private readonly flags: FeatureFlagsService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {
    this.http = new OutboundHttp(env);
  }

  /** The provider to use, or null when web search is off or not set up. */
  async provider(): Promise<SearchProvider | null> {
    if (!(await this.flags.isOnNow('search_enabled'))) return null;
    const search_url = await this.config.get('search_url');
    const configured = search_url?.trim();
    const url = configured && isHttpUrl(configured) ? configured : this.env.searchUrl;
    return url ? new SearxngProvider(url, this.http) : null;
  }

  /** Searches; any failure but a cancellation becomes `searchFailed` (logged), the cancellation is rethrown. */
  async search(provider: SearchProvider, query: string, signal: AbortSignal): Promise<SearchResult[]> {
    try {
      return await provider.search(query, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      this.logger.warn(`Web search failed: ${describeOutboundFailure(err)}`);
      throw err instanceof OutboundBlockedError ? searchRefused() : searchFailed();
    }
  }
}
