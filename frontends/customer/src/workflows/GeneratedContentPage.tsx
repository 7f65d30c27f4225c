import { Alert, Badge, Button, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import {
  PageLoader,
  useMessageStream,
  useRealtimeEvent,
  useScopeKey,
  useSession,
} from '@avatar-studio/shared';
import { Markdown } from '../conversations/Markdown';
import { useRegenerateStep, useStepMessages, useUserWorkflow, userWorkflowKeys } from './api';
import {
  isBusy,
  mergeMessages,
  readStepStatusEvent,
  type Message,
  type UserWorkflow,
  type UserWorkflowStep,
} from './model';
import { UpgradePrompt } from '../access';
import { STATUS_COLOR } from './UserWorkflowPage';

/**
 * /user_workflows/{user_workflow_id}/conversation/{conversation_id}: the content one step generated,
 * streaming in live, with Regenerate (hidden from users without access) and Back.
 */
export function GeneratedContentPage() {
  const { t } = useTranslation('customer');
  const params = useParams<{ user_workflow_id: string; conversation_id: string }>();
  const id = Number(params.user_workflow_id);
  const conversationId = Number(params.conversation_id);
  const { query, valid } = useUserWorkflow(id);
  const step = query.data?.user_workflow_templates.find((s) => s.conversation_id === conversationId);
  if (!valid || query.isError || (query.data && !step)) {
    return (
      <Container size="md" py="lg">
        <Alert color="red">{t('workflows.content.notFound')}</Alert>
        <Button
          component={Link}
          to={valid ? `/user_workflows/${id}` : '/user_workflows'}
          variant="subtle"
          mt="md"
        >
          {t('workflows.content.back')}
        </Button>
      </Container>
    );
  }
  if (!query.data || !step) return <PageLoader />;
  return <ContentScreen key={conversationId} userWorkflow={query.data} step={step} />;
}

function ContentScreen({ userWorkflow, step }: { userWorkflow: UserWorkflow; step: UserWorkflowStep }) {
  const { t } = useTranslation('customer');
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const hasAccess = useSession().user?.has_access ?? false;
  const id = userWorkflow.user_workflow_id;
  const conversationId = step.conversation_id;
  const page = useStepMessages(conversationId);
  /** Saved answers received over the socket since the page loaded; they win over the fetched copies. */
  const [live, setLive] = useState<Message[]>([]);
  /** Answers replaced by a regeneration (the server emptied the conversation). */
  const [replaced, setReplaced] = useState<number[]>([]);
  const stream = useMessageStream(conversationId, {
    onEnd: (saved) =>
      setLive((prev) => [...prev.filter((m) => m.message_id !== saved.message_id), saved as Message]),
  });

  const answers = useMemo(
    () =>
      mergeMessages(page.data?.messages ?? [], live).filter(
        // The prompt is the staff's template: only the generated answers are shown.
        (m) => m.role === 'assistant' && !replaced.includes(m.message_id),
      ),
    [page.data, live, replaced],
  );
  const known = new Set(answers.map((m) => m.message_id));
  // Answers the socket streams before the page has learned of them (e.g. right after a regeneration).
  const newStreams = [...stream.streams]
    .filter(([messageId]) => !known.has(messageId) && !replaced.includes(messageId))
    .map(([messageId, s]) => ({ messageId, text: s.text, streaming: s.status === 'streaming' }));

  // A loaded answer still generating (e.g. after a reload) shows its saved text and asks for the rest.
  const { resume, forget } = stream;
  useEffect(() => {
    for (const m of page.data?.messages ?? []) {
      if (m.role === 'assistant' && m.content === null) resume(m.message_id, m.partial_content ?? '');
    }
  }, [page.data, resume]);

  useRealtimeEvent('message', (payload) => {
    const event = readStepStatusEvent(payload);
    // A step that starts or ends changes the conversation's rows (a new pending answer, or the saved one).
    if (event?.conversation_id !== conversationId) return;
    // An ended step leaves no stream open (a failed one never sends its stream end).
    if (!isBusy(event.status)) forget();
    void queryClient.invalidateQueries({ queryKey: userWorkflowKeys.messages(scope, conversationId) });
  });

  // Keep streams of the new answer (they may already be arriving); drop everything shown before.
  const regenerate = useRegenerateStep(id, conversationId, () =>
    setReplaced((prev) => [...prev, ...answers.map((m) => m.message_id)]),
  );

  const shownText = (m: Message) =>
    m.content ?? stream.streams.get(m.message_id)?.text ?? m.partial_content ?? '';
  const streaming = newStreams.some((s) => s.streaming) || answers.some((m) => m.content === null);
  const generating = isBusy(step.status) || streaming || regenerate.isPending;

  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <Button
          component={Link}
          to={`/user_workflows/${id}`}
          variant="subtle"
          px={0}
          mr="auto"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
        >
          {t('workflows.content.back')}
        </Button>
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {userWorkflow.name}
            </Text>
            <Title order={1} size="h2">
              {step.template?.name ?? t('workflows.user.removedTemplate')}
            </Title>
          </Stack>
          <Group gap="xs">
            <Badge color={STATUS_COLOR[step.status]} variant="light">
              {t(`workflows.user.status.${step.status}`)}
            </Badge>
            <Button
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => regenerate.mutate()}
              disabled={!hasAccess || generating}
              loading={regenerate.isPending}
            >
              {t('workflows.content.regenerate')}
            </Button>
          </Group>
        </Group>
        {!hasAccess && <UpgradePrompt />}
        {step.status === 'failed' && (
          <Alert color="red">{t('workflows.content.failed', { error: step.error ?? '' })}</Alert>
        )}
        {generating && (
          <Group gap="xs" role="status">
            <Loader size="xs" aria-hidden />
            <Text size="sm" c="dimmed">
              {t(regenerate.isPending ? 'workflows.content.regenerating' : 'workflows.content.generating')}
            </Text>
          </Group>
        )}
        {page.isPending ? (
          <Loader aria-label={t('workflows.content.generating')} />
        ) : answers.length === 0 && newStreams.length === 0 ? (
          !generating && <Text c="dimmed">{t('workflows.content.empty')}</Text>
        ) : (
          <>
            {answers.map((m) => (
              <Paper key={m.message_id} withBorder radius="md" p="md" data-testid={`content-${m.message_id}`}>
                <Markdown text={shownText(m)} />
              </Paper>
            ))}
            {newStreams.map((s) => (
              <Paper key={s.messageId} withBorder radius="md" p="md" data-testid={`content-${s.messageId}`}>
                <Markdown text={s.text} />
              </Paper>
            ))}
          </>
        )}
      </Stack>
    </Container>
  );
}
