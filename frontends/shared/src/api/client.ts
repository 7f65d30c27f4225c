/**
 * The one API client. Screens call `api.GET('/api/users')` etc. (typed from the OpenAPI document) inside
 * TanStack Query and turn the result into data-or-throw with `unwrap`.
 */
import { STAFF_SCOPE_CONFIRM_HEADER } from '@avatar-studio/contracts/organization-scope';
import createClient, { type Middleware } from 'openapi-fetch';
import { navigateAway, sessionStore, TOKEN_REFRESH_AFTER_MS } from '../session/store';
import type { ErrorBody, SessionPair } from './contracts';
import type { ApiPaths } from './paths';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors?: { field: string; message: string }[];
  /** True when the server sent its own human message (not our generic fallback). */
  readonly hasServerMessage: boolean;

  constructor(status: number, body?: Partial<ErrorBody> | string | null) {
    const parsed = typeof body === 'object' && body !== null ? body : {};
    const serverMessage = typeof parsed.message === 'string' && parsed.message ? parsed.message : null;
    // Without a server message we use the classic client wording, which notify recognises (it hides 401/400 texts).
    super(serverMessage ?? `Request failed with status code ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof parsed.code === 'string' ? parsed.code : 'error';
    this.errors = Array.isArray(parsed.errors) ? parsed.errors : undefined;
    this.hasServerMessage = serverMessage !== null;
  }
}

interface FetchResultLike {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The data of an openapi-fetch result, or an ApiError carrying the status and the server's error body. */
export async function unwrap<R extends FetchResultLike>(
  result: R | Promise<R>,
): Promise<Exclude<R['data'], undefined>> {
  const settled = await result;
  if (!settled.response.ok) {
    throw new ApiError(settled.response.status, settled.error as Partial<ErrorBody> | string | null);
  }
  return settled.data as Exclude<R['data'], undefined>;
}

// ---- settings (injectable for tests) ----

export const RETRY_COUNT = 3;
let retryDelayMs = 3000;

/** Failed calls retry 3 times, 3 s apart. Tests shorten the delay. */
export function setRetryDelay(ms: number): void {
  retryDelayMs = ms;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const AUTH_PATHS = /^\/api\/auth\/(login|signup|refresh|logout|recovery|reset-password|token)$/;
// Only these POST answers prove the server did not act, so a retry cannot run the action twice.
const RETRYABLE_POST_STATUS = new Set([502, 503, 504]);

function isIdempotent(method: string): boolean {
  return (
    method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE' || method === 'OPTIONS'
  );
}

/** Sends a request, retrying network errors and 5xx answers; 4xx answers are final. */
async function fetchWithRetry(request: Request): Promise<Response> {
  let lastError: unknown;
  let lastResponse: Response | undefined;
  for (let attempt = 0; attempt <= RETRY_COUNT; attempt++) {
    if (attempt > 0) await wait(retryDelayMs);
    try {
      // Clone: a request body can be read once, and we may send it again.
      const response = await globalThis.fetch(request.clone());
      const retryable =
        response.status >= 500 &&
        (isIdempotent(request.method) || RETRYABLE_POST_STATUS.has(response.status));
      if (!retryable) return response;
      lastResponse = response;
      lastError = undefined;
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      lastError = err;
      lastResponse = undefined;
    }
  }
  if (lastResponse) return lastResponse;
  throw lastError;
}

// ---- tokens ----

let refreshing: Promise<boolean> | null = null;

/**
 * Trades the refresh token for a new pair; one refresh at a time however many calls ask, across tabs too:
 * the server treats a reused refresh token as theft and ends the session, so two tabs must never spend the
 * same one. Under a Web Lock, a tab whose token was already rotated by another tab just adopts the new pair.
 */
export function refreshTokens(): Promise<boolean> {
  const startedWith = sessionStore.getRefreshToken();
  const refresh = async (): Promise<boolean> => {
    const refreshToken = sessionStore.getRefreshToken();
    if (!refreshToken) return false;
    if (startedWith && refreshToken !== startedWith) return true;
    try {
      const response = await fetchWithRetry(
        new Request(`${location.origin}/api/auth/refresh`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refresh_token: refreshToken }),
        }),
      );
      if (!response.ok) return false;
      const pair = (await response.json()) as SessionPair;
      sessionStore.setTokens(pair);
      return true;
    } catch {
      return false;
    }
  };
  if (!refreshing) {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    const run: Promise<boolean> = locks
      ? locks.request('avatar-studio-token-refresh', () => refresh()).then((ok) => ok)
      : refresh();
    refreshing = run.finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

/** Ends the session without asking the server (its token is already unusable) and leaves for `path`. */
export function forceSignOut(path = '/auth'): void {
  sessionStore.clearAll();
  navigateAway(path);
}

/** A copy of `request` with the current access token (and optionally another URL). */
async function withAuthorization(request: Request, url: string | URL = request.url): Promise<Request> {
  const token = sessionStore.getAccessToken();
  const headers = new Headers(request.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  else headers.delete('Authorization');
  // Staff outside an organization act in its scope only once confirmed on screen (the server checks it).
  const organizationId = sessionStore.getOrganizationId();
  if (organizationId !== null && sessionStore.getStaffScopeConfirmed() === organizationId) {
    headers.set(STAFF_SCOPE_CONFIRM_HEADER, String(organizationId));
  } else headers.delete(STAFF_SCOPE_CONFIRM_HEADER);
  // The body is buffered (not streamed) so the copy can be built without `duplex` and sent again on retry.
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.blob();
  return new Request(url, {
    method: request.method,
    headers,
    body: body && body.size > 0 ? body : undefined,
    signal: request.signal,
    credentials: request.credentials,
    redirect: request.redirect,
  });
}

async function errorCode(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as Partial<ErrorBody>;
    return typeof body.code === 'string' ? body.code : null;
  } catch {
    return null;
  }
}

/** The fetch the client uses: retries, one refresh-and-resend on an expired token, sign-out rules. */
async function apiFetch(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const isAuthCall = AUTH_PATHS.test(pathname);
  // Keep an unread copy in case we must resend after a refresh.
  const spare = request.clone();
  let response = await fetchWithRetry(request);

  if (!isAuthCall && response.status === 401 && (await errorCode(response)) === 'token_expired') {
    if (await refreshTokens()) response = await fetchWithRetry(await withAuthorization(spare));
    if (response.status === 401) {
      forceSignOut('/auth');
      return response;
    }
  }
  // Fetching the current user answering 400 signs the user out to /auth.
  if (response.status === 400 && request.method === 'GET' && pathname === '/api/users') {
    forceSignOut('/auth');
  }
  return response;
}

const sessionMiddleware: Middleware = {
  async onRequest({ request }) {
    const { pathname } = new URL(request.url);
    if (!AUTH_PATHS.test(pathname) && sessionStore.getRefreshToken()) {
      if (sessionStore.tokenAge() > TOKEN_REFRESH_AFTER_MS) await refreshTokens();
    }
    const organizationId = sessionStore.getOrganizationId();
    const url = new URL(request.url);
    if (organizationId !== null) url.searchParams.set('organization_id', String(organizationId));
    return withAuthorization(request, url);
  },
};

export const api = createClient<ApiPaths>({
  baseUrl: '',
  // Resolve globalThis.fetch per call so tests (and polyfills) can replace it after this module loads.
  fetch: (request) => apiFetch(request),
});
api.use(sessionMiddleware);

export type { ApiPaths };
