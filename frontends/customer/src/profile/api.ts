/** Server state of the profile screen: the caller's own user (not organization data), one hook per mutation. */
import { api, notifyError, unwrap, uploadFile, type ApiSchemas, type User } from '@avatar-studio/shared';
import { useMutation } from '@tanstack/react-query';

export type ProfileChanges = Pick<
  NonNullable<ApiSchemas['UpdateUserDto']>,
  'name' | 'last_name' | 'company' | 'phone' | 'birthday'
>;

/** PUT /api/users: the profile fields. */
export function useSaveProfile(onSaved: (saved: User) => void) {
  return useMutation({
    mutationFn: async (changes: ProfileChanges) =>
      (await unwrap(api.PUT('/api/users', { body: changes }))).user,
    onSuccess: onSaved,
    onError: (error) => notifyError(error),
  });
}

/** The profile image is saved at once: uploaded (POST /api/files), then its src stored as user.file. */
export function useUploadProfileImage(onSaved: (saved: User) => void) {
  return useMutation({
    mutationFn: async (file: File) => {
      const src = await uploadFile(file);
      return (await unwrap(api.PUT('/api/users', { body: { file: src } }))).user;
    },
    onSuccess: onSaved,
    onError: (error) => notifyError(error),
  });
}
