import {
  ActionIcon,
  Alert,
  Button,
  Container,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Text,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPencil, IconPlayerTrackNext, IconSend, IconTrash } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  ApiError,
  PageLoader,
  api,
  notifyError,
  notifySuccess,
  unwrap,
  useRealtimeEvent,
} from '@avatar-studio/shared';
import { copyToClipboard } from '../settings/clipboard';
import { ConversationFormModal, type ConversationFormValues } from './ConversationFormModal';
import { fieldError, isNoAccess } from './errors';
import { MessageBubble } from './MessageBubble';
import {
  CONVERSATIONS_KEY,
  MAX_TOKENS,
  modelValue,
  canSend,
  estimateTokens,
  mergeMessages,
  type Conversation,
  type Message,
} from './model';

/** Spec 001 §2 conversation screen: header (name, edit, delete), message list and input. */
export function ConversationPage() {
  const { t } = useTranslation('customer');
  const id = Number(useParams<{ conversation_id: string }>().conversation_id);
  const conversation = useQuery({
    queryKey: [CONVERSATIONS_KEY, 'one', id],
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/conversations/conversation/{conversation_id}', {
            params: { path: { conversation_id: id } },
          }),
        )
      ).conversation,
    enabled: Number.isInteger(id) && id > 0,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 3,
  });
  if (!Number.isInteger(id) || id <= 0 || conversation.isError) {
    return (
      <Container size="md" py="lg">
        <Alert color="red">{t('conversations.notFound')}</Alert>
        <Button component={Link} to="/conversations" variant="subtle" mt="md">
          {t('conversations.back')}
        </Button>
      </Container>
    );
  }
  if (!conversation.data) return <PageLoader />;
  return <ConversationScreen key={id} conversation={conversation.data} />;
}

