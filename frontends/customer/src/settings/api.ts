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

/** POST /api/users/api-key: a new personal key, shown once (the server keeps only its hash). */
export function useGenerateApiKey(onGenerated: (key: string) => Promise<void>) {
  return useMutation({
    mutationFn: async () => (await unwrap(api.POST('/api/users/api-key'))).api_key,
    onSuccess: onGenerated,
    onError: (error) => notifyError(error),
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
