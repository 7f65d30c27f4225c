import { randomBytes } from 'node:crypto';
import { readState } from './server';

/** What POST /api/auth/login and /api/auth/signup answer (the fields the tests use). */
export interface SessionPair {
  access_token: string;
  refresh_token: string;
  user: { user_id: number; email: string; name: string; last_name: string };
}

export interface Credentials {
  email: string;
  password: string;
}

export interface NewUser extends Credentials {
  name: string;
  last_name: string;
  phone: string;
}

/** A fresh address per call, so test files never collide with each other or with an earlier run. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@e2e.test`;
}

export function newUserData(prefix = 'user'): NewUser {
  return {
    name: 'Ada',
    last_name: 'Lovelace',
    email: uniqueEmail(prefix),
    password: 'pass-word-123',
    phone: '5551234567',
  };
}

export function adminCredentials(): Credentials {
  const { adminEmail, adminPassword } = readState();
  return { email: adminEmail, password: adminPassword };
}

/** Calls the API of the server under test; throws with the answer's body on a non-2xx status. */
export async function apiCall<T>(
  method: string,
  path: string,
  body?: unknown,
  accessToken?: string,
): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  const response = await fetch(`${readState().baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export function login(credentials: Credentials): Promise<SessionPair> {
  return apiCall<SessionPair>('POST', '/api/auth/login', {
    email: credentials.email,
    password: credentials.password,
  });
}

/** Creates a customer account through the API (as the sign-up form would) and answers its credentials. */
export async function signUpViaApi(prefix = 'user'): Promise<NewUser & { session: SessionPair }> {
  const user = newUserData(prefix);
  const session = await apiCall<SessionPair>('POST', '/api/auth/signup', {
    ...user,
    confirm_password: user.password,
    signup_reason: 'Recommendation',
  });
  return { ...user, session };
}

/** Sets app config keys as the staff admin (PUT /api/appconfig), e.g. to restore what a test changed. */
export async function setAppConfig(values: Record<string, string | null>): Promise<void> {
  const admin = adminCredentials();
  const { access_token } = await login(admin);
  await apiCall(
    'PUT',
    '/api/appconfig',
    // The password is needed when a secret setting changes.
    { config: Object.entries(values).map(([key, value]) => ({ key, value })), password: admin.password },
    access_token,
  );
}
