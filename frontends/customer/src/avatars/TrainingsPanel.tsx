import {
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  Paper,
  Progress,
  Spoiler,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ConfirmModal, notifySuccess, useRealtimeEvent, useScopeKey } from '@avatar-studio/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  trainingKeys,
  useCreateTraining,
  useDeleteTraining,
  useTrainingAction,
  useTrainings,
  type Avatar,
  type Training,
  type TrainingAction,
  type TrainingPage,
} from './api';

const ACCEPT = '.txt,.csv,.jsonl,.docx,.pdf,.pptx';
const STATE_COLOR = {
  draft: 'gray',
  queued: 'blue',
  running: 'blue',
  ready: 'green',
  failed: 'red',
} as const;
const DONE_MESSAGE = { execute: 'executed', sync: 'synced', refine: 'refined' } as const;
const running = (t: Training) => t.state === 'queued' || t.state === 'running';

/**
 * The avatar's trainings: a new one from a dataset (uploaded with progress), each with its state and live
 * progress (`training_progress`), execute, sync, refine and delete for its managers, and the cost notice when the
 * scope's own AI key pays. A 412 leads to /sorry; the list reloads after every action.
 */
export function TrainingsPanel({ avatar }: { avatar: Avatar }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const trainings = useTrainings(avatar.avatar_id);
  const [deleting, setDeleting] = useState<Training | null>(null);
  const onNoAccess = () => navigate('/sorry');
  const action = useTrainingAction(avatar.avatar_id, {
    onDone: (done: TrainingAction) => notifySuccess(t(`avatars.trainings.${DONE_MESSAGE[done]}`)),
    onNoAccess,
  });
  const remove = useDeleteTraining(avatar.avatar_id, {
    onDone: () => {
      setDeleting(null);
      notifySuccess(t('avatars.trainings.deleted'));
    },
    onNoAccess,
  });

  // Progress arrives as the run goes: the row is updated in place, and the list reloads when a run ends.
  useRealtimeEvent('training_progress', (payload) => {
    if (payload.avatar_id !== avatar.avatar_id) return;
    queryClient.setQueryData<TrainingPage>(trainingKeys.ofAvatar(scope, avatar.avatar_id), (page) =>
      page
        ? {
            ...page,
            trainings: page.trainings.map((row) =>
              row.training_id === payload.training_id
                ? {
                    ...row,
                    state: payload.state,
                    stage: payload.stage,
                    progress: payload.progress,
                    error: payload.error,
                  }
                : row,
            ),
          }
        : page,
    );
    if (payload.state === 'ready' || payload.state === 'failed')
      void queryClient.invalidateQueries({ queryKey: trainingKeys.ofAvatar(scope, avatar.avatar_id) });
  });

  const list = trainings.data?.trainings ?? [];
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('avatars.trainings.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('avatars.trainings.help')}
      </Text>
      {trainings.data?.own_key_pays && (
        <Alert color="yellow" variant="light" role="note">
          {t('avatars.trainings.costNotice')}
        </Alert>
      )}
      {avatar.can_manage && <NewTraining avatarId={avatar.avatar_id} onNoAccess={onNoAccess} />}
      {trainings.isSuccess && list.length === 0 && <Text size="sm">{t('avatars.trainings.none')}</Text>}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {list.map((training) => (
          <Paper key={training.training_id} component="li" withBorder radius="md" p="sm">
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>{training.name}</Text>
                <Badge
                  variant="light"
                  color={STATE_COLOR[training.state]}
                  c={`${STATE_COLOR[training.state]}.9`}
                  tt="none"
                >
                  {t(`avatars.trainings.state.${training.state}`)}
                </Badge>
              </Group>
              {training.file && (
                <Text size="xs" c="dimmed">
                  {training.file.name}
                </Text>
              )}
              {running(training) && (
                <Stack gap={2}>
                  <Progress
                    value={training.progress}
                    aria-label={t('avatars.trainings.progress', { name: training.name })}
                  />
                  {training.stage && <Text size="xs">{t(`avatars.trainings.stage.${training.stage}`)}</Text>}
                </Stack>
              )}
              {training.state === 'failed' && training.error && (
                <Text size="sm" c="red.8">
                  {training.error}
                </Text>
              )}
              {training.style_guide && (
                <Spoiler maxHeight={60} showLabel="…" hideLabel="↑">
                  <Text size="xs" fw={600}>
                    {t('avatars.trainings.styleGuide')}
                  </Text>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {training.style_guide}
                  </Text>
                </Spoiler>
              )}
              {training.can_manage && (
                <Group gap="xs">
                  {(['execute', 'sync', 'refine'] as const).map((name) => (
                    <Button
                      key={name}
                      size="xs"
                      variant={name === 'execute' ? 'filled' : 'default'}
                      disabled={running(training) || (name === 'refine' && !training.style_guide)}
                      loading={
                        action.isPending &&
                        action.variables?.training_id === training.training_id &&
                        action.variables.action === name
                      }
                      onClick={() => action.mutate({ action: name, training_id: training.training_id })}
                    >
                      {t(`avatars.trainings.${name}`)}
                    </Button>
                  ))}
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    c="red.9"
                    onClick={() => setDeleting(training)}
                  >
                    {t('avatars.trainings.delete')}
                  </Button>
                </Group>
              )}
            </Stack>
          </Paper>
        ))}
      </Stack>
      <ConfirmModal
        opened={deleting !== null}
        title={t('avatars.trainings.deleteTitle')}
        body={t('avatars.trainings.deleteBody')}
        cancelLabel={t('avatars.cancel')}
        confirmLabel={t('avatars.trainings.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.training_id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

/** A new training: its name and dataset file (uploaded first, with progress). */
function NewTraining({ avatarId, onNoAccess }: { avatarId: number; onNoAccess: () => void }) {
  const { t } = useTranslation('customer');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ name?: string; file?: string }>({});
  const [progress, setProgress] = useState<number | null>(null);
  const create = useCreateTraining(avatarId, setProgress, {
    onDone: () => {
      setName('');
      setFile(null);
      notifySuccess(t('avatars.saved'));
    },
    onNoAccess,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      name: name.trim() ? undefined : t('avatars.trainings.nameRequired'),
      file: file ? undefined : t('avatars.trainings.datasetRequired'),
    };
    setErrors(found);
    if (found.name || found.file || !file) return;
    setProgress(0);
    create.mutate({ name: name.trim(), file }, { onSettled: () => setProgress(null) });
  };
  return (
    <Paper withBorder radius="md" p="sm" component="form" onSubmit={submit} noValidate>
      <Stack gap="xs">
        <TextInput
          label={t('avatars.trainings.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          required
        />
        <FileInput
          label={t('avatars.trainings.dataset')}
          accept={ACCEPT}
          value={file}
          onChange={setFile}
          error={errors.file}
          required
          clearable
        />
        {progress !== null && file && (
          <Progress
            value={progress * 100}
            aria-label={t('avatars.trainings.uploading', { name: file.name })}
          />
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            {t('avatars.trainings.create')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
