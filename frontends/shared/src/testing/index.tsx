/**
 * Test helpers for every frontend (import from '@avatar-studio/shared/testing'; never from app code).
 * They mock the network at its boundary (global fetch) so the real client, providers and screens run.
 */
import { render, waitFor, within, type RenderResult } from '@testing-library/react';
import type { ComponentType, ReactElement, ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { i18n } from '../i18n';
import type { Membership, User } from '../api/contracts';
import type { TranslationTree } from '../i18n';
import { AppProviders, createQueryClient } from '../providers';
import type { RealtimeIo } from '../realtime';
import type { RemoteManifestSource } from '../remote';
import { sessionKnown, useSession } from '../session/SessionProvider';
import { sessionStore } from '../session/store';
import { PageLoader } from '../ui/PageLoader';

export interface MockCall {
  method: string;
  path: string;
  url: URL;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export type MockReply =
  { status?: number; body?: unknown; headers?: Record<string, string> } | Response | 'network-error';

/** Handlers keyed "METHOD /path" (path without the query), e.g. 'GET /api/users'. A function sees the call. */
export type MockRoutes = Record<string, MockReply | ((call: MockCall) => MockReply | Promise<MockReply>)>;

export interface FetchMock {
  calls: MockCall[];
  /** Calls to one "METHOD /path". */
  callsTo(key: string): MockCall[];
  /** Adds or replaces handlers. */
  route(routes: MockRoutes): void;
  spy: jest.SpyInstance;
}

/**
 * Replaces global fetch with a router over `routes`. Unknown routes answer 404 with the API's error body.
 * Restored by jest.restoreAllMocks() after each test (frontends/jest.setup.ts).
 */
export function mockFetch(routes: MockRoutes = {}): FetchMock {
  const table: MockRoutes = { ...routes };
  const calls: MockCall[] = [];
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    // Duck-typed: a cloned Request is Node's own class, not the page's.
    const request =
      typeof input === 'object' && input !== null && 'url' in input && 'method' in input
        ? (input as Request)
        : new Request(String(input), init);
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const call: MockCall = {
      method: request.method,
      path: url.pathname,
      url,
      query: url.searchParams,
      headers: request.headers,
      body,
    };
    calls.push(call);
    const handler = table[`${request.method} ${url.pathname}`];
    const reply: MockReply =
      handler === undefined
        ? {
            status: 404,
            body: { statusCode: 404, message: 'Not found.', error: 'Not Found', code: 'not_found' },
          }
        : typeof handler === 'function'
          ? await handler(call)
          : handler;
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    if (reply instanceof Response) return reply;
    const status = reply.status ?? 200;
    return new Response(status === 204 || reply.body === undefined ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  return {
    calls,
    callsTo: (key) => calls.filter((c) => `${c.method} ${c.path}` === key),
    route: (more) => Object.assign(table, more),
    spy,
  };
}

export const DEFAULT_TEST_CONFIG: Record<string, string> = {
  app_name: 'Avatar Studio',
  tagline: 'Your AI content team',
  signup_enabled: 'true',
  landing_enabled: 'false',
  avatars_enabled: 'true',
  templates_enabled: 'true',
  documents_enabled: 'true',
  campaigns_enabled: 'true',
  primary_color: '#4c6ef5',
};

export function testUser(overrides: Partial<User> = {}): User {
  return {
    user_id: 1,
    name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '5512345678',
    company: null,
    uid: 'uid-1',
    lang: 'en',
    api_key: null,
    api_key_expires_at: null,
    api_key_staff: false,
    email_verified: true,
    two_factor_enabled: false,
    two_factor_required: false,
    zappier_webhook_url: null,
    manual_mode: false,
    dark_mode: false,
    has_access: true,
    staff: null,
    default_organization: null,
    birthday: null,
    defaultAssistant: null,
    instagram: null,
    file: null,
    signup_reason: null,
    show_video: false,
    value: 0,
    last_used: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export interface RenderOptions {
  /** Initial URL of the MemoryRouter. */
  route?: string;
  /** The signed-in user, or null for signed out (default). */
  user?: User | null;
  /** App config values (merged over DEFAULT_TEST_CONFIG). */
  config?: Record<string, string | null>;
  memberships?: Membership[];
  /** Extra or overriding API handlers. */
  routes?: MockRoutes;
  /** Where to render (default: a new element in document.body). */
  container?: HTMLElement;
}

/**
 * As in the shell (ShellRoutes), a screen renders only once the session is known, signed in or out. Rendered
 * earlier, a screen would show once without its user and be replaced when the session arrives: a test could find
 * an element of the first render that is gone the moment after.
 */
function OnceSessionKnown({ children }: { children: ReactNode }) {
  const { status } = useSession();
  return sessionKnown(status) ? <>{children}</> : <PageLoader minHeight="100vh" />;
}

/**
 * Renders `ui` inside every provider the shell gives a remote (real AppProviders over a mocked network) and a
 * MemoryRouter at `route`. Use `await screen.findBy...` for the first assertion: config and user load first.
 */
export function renderWithProviders(
  ui: ReactElement,
  options: RenderOptions = {},
): RenderResult & { fetch: FetchMock } {
  const { route = '/', user = null, config = {}, memberships = [], routes = {}, container } = options;
  const values = { ...DEFAULT_TEST_CONFIG, ...config };
  const fetch = mockFetch({
    'GET /api/appconfig': {
      body: { config: Object.entries(values).map(([key, value]) => ({ key, value })) },
    },
    'GET /api/users': user
      ? { body: { user } }
      : { status: 401, body: { message: 'Unauthorized', code: 'unauthorized' } },
    'GET /api/organizations': { body: { organizations: memberships } },
    'POST /api/auth/logout': { status: 204 },
    ...routes,
  });
  if (user) sessionStore.setTokens({ access_token: 'test-access', refresh_token: 'test-refresh' });
  const result = render(
    <MemoryRouter initialEntries={[route]}>
      <AppProviders queryClient={createQueryClient()} env="test">
        <OnceSessionKnown>{ui}</OnceSessionKnown>
      </AppProviders>
    </MemoryRouter>,
    container ? { container } : undefined,
  );
  return Object.assign(result, { fetch });
}

type Listener = (payload: unknown) => void;

/**
 * A fake Socket.IO client for setRealtimeIo: counts the sockets opened (`factory`) and lets the test deliver
 * server events (`deliver`) to whatever the screen listens to.
 */
export function fakeIo() {
  const listeners = new Map<string, Set<Listener>>();
  /** What the screen sent to the server, in order. */
  const emitted: { event: string; payload: unknown }[] = [];
  const socket = {
    connected: true,
    emit: (event: string, payload: unknown) => {
      emitted.push({ event, payload });
      return socket;
    },
    on: (event: string, fn: Listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(fn);
      return socket;
    },
    off: (event: string, fn: Listener) => {
      listeners.get(event)?.delete(fn);
      return socket;
    },
    connect: () => socket,
    disconnect: () => socket,
  };
  const factory = jest.fn(() => socket);
  return {
    io: factory as unknown as RealtimeIo,
    factory,
    emitted,
    /** Payloads the screen sent with `event`. */
    emittedOf: (event: string) => emitted.filter((e) => e.event === event).map((e) => e.payload),
    deliver(event: string, payload: unknown) {
      for (const fn of listeners.get(event) ?? []) fn(payload);
    },
    /** The socket connects again after a drop (listeners of 'connect' run). */
    reconnect() {
      for (const fn of listeners.get('connect') ?? []) fn(undefined);
    },
  };
}

/**
 * The menu entries of a remote's manifest whose published label differs from the text of its labelKey in the
 * remote's translations (the shell shows the published label until the remote loads). Empty when they agree.
 */
export function manifestLabelMismatches(
  manifest: RemoteManifestSource,
  namespace: string,
  translations: { en: TranslationTree; es: TranslationTree },
): string[] {
  const lookup = (tree: TranslationTree, key: string): unknown =>
    key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
  return manifest.navigation.flatMap((entry) => {
    const [ns, key] = entry.labelKey.split(':');
    if (ns !== namespace || !key) return [`${entry.labelKey}: not in namespace ${namespace}`];
    return (['en', 'es'] as const)
      .filter((lang) => lookup(translations[lang], key) !== entry.label[lang])
      .map(
        (lang) =>
          `${entry.labelKey} (${lang}): "${entry.label[lang]}" is not "${String(lookup(translations[lang], key))}"`,
      );
  });
}

import { isKnownMissingPage } from './known-missing-pages';
export { KNOWN_MISSING_PAGES, isKnownMissingPage } from './known-missing-pages';
export { contrast, paletteColor } from './contrast';

/**
 * Checks that a link's address leads to a page of `App` (a remote's App, mounted at its `mount`s as the shell does):
 * it renders the address apart from the screen under test and fails on "Page not found". A known-missing page
 * (KNOWN_MISSING_PAGES) must still be missing, so the list is emptied when the page lands.
 */
export async function expectPageExists(
  App: ComponentType,
  path: string,
  options: Omit<RenderOptions, 'route'> & {
    mount?: string | string[];
    /** The known-missing pages (default KNOWN_MISSING_PAGES); the helper's own test gives its own. */
    knownMissing?: readonly { path: string }[];
  } = {},
): Promise<void> {
  const { mount = '/', user = testUser(), knownMissing, ...rest } = options;
  const routePaths = (Array.isArray(mount) ? mount : [mount]).map((m) =>
    m === '/' ? '*' : `${m.replace(/\/+$/, '')}/*`,
  );
  // The screen under test keeps its own network mock once this check is done.
  const previousFetch = jest.isMockFunction(globalThis.fetch)
    ? jest.mocked(globalThis.fetch).getMockImplementation()
    : undefined;
  const container = document.createElement('div');
  document.body.appendChild(container);
  const page = renderWithProviders(
    <Routes>
      {routePaths.map((routePath) => (
        <Route key={routePath} path={routePath} element={<App />} />
      ))}
    </Routes>,
    { route: path, user, ...rest, container },
  );
  try {
    const view = within(container);
    // Settled: the providers rendered something and no loader is left (the lazy screen or the catch-all is in).
    await waitFor(
      () => {
        expect(container.textContent?.trim()).not.toBe('');
        expect(container.querySelectorAll('.mantine-Loader-root')).toHaveLength(0);
      },
      { timeout: 5000 },
    );
    const missing = view.queryByText(i18n.t('common:notFound')) !== null;
    if (isKnownMissingPage(path, knownMissing)) {
      if (!missing)
        throw new Error(`${path} exists now: remove it from KNOWN_MISSING_PAGES (shared/src/testing).`);
    } else if (missing) {
      throw new Error(`${path} leads to "Page not found".`);
    }
  } finally {
    page.unmount();
    container.remove();
    if (previousFetch) jest.mocked(globalThis.fetch).mockImplementation(previousFetch);
  }
}