function ConversationScreen({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = conversation.conversation_id;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [text, setText] = useState('');
  /** Messages known since the pages loaded (sent, streamed, saved, toggled); they win over page copies. */
  const [live, setLive] = useState<Message[]>([]);
  /** Answers being generated: their ids. */
  const [streaming, setStreaming] = useState<number[]>([]);
  /** Pending answers dropped after a generation error. */
  const [dropped, setDropped] = useState<number[]>([]);
  const viewport = useRef<HTMLDivElement>(null);

  const pages = useInfiniteQuery({
    queryKey: [CONVERSATIONS_KEY, 'messages', id],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/messages/conversation/{conversation_id}', {
          params: { path: { conversation_id: id }, query: { page: pageParam } },
        }),
      ),
    initialPageParam: 1,
    // Page 1 is the newest; older pages follow while fewer than the total are loaded.
    getNextPageParam: (last, all) =>
      all.reduce((n, p) => n + p.messages.length, 0) < last.total && last.messages.length > 0
        ? last.page + 1
        : undefined,
  });

  const messages = useMemo(
    () =>
      mergeMessages(...(pages.data?.pages.map((p) => p.messages) ?? []), live).filter(
        (m) => !dropped.includes(m.message_id),
      ),
    [pages.data, live, dropped],
  );
  const upsert = (message: Message) =>
    setLive((prev) => [...prev.filter((m) => m.message_id !== message.message_id), message]);
  const stopStreaming = (messageId: number) => setStreaming((prev) => prev.filter((x) => x !== messageId));

  // Deltas append to the pending answer with that id; the end replaces it with the saved row.
  useRealtimeEvent('message_stream', (payload) => {
    if (Number(payload.conversation_id) !== id) return;
    const messageId = Number(payload.message_id);
    // Functional: several deltas may arrive before the next render.
    setLive((prev) =>
      prev.map((m) =>
        m.message_id === messageId ? { ...m, content: (m.content ?? '') + payload.content } : m,
      ),
    );
  });
  useRealtimeEvent('message_stream_end', (payload) => {
    if (Number(payload.conversation_id) !== id) return;
    const saved = payload.message as unknown as Message;
    upsert(saved);
    stopStreaming(saved.message_id);
  });
  const failGeneration = (payload: { message: string }) => {
    // The event names no message: every answer still pending here failed (the server discarded them).
    const failed = [
      ...streaming,
      ...messages.filter((m) => m.role === 'assistant' && m.content === null).map((m) => m.message_id),
    ];
    if (failed.length === 0) return;
    notifyError(payload.message);
    setDropped((prev) => [...prev, ...failed]);
    setStreaming([]);
  };
  useRealtimeEvent('openai-error', failGeneration);
  useRealtimeEvent('error', failGeneration);

  const send = useMutation({
    mutationFn: (content: string) =>
      unwrap(api.POST('/api/messages', { body: { content, conversation_id: id, stream: true } })),
    onSuccess: ({ user_message, message }, content) => {
      setLive((prev) => [
        ...prev.filter(
          (m) => m.message_id !== user_message.message_id && m.message_id !== message.message_id,
        ),
        user_message,
        message,
      ]);
      if (message.content === null) setStreaming((prev) => [...prev, message.message_id]);
      setText((current) => (current === content ? '' : current));
    },
    onError: (error) => {
      if (isNoAccess(error)) navigate('/sorry');
      else notifyError(error);
    },
  });

  const generating =
    send.isPending ||
    streaming.length > 0 ||
    messages.some((m) => m.role === 'assistant' && m.content === null);
  const tokens = estimateTokens(text);
  const tooLong = tokens > MAX_TOKENS;
  const submit = () => {
    if (generating || !canSend(text)) return;
    send.mutate(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const favorite = useMutation({
    mutationFn: async (message: Message) =>
      (
        await unwrap(
          api.PUT('/api/messages', { body: { message_id: message.message_id, favorite: !message.favorite } }),
        )
      ).message,
    onSuccess: upsert,
    onError: (error) => notifyError(error),
  });

  const copy = async (message: Message) => {
    try {
      await copyToClipboard(message.content ?? '');
      notifySuccess(t('conversations.copied'));
    } catch {
      notifyError(t('conversations.copyFailed'));
    }
  };

  const update = useMutation({
    mutationFn: async (values: ConversationFormValues) =>
      (
        await unwrap(
          api.PUT('/api/conversations', {
            body: {
              conversation_id: id,
              name: values.name,
              tags: values.tags,
              model: modelValue(values.model),
              archived: values.archived,
            },
          }),
        )
      ).conversation,
    onSuccess: (saved) => {
      queryClient.setQueryData([CONVERSATIONS_KEY, 'one', id], saved);
      void queryClient.invalidateQueries({ queryKey: [CONVERSATIONS_KEY, 'list'] });
      void queryClient.invalidateQueries({ queryKey: [CONVERSATIONS_KEY, 'tags'] });
      setEditing(false);
      notifySuccess(
        t(saved.archived && !conversation.archived ? 'conversations.archivedDone' : 'conversations.saved'),
      );
    },
    onError: (error) => {
      if (isNoAccess(error)) {
        setEditing(false);
        navigate('/sorry');
      } else if (!fieldError(error, 'name')) notifyError(error);
    },
  });

  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/conversations/{conversation_id}', { params: { path: { conversation_id: id } } }),
      ),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [CONVERSATIONS_KEY, 'one', id] });
      queryClient.removeQueries({ queryKey: [CONVERSATIONS_KEY, 'messages', id] });
      void queryClient.invalidateQueries({ queryKey: [CONVERSATIONS_KEY] });
      notifySuccess(t('conversations.deleted'));
      navigate('/conversations');
    },
    onError: (error) => {
      setDeleting(false);
      if (isNoAccess(error)) navigate('/sorry');
      else notifyError(error);
    },
  });

  // Keep the newest message in view as messages arrive or grow (not when older pages are added above).
  const last = messages[messages.length - 1];
  const lastKey = last ? `${last.message_id}:${last.content?.length ?? -1}` : '';
  useEffect(() => {
    const el = viewport.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastKey]);

  const loadOlder = () => {
    if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  };
  const canContinue = !generating && last?.role === 'assistant' && last.finish_reason === 'length';

  return (
    <Container size="md" py="lg" h="calc(100dvh - 80px)" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={1} size="h3" lineClamp={1}>
          {conversation.name}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={t('conversations.edit')}>
            <ActionIcon
              variant="default"
              aria-label={t('conversations.edit')}
              onClick={() => setEditing(true)}
            >
              <IconPencil size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('conversations.delete')}>
            <ActionIcon
              variant="default"
              color="red"
              aria-label={t('conversations.delete')}
              onClick={() => setDeleting(true)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>

      <ScrollArea
        style={{ flex: 1 }}
        viewportRef={viewport}
        onScrollPositionChange={({ y }) => {
          if (y <= 0) loadOlder();
        }}
      >
        <Stack gap="sm" pb="sm">
          {pages.hasNextPage && (
            <Button variant="subtle" size="xs" onClick={loadOlder} loading={pages.isFetchingNextPage}>
              {t('conversations.loadOlder')}
            </Button>
          )}
          {pages.isPending ? (
            <Loader mx="auto" aria-label={t('conversations.title')} />
          ) : messages.length === 0 ? (
            <Text c="dimmed" ta="center">
              {t('conversations.noMessages')}
            </Text>
          ) : (
            messages.map((m) => (
              <MessageBubble
                key={m.message_id}
                message={m}
                streaming={streaming.includes(m.message_id)}
                onCopy={(message) => void copy(message)}
                onFavorite={(message) => favorite.mutate(message)}
              />
            ))
          )}
          {canContinue && (
            <Button
              variant="light"
              size="xs"
              mr="auto"
              leftSection={<IconPlayerTrackNext size={14} aria-hidden />}
              onClick={() => send.mutate('Continue')}
            >
              {t('conversations.continue')}
            </Button>
          )}
        </Stack>
      </ScrollArea>

      <Stack gap={4} mt="sm">
        <Group align="flex-end" wrap="nowrap">
          <Textarea
            label={t('conversations.input.label')}
            placeholder={t('conversations.input.placeholder')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={onKeyDown}
            autosize
            minRows={2}
            maxRows={8}
            error={tooLong ? t('conversations.input.tooLong', { max: MAX_TOKENS }) : undefined}
            style={{ flex: 1 }}
          />
          <Button
            onClick={submit}
            disabled={generating || !canSend(text)}
            leftSection={generating ? <Loader size={14} aria-hidden /> : <IconSend size={16} aria-hidden />}
            aria-label={t('conversations.input.send')}
            mb={tooLong ? 22 : 0}
          >
            {t('conversations.input.send')}
          </Button>
        </Group>
        <Group justify="space-between">
          <Text size="xs" c={tooLong ? 'red' : 'dimmed'}>
            {t('conversations.input.tokens', { count: tokens, max: MAX_TOKENS })}
          </Text>
          {generating && (
            <Text size="xs" c="dimmed" role="status">
              {t('conversations.input.generating')}
            </Text>
          )}
        </Group>
      </Stack>

      <ConversationFormModal
        opened={editing}
        onClose={() => {
          setEditing(false);
          update.reset();
        }}
        conversation={conversation}
        saving={update.isPending}
        nameError={fieldError(update.error, 'name')}
        onSubmit={(values) => update.mutate(values)}
      />
      <Modal opened={deleting} onClose={() => setDeleting(false)} title={t('conversations.deleteTitle')}>
        <Text size="sm">{t('conversations.deleteBody')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setDeleting(false)}>
            {t('conversations.form.cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('conversations.delete')}
          </Button>
        </Group>
      </Modal>
    </Container>
  );
}
