import { Alert, Anchor, Button, Grid, Group, Paper, Stack, Tabs, Text, Textarea, Title } from '@mantine/core';
import { PageLoader, notifySuccess } from '@avatar-studio/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useAvatar, useSaveContext, type Avatar } from './api';
import { AvatarActions } from './AvatarActions';
import { AvatarChat } from './AvatarChat';
import { AvatarFilesPanel } from './AvatarFilesPanel';
import { OutputsPanel } from './OutputsPanel';
import { TrainingsPanel } from './TrainingsPanel';

const TABS = ['chat', 'trainings', 'outputs'] as const;
type Tab = (typeof TABS)[number];

/**
 * One avatar: an empty context first offers to start a training; then its context (editable by its owner or an
 * admin), once it has one its files panel, and beside them the caller's chat with it, its trainings and outputs.
 */
export function AvatarPage() {
  const { t } = useTranslation('customer');
  const params = useParams();
  const navigate = useNavigate();
  const id = Number(params.avatar_id);
  const avatar = useAvatar(id);
  // The tab is in the address (/avatars/{id}/trainings, /outputs), so it can be linked to and kept on reload.
  const tab: Tab = TABS.find((name) => name === params['*']) ?? 'chat';
  const setTab = (next: Tab) => navigate(`/avatars/${id}${next === 'chat' ? '' : `/${next}`}`);
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
        <Group gap="md">
          {data.can_manage && <AvatarActions avatar={data} />}
          <Anchor component={Link} to="/avatars">
            {t('avatars.back')}
          </Anchor>
        </Group>
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            {data.can_manage && !data.context.trim() && (
              <StartTrainingCard onStart={() => setTab('trainings')} />
            )}
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
          <Tabs value={tab} onChange={(value) => value && setTab(value as Tab)} keepMounted={false}>
            <Tabs.List mb="sm">
              <Tabs.Tab value="chat">{t('avatars.tabs.chat')}</Tabs.Tab>
              <Tabs.Tab value="trainings">{t('avatars.tabs.trainings')}</Tabs.Tab>
              <Tabs.Tab value="outputs">{t('avatars.tabs.outputs')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="chat">
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
            </Tabs.Panel>
            <Tabs.Panel value="trainings">
              <TrainingsPanel avatar={data} />
            </Tabs.Panel>
            <Tabs.Panel value="outputs">
              <OutputsPanel avatar={data} />
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** Shown while the avatar has no context: a training can give it knowledge and a style instead. */
function StartTrainingCard({ onStart }: { onStart: () => void }) {
  const { t } = useTranslation('customer');
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('avatars.start.title')}
        </Title>
        <Text size="sm">{t('avatars.start.body')}</Text>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('avatars.start.orContext')}
          </Text>
          <Button onClick={onStart}>{t('avatars.start.action')}</Button>
        </Group>
      </Stack>
    </Paper>
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
