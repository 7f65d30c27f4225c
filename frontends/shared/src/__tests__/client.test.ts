import { api, ApiError, sessionStore, setNavigator, setRetryDelay, unwrap } from '@avatar-studio/shared';
import { mockFetch } from '@avatar-studio/shared/testing';

const user = { user_id: 1, name: 'Ada' };

describe('api client', () => {
  beforeEach(() => {
    sessionStore.setTokens({ access_token: 'access-1', refresh_token: 'refresh-1' });
  });
  afterEach(() => sessionStore.setOrganizationId(null));

  it('sends the access token as a Bearer header', async () => {
    const net = mockFetch({ 'GET /api/users': { body: { user } } });
    await unwrap(api.GET('/api/users'));
    expect(net.calls[0].headers.get('authorization')).toBe('Bearer access-1');
  });

  it('appends organization_id to every request when an organization is chosen', async () => {
    const net = mockFetch({
      'GET /api/users': { body: { user } },
      'POST /api/auth/recovery': { body: {} },
    });
    sessionStore.setOrganizationId(7);
    await api.GET('/api/users');
    await api.GET('/api/organizations', { params: { query: { query: 'acme' } } });
    await api.POST('/api/auth/recovery', { body: { email: 'a@b.co' } });
    expect(net.calls.map((c) => c.query.get('organization_id'))).toEqual(['7', '7', '7']);
    expect(net.calls[1].query.get('query')).toBe('acme');
    expect(net.calls[2].body).toEqual({ email: 'a@b.co' });
  });

  it('adds no organization_id in Personal scope', async () => {
    const net = mockFetch({ 'GET /api/users': { body: { user } } });
    await api.GET('/api/users');
    expect(net.calls[0].query.has('organization_id')).toBe(false);
  });

  it('retries a 5xx answer 3 times, waiting the configured delay, then gives the last answer', async () => {
    setRetryDelay(20);
    const net = mockFetch({ 'GET /api/users': { status: 503, body: { message: 'Down', code: 'down' } } });
    const started = Date.now();
    const result = await api.GET('/api/users');
    expect(net.callsTo('GET /api/users')).toHaveLength(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(result.response.status).toBe(503);
  });

  it('retries network errors and succeeds when the server comes back', async () => {
    let n = 0;
    const net = mockFetch({ 'GET /api/users': () => (++n < 3 ? 'network-error' : { body: { user } }) });
    const data = await unwrap(api.GET('/api/users'));
    expect(data.user.user_id).toBe(1);
    expect(net.calls).toHaveLength(3);
  });

  it('resends the same body on a retried PUT', async () => {
    let n = 0;
    const net = mockFetch({ 'PUT /api/users': () => (++n === 1 ? { status: 500 } : { body: { user } }) });
    await api.PUT('/api/users', { body: { name: 'Ada' } });
    expect(net.calls.map((c) => c.body)).toEqual([{ name: 'Ada' }, { name: 'Ada' }]);
  });

  it('does not retry a 4xx answer', async () => {
    const net = mockFetch({
      'GET /api/organizations': { status: 404, body: { message: 'Nope', code: 'not_found' } },
    });
    await api.GET('/api/organizations');
    expect(net.calls).toHaveLength(1);
  });

  it('refreshes once on token_expired, resends, and keeps the session', async () => {
    const navigate = jest.fn();
    setNavigator(navigate);
    const net = mockFetch({
      'GET /api/users': (call) =>
        call.headers.get('authorization') === 'Bearer access-2'
          ? { body: { user } }
          : { status: 401, body: { message: 'Expired', code: 'token_expired' } },
      'POST /api/auth/refresh': { body: { access_token: 'access-2', refresh_token: 'refresh-2' } },
    });
    const data = await unwrap(api.GET('/api/users'));
    expect(data.user.name).toBe('Ada');
    expect(net.callsTo('POST /api/auth/refresh')[0].body).toEqual({ refresh_token: 'refresh-1' });
    expect(sessionStore.getRefreshToken()).toBe('refresh-2');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('signs out to /auth, clearing all local storage, when the token stays expired', async () => {
    const navigate = jest.fn();
    setNavigator(navigate);
    localStorage.setItem('something_else', 'x');
    mockFetch({
      'GET /api/users': { status: 401, body: { message: 'Expired', code: 'token_expired' } },
      'POST /api/auth/refresh': { status: 401, body: { message: 'Spent', code: 'unauthorized' } },
    });
    const result = await api.GET('/api/users');
    expect(result.response.status).toBe(401);
    expect(navigate).toHaveBeenCalledWith('/auth');
    expect(localStorage.length).toBe(0);
  });

  it('signs out to /auth when fetching the current user answers 400', async () => {
    const navigate = jest.fn();
    setNavigator(navigate);
    mockFetch({ 'GET /api/users': { status: 400, body: { message: 'Bad', code: 'bad_input' } } });
    await api.GET('/api/users');
    expect(navigate).toHaveBeenCalledWith('/auth');
    expect(sessionStore.getAccessToken()).toBeNull();
  });

  it('refreshes before sending when the access token is more than 15 minutes old', async () => {
    sessionStore.setTokens({ access_token: 'old', refresh_token: 'refresh-1' }, Date.now() - 16 * 60 * 1000);
    const net = mockFetch({
      'POST /api/auth/refresh': { body: { access_token: 'fresh', refresh_token: 'refresh-2' } },
      'GET /api/users': { body: { user } },
    });
    await api.GET('/api/users');
    expect(net.calls.map((c) => c.path)).toEqual(['/api/auth/refresh', '/api/users']);
    expect(net.calls[1].headers.get('authorization')).toBe('Bearer fresh');
  });

  it('adopts the pair another tab just rotated instead of spending the same refresh token twice', async () => {
    sessionStore.setTokens({ access_token: 'old', refresh_token: 'refresh-1' }, Date.now() - 16 * 60 * 1000);
    // Another tab holds the lock and rotates the tokens before ours gets it.
    const request = jest.fn(async (_name: string, callback: () => Promise<boolean>) => {
      sessionStore.setTokens({ access_token: 'from-other-tab', refresh_token: 'refresh-2' });
      return callback();
    });
    Object.defineProperty(navigator, 'locks', { value: { request }, configurable: true });
    try {
      const net = mockFetch({ 'GET /api/users': { body: { user } } });
      await api.GET('/api/users');
      expect(request).toHaveBeenCalledTimes(1);
      expect(net.calls.map((c) => c.path)).toEqual(['/api/users']);
      expect(net.calls[0].headers.get('authorization')).toBe('Bearer from-other-tab');
    } finally {
      Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    }
  });

  it('unwrap throws an ApiError with the status, code and server message', async () => {
    mockFetch({
      'GET /api/users': { status: 404, body: { statusCode: 404, message: 'Gone', code: 'not_found' } },
    });
    const error = await unwrap(api.GET('/api/users')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'Gone' });
  });
});
