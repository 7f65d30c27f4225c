import { Alert, Anchor, Button, Grid, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { PageLoader, notifySuccess } from '@avatar-studio/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useAvatar, useSaveContext, type Avatar } from './api';
import { AvatarChat } from './AvatarChat';
import { AvatarFilesPanel } from './AvatarFilesPanel';

/**
 * One avatar: its context (editable by its owner or an admin), then, once it has a context, its files panel,
 * and the caller's chat with it. Trainings do not exist yet, so an empty context shows the context editor first.
 */
export function AvatarPage() {
  const { t } = useTranslation('customer');
  const id = Number(useParams().avatar_id);
  const avatar = useAvatar(id);
  if (avatar.isError)
    return (
      <Alert color="red" m="md">
        {t('avatars.notFound')}
      </Alert>
    );
  if (!avatar.data) return <PageLoader />;
  const data = avatar.data;
  return (
    <Stack p="md" gap="md" style={{ height: '100%' }}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {data.name}
        </Title>
        <Anchor component={Link} to="/avatars">
          {t('avatars.back')}
        </Anchor>
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            {data.can_manage ? (
              <ContextCard avatar={data} key={data.updatedAt} />
            ) : (
              <ReadOnly avatar={data} />
            )}
            {data.can_manage &&
              (data.context.trim() ? (
                <AvatarFilesPanel avatar={data} />
              ) : (
                <Text size="sm" c="dimmed">
                  {t('avatars.knowledge.addContextFirst')}
                </Text>
              ))}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper
            withBorder
            radius="md"
            p="sm"
            style={{ height: 600, display: 'flex', flexDirection: 'column' }}
          >
            <Title order={2} size="h4" mb="xs">
              {t('avatars.chat.title')}
            </Title>
            <AvatarChat avatarId={data.avatar_id} />
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function ReadOnly({ avatar }: { avatar: Avatar }) {
  const { t } = useTranslation('customer');
  return (
    <Paper withBorder radius="md" p="md">
      {avatar.description && <Text>{avatar.description}</Text>}
      <Text size="sm" c="dimmed">
        {t('avatars.context.readOnly')}
      </Text>
    </Paper>
  );
}

/** The avatar's context: it cannot be saved empty ("The input can't be empty"). */
function ContextCard({ avatar }: { avatar: Avatar }) {
  const { t } = useTranslation('customer');
  const [context, setContext] = useState(avatar.context);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveContext(avatar.avatar_id, () => notifySuccess(t('avatars.saved')));
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('avatars.context.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('avatars.context.help')}
        </Text>
        <Textarea
          label={t('avatars.context.label')}
          value={context}
          onChange={(e) => {
            setContext(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          autosize
          minRows={4}
          maxRows={12}
        />
        <Group justify="flex-end">
          <Button
            loading={save.isPending}
            onClick={() => {
              if (!context.trim()) setError(t('avatars.context.empty'));
              else save.mutate({ context });
            }}
          >
            {t('avatars.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
