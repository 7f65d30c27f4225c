/** Server state of the settings screen: the caller's own user (not organization data), one hook per mutation. */
import { api, notifyError, unwrap, type ApiSchemas, type User } from '@avatar-studio/shared';
import { useMutation } from '@tanstack/react-query';

export type SettingsChanges = Pick<
  NonNullable<ApiSchemas['UpdateUserDto']>,
  'zappier_webhook_url' | 'lang' | 'manual_mode' | 'dark_mode'
>;

/** PUT /api/users: webhook, language, manual mode and dark mode. */
export function useSaveSettings(onSaved: (saved: User) => void) {
  return useMutation({
    mutationFn: async (changes: SettingsChanges) =>
      (await unwrap(api.PUT('/api/users', { body: changes }))).user,
    onSuccess: onSaved,
    onError: (error) => notifyError(error),
  });
}

/** What creating a key asks: the current password, a lifetime, and (staff only) whether it carries the role. */
export type ApiKeyRequest = NonNullable<ApiSchemas['CreateApiKeyDto']>;

/** POST /api/users/api-key: a new personal key, shown once (the server keeps only its hash). */
export function useGenerateApiKey(
  onGenerated: (key: string) => Promise<void>,
  onError: (error: Error) => void = notifyError,
) {
  return useMutation({
    mutationFn: async (body: ApiKeyRequest) =>
      (await unwrap(api.POST('/api/users/api-key', { body }))).api_key,
    onSuccess: onGenerated,
    onError,
  });
}

/** DELETE /api/users/api-key. */
export function useRevokeApiKey(onRevoked: () => Promise<void>) {
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/users/api-key')),
    onSuccess: onRevoked,
    onError: (error) => notifyError(error),
  });
}

/** POST /api/auth/verify-email/resend: a new verification link to the caller's address. */
export function useResendVerification(onSent: () => void) {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/verify-email/resend')),
    onSuccess: onSent,
    onError: (error) => notifyError(error),
  });
}

/** POST /api/auth/logout-all: ends every session of the caller and their API key. */
export function useSignOutEverywhere(onDone: () => void) {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/logout-all')),
    onSuccess: onDone,
    onError: (error) => notifyError(error),
  });
}

/** DELETE /api/users: deletes the caller's account; the current password confirms it. */
export function useDeleteAccount(onDeleted: () => void, onError: (error: Error) => void) {
  return useMutation({
    mutationFn: (password: string) => unwrap(api.DELETE('/api/users', { body: { password } })),
    onSuccess: onDeleted,
    onError,
  });
}

const startTwoFactor = () => unwrap(api.POST('/api/auth/2fa/setup'));
export type TwoFactorSetup = Awaited<ReturnType<typeof startTwoFactor>>;

/** POST /api/auth/2fa/setup: a new TOTP secret to enrol (not active until a code confirms it). */
export function useStartTwoFactor(onStarted: (setup: TwoFactorSetup) => void) {
  return useMutation({
    mutationFn: startTwoFactor,
    onSuccess: onStarted,
    onError: (error) => notifyError(error),
  });
}

/** POST /api/auth/2fa/enable: a code from the authenticator confirms the enrolment. */
export function useEnableTwoFactor(onEnabled: () => Promise<void>, onError: (error: Error) => void) {
  return useMutation({
    mutationFn: (code: string) => unwrap(api.POST('/api/auth/2fa/enable', { body: { code } })),
    onSuccess: onEnabled,
    onError,
  });
}

/** POST /api/auth/2fa/disable: the password and a current code turn two-factor off. */
export function useDisableTwoFactor(onDisabled: () => Promise<void>, onError: (error: Error) => void) {
  return useMutation({
    mutationFn: (body: { password: string; code: string }) =>
      unwrap(api.POST('/api/auth/2fa/disable', { body })),
    onSuccess: onDisabled,
    onError,
  });
}

/** POST /api/users/resetDefaultAvatar: a fresh default avatar (Super Fetch assistant); answers the user. */
export function useResetDefaultAvatar(onReset: (user: User) => void) {
  return useMutation({
    mutationFn: async () => (await unwrap(api.POST('/api/users/resetDefaultAvatar'))).user,
    onSuccess: onReset,
    onError: (error) => notifyError(error),
  });
}
