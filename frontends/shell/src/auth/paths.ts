import { useAppConfig } from '@avatar-studio/shared';

export interface AuthPaths {
  login: string;
  signup: string;
  recovery: string;
  resetPassword: string;
}

/** The sign-in screens sit under /auth when a landing page is enabled, else at the root. */
export function authPaths(landingEnabled: boolean): AuthPaths {
  const prefix = landingEnabled ? '/auth' : '';
  return {
    login: `${prefix}/login`,
    signup: `${prefix}/signup`,
    recovery: `${prefix}/recovery`,
    // The backend's reset e-mail links here in both modes.
    resetPassword: '/auth/reset-password',
  };
}

export function useAuthPaths(): AuthPaths {
  return authPaths(useAppConfig().feature('landing_enabled'));
}

/** The email verification page: open signed in or not. */
export const VERIFY_EMAIL_PATH = '/auth/verify-email';

/** Paths on which a signed-in user is sent to /; the verification page is not one. */
export function isLoginPath(pathname: string): boolean {
  if (pathname.replace(/\/+$/, '') === VERIFY_EMAIL_PATH) return false;
  return /^\/(auth(\/.*)?|login|signup|recovery|reset-password)\/?$/.test(pathname);
}
