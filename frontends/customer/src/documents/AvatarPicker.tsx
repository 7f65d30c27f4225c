import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAvatarList } from '../avatars/api';

/**
 * Chooses one of the caller's avatars to write into a document. Super Fetch assistants are left out: they write
 * Super Fetch outputs, and the API refuses them here.
 */
export function AvatarPicker({
  value,
  error,
  onChange,
}: {
  value: number | null;
  error?: string | null;
  onChange: (avatarId: number | null) => void;
}) {
  const { t } = useTranslation('customer');
  const avatars = useAvatarList(false, '');
  const data = (avatars.data?.avatars ?? [])
    .filter((avatar) => !avatar.super_fetch_assistant)
    .map((avatar) => ({ value: String(avatar.avatar_id), label: avatar.name }));
  return (
    <Select
      label={t('documents.avatars.avatar')}
      placeholder={t('documents.avatars.choose')}
      data={data}
      value={value === null ? null : String(value)}
      onChange={(chosen) => onChange(chosen ? Number(chosen) : null)}
      searchable
      nothingFoundMessage={t('documents.avatars.none')}
      error={error ?? (avatars.isSuccess && data.length === 0 ? t('documents.avatars.none') : undefined)}
      disabled={avatars.isPending}
    />
  );
}
