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
