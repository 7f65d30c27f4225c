import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import {
  notifySuccess,
  SEARCH_DEBOUNCE_MS,
  useDebouncedValue,
  useRealtimeEvent,
  useScopeKey,
} from '@avatar-studio/shared';
import { IconSearch, IconThumbDown, IconThumbUp } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  useDeleteOutput,
  useGenerateOutput,
  useOutputs,
  useRateOutput,
  useSaveOutput,
  useTrainings,
  type Avatar,
  type Output,
} from './api';

/**
 * Outputs of the avatar: it writes what is asked (with a training's style guide when one is chosen), the text
 * streaming in from `output`; each output is rated up or down with a note (a training learns from them when
 * refined), edited or deleted. Searched by free text; a 412 leads to /sorry.
 */
export function OutputsPanel({ avatar }: { avatar: Avatar }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const outputs = useOutputs(avatar.avatar_id, query);
  const trainings = useTrainings(avatar.avatar_id);
  const [prompt, setPrompt] = useState('');
  const [trainingId, setTrainingId] = useState<string | null>(null);
  const [promptError, setPromptError] = useState<string | null>(null);
  /** Text streamed so far of the outputs being written, by id. */
  const [streams, setStreams] = useState<Record<number, string>>({});
  const onNoAccess = () => navigate('/sorry');
  const generate = useGenerateOutput(avatar.avatar_id, { onNoAccess });

  useRealtimeEvent('output', (payload) => {
    if (payload.avatar_id !== avatar.avatar_id) return;
    if (payload.done) {
      setStreams(({ [payload.output_id]: _gone, ...rest }) => rest);
      void queryClient.invalidateQueries({ queryKey: ['avatars', scope, 'outputs', avatar.avatar_id] });
      return;
    }
    setStreams((all) => {
      const sofar = all[payload.output_id] ?? '';
      // Pieces carry their offset: one already received (a resend) is not added twice.
      if (payload.offset < sofar.length) return all;
      return { ...all, [payload.output_id]: sofar + payload.content };
    });
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!prompt.trim()) {
      setPromptError(t('avatars.context.empty'));
      return;
    }
    generate.mutate(
      { prompt: prompt.trim(), ...(trainingId ? { training_id: Number(trainingId) } : {}) },
      { onSuccess: () => setPrompt('') },
    );
  };

  const learned = (trainings.data?.trainings ?? []).filter((row) => row.style_guide);
  const list = outputs.data?.outputs ?? [];
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('avatars.outputs.title')}
      </Title>
      <Paper withBorder radius="md" p="sm" component="form" onSubmit={submit} noValidate>
        <Stack gap="xs">
          <Textarea
            label={t('avatars.outputs.prompt')}
            value={prompt}
            onChange={(e) => {
              setPrompt(e.currentTarget.value);
              setPromptError(null);
            }}
            error={promptError}
            autosize
            minRows={2}
            maxRows={8}
          />
          {learned.length > 0 && (
            <Select
              label={t('avatars.outputs.training')}
              placeholder={t('avatars.outputs.noTraining')}
              data={learned.map((row) => ({ value: String(row.training_id), label: row.name }))}
              value={trainingId}
              onChange={setTrainingId}
              clearable
            />
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={generate.isPending}>
              {t('avatars.outputs.generate')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <TextInput
        aria-label={t('avatars.outputs.search')}
        placeholder={t('avatars.outputs.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      {outputs.isSuccess && list.length === 0 && <Text size="sm">{t('avatars.outputs.none')}</Text>}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {list.map((output) => (
          <OutputCard
            key={`${output.output_id}-${output.updatedAt}`}
            avatarId={avatar.avatar_id}
            output={output}
            streamed={streams[output.output_id]}
            onNoAccess={onNoAccess}
          />
        ))}
      </Stack>
    </Stack>
  );
}

function OutputCard({
  avatarId,
  output,
  streamed,
  onNoAccess,
}: {
  avatarId: number;
  output: Output;
  streamed: string | undefined;
  onNoAccess: () => void;
}) {
  const { t } = useTranslation('customer');
  const [rating, setRating] = useState<'up' | 'down' | null>(output.rating);
  const [note, setNote] = useState(output.rating_note ?? '');
  const [editing, setEditing] = useState(false);
  const [content, setContent] = useState(output.content ?? '');
  const rate = useRateOutput(avatarId, {
    onDone: () => notifySuccess(t('avatars.outputs.rated')),
    onNoAccess,
  });
  const save = useSaveOutput(avatarId, {
    onDone: () => {
      setEditing(false);
      notifySuccess(t('avatars.outputs.saved'));
    },
    onNoAccess,
  });
  const remove = useDeleteOutput(avatarId, {
    onDone: () => notifySuccess(t('avatars.outputs.deleted')),
    onNoAccess,
  });
  const complete = output.status === 'complete';
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Text size="xs" c="dimmed">
          {output.prompt}
        </Text>
        {editing ? (
          <Textarea
            label={t('avatars.outputs.text')}
            value={content}
            onChange={(e) => setContent(e.currentTarget.value)}
            autosize
            minRows={3}
            maxRows={14}
          />
        ) : (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {output.status === 'generating' ? streamed || t('avatars.outputs.writing') : output.content}
          </Text>
        )}
        {output.status === 'failed' && (
          <Text size="sm" c="red.8">
            {t('avatars.outputs.failed')}
          </Text>
        )}
        {complete && (
          <Group gap="xs" align="flex-end">
            <ActionIcon
              variant={rating === 'up' ? 'filled' : 'default'}
              aria-label={t('avatars.outputs.good')}
              aria-pressed={rating === 'up'}
              onClick={() => setRating('up')}
            >
              <IconThumbUp size={16} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant={rating === 'down' ? 'filled' : 'default'}
              aria-label={t('avatars.outputs.bad')}
              aria-pressed={rating === 'down'}
              onClick={() => setRating('down')}
            >
              <IconThumbDown size={16} aria-hidden />
            </ActionIcon>
            {rating && (
              <>
                <TextInput
                  size="xs"
                  style={{ flex: 1 }}
                  aria-label={t('avatars.outputs.note')}
                  placeholder={t('avatars.outputs.note')}
                  value={note}
                  onChange={(e) => setNote(e.currentTarget.value)}
                />
                <Button
                  size="xs"
                  variant="default"
                  loading={rate.isPending}
                  onClick={() =>
                    rate.mutate({
                      output_id: output.output_id,
                      rating,
                      ...(note.trim() ? { note: note.trim() } : {}),
                    })
                  }
                >
                  {t('avatars.outputs.rate')}
                </Button>
              </>
            )}
          </Group>
        )}
        {output.status !== 'generating' && (
          <Group gap="xs">
            {editing ? (
              <Button
                size="xs"
                loading={save.isPending}
                onClick={() => content.trim() && save.mutate({ output_id: output.output_id, content })}
              >
                {t('avatars.outputs.save')}
              </Button>
            ) : (
              <Button size="xs" variant="default" onClick={() => setEditing(true)}>
                {t('avatars.outputs.edit')}
              </Button>
            )}
            <Button
              size="xs"
              variant="subtle"
              color="red"
              c="red.9"
              loading={remove.isPending}
              onClick={() => remove.mutate(output.output_id)}
            >
              {t('avatars.outputs.delete')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
