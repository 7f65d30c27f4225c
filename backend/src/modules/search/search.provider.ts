import type { OutboundClient } from '../../common/outbound/outbound-http';

/** One web page a search found. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A web search engine. Rejects when the engine cannot be asked or answers badly; aborting `signal` stops it. */
export interface SearchProvider {
  search(query: string, signal: AbortSignal): Promise<SearchResult[]>;
}

/** How many results go to the model. */
export const MAX_SEARCH_RESULTS = 5;
/** A search that takes longer than this counts as failed. */
export const SEARCH_TIMEOUT_MS = 10_000;
/** Longest query sent to the engine; a long prompt is cut (engines ignore the rest anyway). */
export const MAX_QUERY_CHARS = 400;
/** Largest search answer read; SearXNG's JSON for one page of results is far smaller. */
export const MAX_SEARCH_RESPONSE_BYTES = 2 * 1024 * 1024;
const MAX_TITLE_CHARS = 300;
const MAX_SNIPPET_CHARS = 1_000;

const isWebUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

const text = (value: unknown, max: number): string =>
  typeof value === 'string' ? value.replace(/\s+/g, ' ').trim().slice(0, max) : '';

/**
 * SearXNG's JSON API: `GET {base}/search?q=...&format=json` answering `{ results: [{ title, url, content }] }`.
 * Only http(s) results are kept (they become links in the browser), the first MAX_SEARCH_RESULTS of them.
 */
export class SearxngProvider implements SearchProvider {
  constructor(
    private readonly baseUrl: string,
    private readonly http: OutboundClient,
  ) {}

  async search(query: string, signal: AbortSignal): Promise<SearchResult[]> {
    const url = new URL('search', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.searchParams.set('q', query.slice(0, MAX_QUERY_CHARS));
    url.searchParams.set('format', 'json');
    // The outbound client refuses private addresses (also after redirects), caps time and size.
    const res = await this.http.request(url, {
      headers: { accept: 'application/json' },
      signal,
      timeoutMs: SEARCH_TIMEOUT_MS,
      maxBytes: MAX_SEARCH_RESPONSE_BYTES,
    });
    if (!res.ok) throw new Error(`the search server answered ${res.status}`);
    const body = res.json<{ results?: unknown } | null>();
    if (!body || !Array.isArray(body.results)) throw new Error('the search server sent no results list');
    const results: SearchResult[] = [];
    for (const item of body.results as Record<string, unknown>[]) {
      if (!item || !isWebUrl(item.url)) continue;
      results.push({
        title: text(item.title, MAX_TITLE_CHARS) || item.url,
        url: item.url,
        snippet: text(item.content, MAX_SNIPPET_CHARS),
      });
      if (results.length === MAX_SEARCH_RESULTS) break;
    }
    return results;
  }
}
