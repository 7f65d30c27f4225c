import {
  Button,
  Card,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { ConfirmModal, notifySuccess, useCan, useDebouncedValue, useSession } from '@avatar-studio/shared';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { OutOfCreditsNotice } from '../access';
import { useAvatarList, useCreateAvatar, useDeleteAvatar, type Avatar } from './api';

/**
 * My avatars, or the community's (public) when the path contains 'community': a debounced search, an add
 * modal, cards to each avatar's page, and delete for admins. Without access, the out-of-credits notice.
 */
export function AvatarsPage() {
  const { t } = useTranslation('customer');
  const { user, staffRole } = useSession();
  const community = useLocation().pathname.includes('community');
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const hasAccess = !!user?.has_access || staffRole !== null;
  const list = useAvatarList(community, query, hasAccess);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Avatar | null>(null);
  const canDelete = useCan('avatar.delete');
  const create = useCreateAvatar((avatar) => {
    setAdding(false);
    navigate(`/avatars/${avatar.avatar_id}`);
  });
  const remove = useDeleteAvatar(() => {
    setDeleting(null);
    notifySuccess(t('avatars.deleted'));
  });

  if (!hasAccess) return <OutOfCreditsNotice />;
  const avatars = list.data?.avatars ?? [];
  return (
    <Stack p="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {community ? t('avatars.communityTitle') : t('avatars.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          {t('avatars.add')}
        </Button>
      </Group>
      <Group>
        <SegmentedControl
          value={community ? 'community' : 'mine'}
          onChange={(value) => navigate(value === 'community' ? '/avatars/community' : '/avatars')}
          data={[
            { value: 'mine', label: t('avatars.mine') },
            { value: 'community', label: t('avatars.community') },
          ]}
        />
        <TextInput
          label={t('avatars.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
      </Group>
      {list.isSuccess && avatars.length === 0 && <Text c="dimmed">{t('avatars.empty')}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {avatars.map((avatar) => (
          <Card key={avatar.avatar_id} withBorder radius="md">
            <Stack gap="xs">
              <Text fw={600} component={Link} to={`/avatars/${avatar.avatar_id}`}>
                {avatar.name}
              </Text>
              {avatar.description && (
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {avatar.description}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {t('avatars.files', { count: avatar.avatar_files.length })}
              </Text>
              <Group justify="space-between">
                <Button component={Link} to={`/avatars/${avatar.avatar_id}`} variant="light" size="xs">
                  {t('avatars.open')}
                </Button>
                {canDelete && (
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    onClick={() => setDeleting(avatar)}
                    aria-label={`${t('avatars.delete')} ${avatar.name}`}
                  >
                    {t('avatars.delete')}
                  </Button>
                )}
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <AddAvatarModal
        opened={adding}
        onClose={() => setAdding(false)}
        saving={create.isPending}
        onSubmit={(values) => create.mutate(values)}
      />
      <ConfirmModal
        opened={deleting !== null}
        title={t('avatars.deleteTitle')}
        body={t('avatars.deleteBody')}
        cancelLabel={t('avatars.cancel')}
        confirmLabel={t('avatars.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.avatar_id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

function AddAvatarModal({
  opened,
  onClose,
  saving,
  onSubmit,
}: {
  opened: boolean;
  onClose: () => void;
  saving: boolean;
  onSubmit: (values: { name: string; description: string }) => void;
}) {
  const { t } = useTranslation('customer');
  return (
    <Modal opened={opened} onClose={onClose} title={t('avatars.form.title')}>
      {opened && <AddAvatarForm saving={saving} onSubmit={onSubmit} onClose={onClose} />}
    </Modal>
  );
}

function AddAvatarForm({
  saving,
  onSubmit,
  onClose,
}: {
  saving: boolean;
  onSubmit: (values: { name: string; description: string }) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('customer');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('avatars.form.nameRequired'));
      return;
    }
    onSubmit({ name: name.trim(), description });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('avatars.form.name')}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          required
          data-autofocus
        />
        <Textarea
          label={t('avatars.form.description')}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          autosize
          minRows={2}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('avatars.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('avatars.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
