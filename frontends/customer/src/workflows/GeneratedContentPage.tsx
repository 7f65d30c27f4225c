import { Alert, Badge, Button, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageLoader, notifyError, unwrap, useRealtimeEvent, useSession } from '@avatar-studio/shared';
import { api } from '@avatar-studio/shared';
import { Markdown } from '../conversations/Markdown';
import {
  USER_WORKFLOWS_KEY,
  isBusy,
  isNoAccess,
  mergeMessages,
  readStepStatusEvent,
  retryServerErrors,
  type Message,
  type UserWorkflow,
  type UserWorkflowStep,
} from './model';
import { UpgradePrompt } from '../access';
import { STATUS_COLOR, useUserWorkflow } from './UserWorkflowPage';

/**
 * Spec 001 §2 /user_workflows/{user_workflow_id}/conversation/{conversation_id}: the content one step generated,
 * streaming in live, with Regenerate (not for users without access, §6) and Back.
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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hasAccess = useSession().user?.has_access ?? false;
  const id = userWorkflow.user_workflow_id;
  const conversationId = step.conversation_id;
  const messagesKey = [USER_WORKFLOWS_KEY, 'messages', conversationId];

  const page = useQuery({
    queryKey: messagesKey,
    queryFn: () =>
      unwrap(
        api.GET('/api/messages/conversation/{conversation_id}', {
          params: { path: { conversation_id: conversationId }, query: { page: 1 } },
        }),
      ),
    retry: retryServerErrors,
  });
  /** Saved answers received over the socket since the page loaded; they win over the fetched copies. */
  const [live, setLive] = useState<Message[]>([]);
  /** Text streamed so far per answer still being generated (message id → text). */
  const [streams, setStreams] = useState<Record<number, string>>({});
  /** Answers replaced by a regeneration (the server emptied the conversation). */
  const [replaced, setReplaced] = useState<number[]>([]);

  const answers = useMemo(
    () =>
      mergeMessages(page.data?.messages ?? [], live).filter(
        // The prompt is the staff's template: only the generated answers are shown.
        (m) => m.role === 'assistant' && !replaced.includes(m.message_id),
      ),
    [page.data, live, replaced],
  );
  const known = new Set(answers.map((m) => m.message_id));
  const newStreams = Object.entries(streams)
    .map(([messageId, text]) => ({ messageId: Number(messageId), text }))
    .filter((s) => !known.has(s.messageId) && !replaced.includes(s.messageId));

  useRealtimeEvent('message_stream', (payload) => {
    if (Number(payload.conversation_id) !== conversationId) return;
    const messageId = Number(payload.message_id);
    // Functional: several deltas may arrive before the next render.
    setStreams((prev) => ({ ...prev, [messageId]: (prev[messageId] ?? '') + payload.content }));
  });
  useRealtimeEvent('message_stream_end', (payload) => {
    if (Number(payload.conversation_id) !== conversationId) return;
    const saved = payload.message as unknown as Message;
    setLive((prev) => [...prev.filter((m) => m.message_id !== saved.message_id), saved]);
    setStreams((prev) => {
      const next = { ...prev };
      delete next[saved.message_id];
      return next;
    });
  });
  useRealtimeEvent('message', (payload) => {
    const event = readStepStatusEvent(payload);
    // A step that starts or ends changes the conversation's rows (a new pending answer, or the saved one).
    if (event?.conversation_id !== conversationId) return;
    // An ended step leaves no stream open (a failed one never sends its stream end).
    if (!isBusy(event.status)) setStreams({});
    void queryClient.invalidateQueries({ queryKey: messagesKey });
  });

  const regenerate = useMutation({
    mutationFn: async () =>
      (
        await unwrap(
          api.POST('/api/user_workflows/{user_workflow_id}/regenerate/{conversation_id}', {
            params: { path: { user_workflow_id: id, conversation_id: conversationId } },
          }),
        )
      ).user_workflow,
    onSuccess: (saved) => {
      queryClient.setQueryData([USER_WORKFLOWS_KEY, 'one', id], saved);
      // Keep streams of the new answer (they may already be arriving); drop everything shown before.
      setReplaced((prev) => [...prev, ...answers.map((m) => m.message_id)]);
      void queryClient.invalidateQueries({ queryKey: messagesKey });
    },
    onError: (error) => {
      if (isNoAccess(error)) navigate('/sorry');
      else notifyError(error);
    },
  });

  const streaming = newStreams.length > 0 || answers.some((m) => m.content === null);
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
                <Markdown text={m.content ?? streams[m.message_id] ?? ''} />
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
