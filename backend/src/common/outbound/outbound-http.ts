import { Inject, Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { APP_ENV, type AppEnv } from '../../config/env';
import { OutboundBlockedError, OutboundPolicy } from './address-policy';
import { checkHost, checkLiteralHost, guardedLookup } from './guarded-lookup';

export const OUTBOUND_DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
} as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export type OutboundFailure = 'bad_url' | 'timeout' | 'too_large' | 'redirects' | 'network';

/** An outbound request that failed for a reason other than the address policy (see OutboundBlockedError). */
export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, redirects included. */
  timeoutMs?: number;
  /** Largest response body accepted. */
  maxBytes?: number;
  /** 0 refuses any redirect. */
  maxRedirects?: number;
  /** Aborting it rejects with the signal's reason (an AbortError), not an OutboundError. */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  ok: boolean;
  headers: IncomingHttpHeaders;
  /** The URL that answered, after redirects. */
  url: string;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

/**
 * The one HTTP client for URLs a user, an admin or the operator configured (search server, email webhooks, ...).
 * Every hop, redirects included (followed here, a bounded number of times), connects only to an address the
 * OutboundPolicy allows, checked after DNS resolution and pinned for the connection; the whole exchange has a
 * deadline and the body a size cap.
 */
export class OutboundClient {
  private readonly lookup: LookupFunction;

  constructor(readonly policy: OutboundPolicy) {
    this.lookup = guardedLookup(policy);
  }

  /** Throws OutboundBlockedError (or a DNS error) when `url`'s host may not be reached; does not connect. */
  async checkUrl(url: string): Promise<void> {
    await checkHost(this.policy, parseWebUrl(url).hostname);
  }

  async request(url: string | URL, options: OutboundRequest = {}): Promise<OutboundResponse> {
    const timeoutMs = options.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs;
    const maxBytes = options.maxBytes ?? OUTBOUND_DEFAULTS.maxBytes;
    const maxRedirects = options.maxRedirects ?? OUTBOUND_DEFAULTS.maxRedirects;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    let current = parseWebUrl(String(url));
    let method = options.method ?? 'GET';
    let body = options.body;
    const headers = { ...(options.headers ?? {}) };
    try {
      for (let hop = 0; ; hop++) {
        const res = await this.once(current, method, headers, body, signal, maxBytes);
        const location = res.headers.location;
        if (!REDIRECTS.has(res.status) || !location) return res;
        if (hop >= maxRedirects) {
          throw new OutboundError('redirects', `${current.host} redirected more than ${maxRedirects} times`);
        }
        const next = parseWebUrl(new URL(location, current).toString());
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method !== 'GET')) {
          method = 'GET';
          body = undefined;
          for (const key of Object.keys(headers)) if (/^content-/i.test(key)) delete headers[key];
        }
        // Credentials meant for one origin never follow a redirect to another.
        if (next.origin !== current.origin) {
          for (const key of Object.keys(headers))
            if (/^(authorization|cookie)$/i.test(key)) delete headers[key];
        }
        current = next;
      }
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason ?? err;
      if (deadline.aborted)
        throw new OutboundError('timeout', `${current.host} gave no answer within ${timeoutMs} ms`);
      throw err;
    }
  }

  private once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<OutboundResponse> {
    checkLiteralHost(this.policy, url.hostname);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      // agent: false gives each request its own connection, so no pooled socket skips the address check.
      const req = send(
        url,
        { method, headers, signal, agent: false, lookup: this.lookup },
        (res: IncomingMessage) => {
          const status = res.statusCode ?? 0;
          const answer = (data: Buffer): OutboundResponse => ({
            status,
            ok: status >= 200 && status < 300,
            headers: res.headers,
            url: url.toString(),
            body: data,
            text: () => data.toString('utf8'),
            json: <T>() => JSON.parse(data.toString('utf8')) as T,
          });
          if (REDIRECTS.has(status) && res.headers.location) {
            res.destroy();
            resolve(answer(Buffer.alloc(0)));
            return;
          }
          const tooLarge = () =>
            new OutboundError('too_large', `${url.host} answered more than ${maxBytes} bytes`);
          if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
            res.destroy();
            reject(tooLarge());
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              res.destroy();
              reject(tooLarge());
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => resolve(answer(Buffer.concat(chunks))));
          res.on('error', reject);
        },
      );
      req.on('error', (err: Error) => {
        if (err instanceof OutboundBlockedError || err instanceof OutboundError || signal.aborted)
          reject(err);
        else reject(new OutboundError('network', `${url.host}: ${err.message}`));
      });
      req.end(body);
    });
  }
}

/** A URL the client may request: http(s) with a host, no credentials in it. */
function parseWebUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundError('bad_url', 'not a valid URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new OutboundError('bad_url', `${url.protocol}// URLs are not fetched; only http(s)`);
  }
  return url;
}

/** The app's OutboundClient, with the OUTBOUND_ALLOW allow-list. */
@Injectable()
export class OutboundHttp extends OutboundClient {
  constructor(@Inject(APP_ENV) env: AppEnv) {
    super(new OutboundPolicy(env.outboundAllow));
  }
}

/** A sentence for people about why an outbound request failed; never includes the URL's path or query. */
export function describeOutboundFailure(err: unknown): string {
  if (err instanceof OutboundBlockedError || err instanceof OutboundError) return err.message;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name could not be resolved';
  return err instanceof Error ? err.message : String(err);
}
