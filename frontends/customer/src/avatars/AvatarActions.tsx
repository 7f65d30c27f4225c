import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifySuccess } from '@avatar-studio/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAvatarList, useCombineAvatars, useRefineAvatar, useTrainings, type Avatar } from './api';

/**
 * The avatar's own actions for its owner or an admin: refine (its context rewritten from its rated outputs; the
 * page reloads it) and combine (a new avatar from this one and another, opened once made). A 412 leads to /sorry.
 */
export function AvatarActions({ avatar }: { avatar: Avatar }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const [combining, setCombining] = useState(false);
  const onNoAccess = () => navigate('/sorry');
  const refine = useRefineAvatar(avatar.avatar_id, {
    onDone: () => notifySuccess(t('avatars.actions.refined')),
    onNoAccess,
  });
  return (
    <Group gap="xs">
      <Button
        variant="light"
        loading={refine.isPending}
        title={t('avatars.actions.refineHelp')}
        onClick={() => refine.mutate()}
      >
        {t('avatars.actions.refine')}
      </Button>
      <Button variant="light" onClick={() => setCombining(true)}>
        {t('avatars.actions.combine')}
      </Button>
      <Modal opened={combining} onClose={() => setCombining(false)} title={t('avatars.actions.combineTitle')}>
        {combining && (
          <CombineForm
            avatar={avatar}
            onClose={() => setCombining(false)}
            onNoAccess={onNoAccess}
            onMade={(made) => {
              setCombining(false);
              notifySuccess(t('avatars.actions.combined'));
              navigate(`/avatars/${made.avatar_id}`);
            }}
          />
        )}
      </Modal>
    </Group>
  );
}

function CombineForm({
  avatar,
  onClose,
  onMade,
  onNoAccess,
}: {
  avatar: Avatar;
  onClose: () => void;
  onMade: (made: Avatar) => void;
  onNoAccess: () => void;
}) {
  const { t } = useTranslation('customer');
  const list = useAvatarList(false, '');
  const [otherId, setOtherId] = useState<string | null>(null);
  const [trainingId, setTrainingId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const others = (list.data?.avatars ?? []).filter((a) => a.can_manage && a.avatar_id !== avatar.avatar_id);
  const trainings = useTrainings(Number(otherId ?? 0), !!otherId);
  // Only an executed training has a style guide to give.
  const executed = (trainings.data?.trainings ?? []).filter((tr) => tr.style_guide.trim());
  const combine = useCombineAvatars(avatar.avatar_id, { onDone: onMade, onNoAccess });
  const submit = () => {
    if (!name.trim()) {
      setNameError(t('avatars.actions.nameRequired'));
      return;
    }
    if (!otherId || !trainingId) return;
    combine.mutate({
      target_avatar_id: Number(otherId),
      target_training_id: Number(trainingId),
      name: name.trim(),
    });
  };
  if (list.isSuccess && others.length === 0) return <Text>{t('avatars.actions.noOtherAvatars')}</Text>;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('avatars.actions.combineHelp')}
      </Text>
      <Select
        label={t('avatars.actions.otherAvatar')}
        data={others.map((a) => ({ value: String(a.avatar_id), label: a.name }))}
        value={otherId}
        onChange={(value) => {
          setOtherId(value);
          setTrainingId(null);
        }}
        searchable
      />
      {otherId && trainings.isSuccess && executed.length === 0 ? (
        <Text size="sm">{t('avatars.actions.noTrainings')}</Text>
      ) : (
        <Select
          label={t('avatars.actions.training')}
          data={executed.map((tr) => ({ value: String(tr.training_id), label: tr.name }))}
          value={trainingId}
          onChange={setTrainingId}
          disabled={!otherId}
        />
      )}
      <TextInput
        label={t('avatars.actions.name')}
        value={name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          setNameError(null);
        }}
        error={nameError}
        maxLength={255}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('avatars.cancel')}
        </Button>
        <Button disabled={!otherId || !trainingId} loading={combine.isPending} onClick={submit}>
          {t('avatars.actions.create')}
        </Button>
      </Group>
    </Stack>
  );
}
