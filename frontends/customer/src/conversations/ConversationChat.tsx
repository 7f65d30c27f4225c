import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  CloseButton,
  FileButton,
  Group,
  Loader,
  ScrollArea,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconPaperclip, IconPlayerTrackNext, IconSend, IconSparkles } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  PageLoader,
  api,
  notifyError,
  notifySuccess,
  unwrap,
  useAppConfig,
  useRealtimeEvent,
} from '@avatar-studio/shared';
import { copyToClipboard } from '../settings/clipboard';
import { isNoAccess } from './errors';
import { saveBlob } from './download';
import { MessageBubble, type ExportFormat } from './MessageBubble';
import {
  ATTACHMENT_ACCEPT,
  MAX_TOKENS,
  UNSET_MODEL,
  canEnhance,
  canSend,
  estimateTokens,
  isAllowedAttachment,
  mergeMessages,
  truncateFileName,
  type Conversation,
  type Message,
} from './model';
import { conversationKey, messagesKey, useConversation } from './queries';

export const AI_MODELS_KEY = ['ai', 'models'] as const;

/**
 * Spec 001 §2: a conversation's message list and input (streaming answers, continue, copy, favorite).
 * Used by the conversation screen and embedded by other screens (the template apply screen).
 */
export function ConversationChat({ conversationId }: { conversationId: number }) {
  const { t } = useTranslation('customer');
  const conversation = useConversation(conversationId);
  if (conversation.isError) return <Alert color="red">{t('conversations.notFound')}</Alert>;
  if (!conversation.data) return <PageLoader />;
  return <Chat key={conversationId} conversation={conversation.data} />;
}

/** What the enhance stream has delivered for one enhance_id (events may come before the POST answers). */
interface EnhanceProgress {
  text: string;
  done: boolean;
}

function Chat({ conversation }: { conversation: Conversation }) {
  const id = conversation.conversation_id;
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useAppConfig();
  const searchEnabled = config.flag('search_enabled');
  const [text, setText] = useState('');
  /** The model for the next messages; starts as the conversation's ('Unset' = the configured default). */
  const [model, setModel] = useState<string>(conversation.model ?? UNSET_MODEL);
  // When the conversation's model is changed elsewhere (the Edit form), the select follows it.
  const [conversationModel, setConversationModel] = useState(conversation.model);
  if (conversationModel !== conversation.model) {
    setConversationModel(conversation.model);
    setModel(conversation.model ?? UNSET_MODEL);
  }
  const [searchOnInternet, setSearchOnInternet] = useState(false);
  /** Messages known since the pages loaded (sent, streamed, saved, toggled); they win over page copies. */
  const [live, setLive] = useState<Message[]>([]);
  /** Answers being generated: their ids. */
  const [streaming, setStreaming] = useState<number[]>([]);
  /** Pending answers dropped after a generation error. */
  const [dropped, setDropped] = useState<number[]>([]);
  const viewport = useRef<HTMLDivElement>(null);

  const pages = useInfiniteQuery({
    queryKey: messagesKey(id),
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

  const models = useQuery({
    queryKey: AI_MODELS_KEY,
    queryFn: () => unwrap(api.GET('/api/ai/models')),
    staleTime: 5 * 60 * 1000,
  });
  const modelOptions = useMemo(() => {
    const options: { value: string; label: string }[] = [
      { value: UNSET_MODEL, label: t('conversations.form.unset') },
    ];
    for (const m of models.data?.models ?? []) options.push({ value: m.id, label: m.label });
    // A conversation may use a model the list no longer offers: keep it choosable rather than blank.
    if (!options.some((o) => o.value === model)) options.push({ value: model, label: model });
    return options;
  }, [models.data, model, t]);

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

  // ---- Enhance (spec 001 §5): the improved prompt streams into the input, which is locked meanwhile. ----
  /** The enhance_id being shown, once the POST has answered with it. */
  const enhanceId = useRef<string | null>(null);
  /** Stream events by enhance_id, kept for an id the POST has not answered with yet. */
  const enhanceEvents = useRef(new Map<string, EnhanceProgress>());
  const [enhancing, setEnhancing] = useState(false);
  /** The text before enhancing, given back if the enhancement fails. */
  const beforeEnhance = useRef('');
  const finishEnhance = () => {
    enhanceId.current = null;
    enhanceEvents.current.clear();
    setEnhancing(false);
  };
  const failEnhance = (error: unknown) => {
    setText(beforeEnhance.current);
    finishEnhance();
    if (isNoAccess(error)) navigate('/sorry');
    else notifyError(error);
  };
  const enhance = useMutation({
    mutationFn: (content: string) =>
      unwrap(
        api.POST('/api/messages/enhance', {
          body: { content, stream: true, ...(model !== UNSET_MODEL ? { model } : {}) },
        }),
      ),
    onMutate: (content) => {
      beforeEnhance.current = content;
      enhanceEvents.current.clear();
      setEnhancing(true);
    },
    onSuccess: ({ enhance_id, content }) => {
      const key = String(enhance_id);
      if (content !== null) {
        // Not streamed after all: the improved prompt came whole.
        setText(content);
        finishEnhance();
        return;
      }
      const early = enhanceEvents.current.get(key);
      enhanceId.current = key;
      setText(early?.text ?? '');
      if (early?.done) finishEnhance();
    },
    onError: failEnhance,
  });
  useRealtimeEvent('message_stream_enhance', (payload) => {
    const key = String(payload.enhance_id);
    const delta = typeof payload.content === 'string' ? payload.content : '';
    if (enhanceId.current === key) {
      setText((prev) => prev + delta);
    } else if (enhancing && enhanceId.current === null) {
      const known = enhanceEvents.current.get(key) ?? { text: '', done: false };
      enhanceEvents.current.set(key, { ...known, text: known.text + delta });
    }
  });
  useRealtimeEvent('message_stream_enhance_end', (payload) => {
    const key = String(payload.enhance_id);
    const whole = typeof payload.content === 'string' ? payload.content : null;
    if (enhanceId.current === key) {
      if (whole !== null) setText(whole);
      finishEnhance();
    } else if (enhancing && enhanceId.current === null) {
      const known = enhanceEvents.current.get(key) ?? { text: '', done: false };
      enhanceEvents.current.set(key, { text: whole ?? known.text, done: true });
    }
  });

  const failGeneration = (payload: { message: string }) => {
    if (enhancing) {
      // An enhancement in progress is the only thing waiting on the socket besides answers.
      failEnhance(payload.message);
    }
    // The event names no message: every answer still pending here failed (the server discarded them).
    const failed = [
      ...streaming,
      ...messages.filter((m) => m.role === 'assistant' && m.content === null).map((m) => m.message_id),
    ];
    if (failed.length === 0) return;
    if (!enhancing) notifyError(payload.message);
    setDropped((prev) => [...prev, ...failed]);
    setStreaming([]);
  };
  useRealtimeEvent('openai-error', failGeneration);
  useRealtimeEvent('error', failGeneration);

  const send = useMutation({
    mutationFn: async (content: string) => {
      const sent = await unwrap(
        api.POST('/api/messages', {
          body: {
            content,
            conversation_id: id,
            stream: true,
            // Sent only when it differs from the conversation's own model ('Unset' asks for the default).
            ...(model !== (conversation.model ?? UNSET_MODEL) ? { model } : {}),
            ...(searchEnabled && searchOnInternet ? { searchOnInternet: true } : {}),
          },
        }),
      );
      // Only a request with `enhance: true` answers the other shape (EnhanceResponse); this one never does.
      if (!('message' in sent)) throw new Error(t('conversations.unexpectedAnswer'));
      return sent;
    },
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
    if (generating || enhancing || !canSend(text)) return;
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

  /** Spec 001 §4 edit mode: saves the text; the bubble stays in edit mode when this throws. */
  const editMessage = async (message: Message, content: string) => {
    try {
      const saved = (
        await unwrap(api.PUT('/api/messages', { body: { message_id: message.message_id, content } }))
      ).message;
      upsert(saved);
      notifySuccess(t('conversations.message.saved'));
    } catch (error) {
      if (isNoAccess(error)) navigate('/sorry');
      else notifyError(error);
      throw error;
    }
  };

  const copy = async (message: Message) => {
    try {
      await copyToClipboard(message.content ?? '');
      notifySuccess(t('conversations.copied'));
    } catch {
      notifyError(t('conversations.copyFailed'));
    }
  };

  const exportMessage = useMutation({
    mutationFn: async ({ message, format }: { message: Message; format: ExportFormat }) => {
      const body = { text: message.content ?? '' };
      const blob =
        format === 'pdf'
          ? await unwrap(api.POST('/api/messages/pdf', { body, parseAs: 'blob' }))
          : await unwrap(api.POST('/api/messages/word', { body, parseAs: 'blob' }));
      saveBlob(blob, format === 'pdf' ? 'message.pdf' : 'message.docx');
    },
    onError: (error) => {
      if (isNoAccess(error)) navigate('/sorry');
      else notifyError(error);
    },
  });

  const share = useMutation({
    mutationFn: (message: Message) =>
      unwrap(api.POST('/api/messages/share', { body: { message_id: message.message_id } })),
    onSuccess: () => notifySuccess(t('conversations.message.shared')),
    onError: (error) => {
      if (isNoAccess(error)) navigate('/sorry');
      else notifyError(error);
    },
  });

  // ---- The conversation's file (spec 001 §5 upload types, §9 name shown up to 30 characters). ----
  const file = conversation?.file ?? null;
  const setConversation = (saved: Conversation) => queryClient.setQueryData(conversationKey(id), saved);
  const attach = useMutation({
    mutationFn: async (chosen: File) => {
      const data = new FormData();
      data.append('file', chosen);
      return (
        await unwrap(
          api.POST('/api/conversations/file/{conversation_id}', {
            params: { path: { conversation_id: id } },
            // openapi-fetch sends FormData as it is, with the browser's multipart boundary.
            body: data as unknown as { file: string },
            bodySerializer: (body) => body as unknown as FormData,
          }),
        )
      ).conversation;
    },
    onSuccess: (saved) => {
      setConversation(saved);
      notifySuccess(t('conversations.file.attached'));
    },
    onError: (error) => {
      if (isNoAccess(error)) navigate('/sorry');
      // A 400 carries the server's own sentence (e.g. that the model cannot read images): shown as it comes.
      else notifyError(error);
    },
  });
  const detach = useMutation({
    mutationFn: async () =>
      unwrap(
        api.DELETE('/api/conversations/file/{conversation_id}', {
          params: { path: { conversation_id: id } },
        }),
      ),
    onSuccess: (answer) => {
      if (answer?.conversation) setConversation(answer.conversation);
      else void queryClient.invalidateQueries({ queryKey: conversationKey(id) });
      notifySuccess(t('conversations.file.removed'));
    },
    onError: (error) => {
      if (isNoAccess(error)) navigate('/sorry');
      else notifyError(error);
    },
  });
  const onFileChosen = (chosen: File | null) => {
    if (!chosen) return;
    if (!isAllowedAttachment(chosen.name)) {
      notifyError(t('conversations.file.wrongType'));
      return;
    }
    attach.mutate(chosen);
  };

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
    <Stack gap={0} style={{ flex: 1, minHeight: 0, height: '100%' }}>
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
                busy={generating}
                onCopy={(message) => void copy(message)}
                onFavorite={(message) => favorite.mutate(message)}
                onEdit={editMessage}
                onExport={(message, format) => exportMessage.mutate({ message, format })}
                onShare={(message) => share.mutate(message)}
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
        <Group gap="xs" wrap="wrap">
          <Select
            size="xs"
            w={180}
            label={t('conversations.form.model')}
            data={modelOptions}
            value={model}
            onChange={(value) => setModel(value ?? UNSET_MODEL)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {searchEnabled && (
            <Switch
              size="sm"
              mt="lg"
              label={t('conversations.input.search')}
              checked={searchOnInternet}
              onChange={(e) => setSearchOnInternet(e.currentTarget.checked)}
            />
          )}
          <Group gap="xs" mt="lg" wrap="nowrap">
            <FileButton onChange={onFileChosen} accept={ATTACHMENT_ACCEPT}>
              {(props) => (
                <Tooltip label={t('conversations.file.attach')}>
                  <ActionIcon
                    {...props}
                    variant="default"
                    aria-label={t('conversations.file.attach')}
                    loading={attach.isPending}
                  >
                    <IconPaperclip size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              )}
            </FileButton>
            {file && (
              // Mantine's Pill hides its remove button from keyboards and screen readers: a Badge with a real one.
              <Badge
                variant="light"
                size="lg"
                tt="none"
                title={file.name}
                data-testid="conversation-file"
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={t('conversations.file.remove', { name: file.name })}
                    disabled={detach.isPending}
                    onClick={() => detach.mutate()}
                  />
                }
              >
                {truncateFileName(file.name)}
              </Badge>
            )}
          </Group>
          <Button
            size="xs"
            mt="lg"
            ml="auto"
            variant="light"
            leftSection={<IconSparkles size={14} aria-hidden />}
            onClick={() => enhance.mutate(text)}
            disabled={enhancing || !canEnhance(text)}
            loading={enhancing}
          >
            {t('conversations.input.enhance')}
          </Button>
        </Group>
        <Group align="flex-end" wrap="nowrap">
          <Textarea
            label={t('conversations.input.label')}
            placeholder={t('conversations.input.placeholder')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={onKeyDown}
            disabled={enhancing}
            autosize
            minRows={2}
            maxRows={8}
            error={tooLong ? t('conversations.input.tooLong', { max: MAX_TOKENS }) : undefined}
            style={{ flex: 1 }}
          />
          <Button
            onClick={submit}
            disabled={generating || enhancing || !canSend(text)}
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
          {(generating || enhancing) && (
            <Text size="xs" c="dimmed" role="status">
              {t(enhancing ? 'conversations.input.enhancing' : 'conversations.input.generating')}
            </Text>
          )}
        </Group>
      </Stack>
    </Stack>
  );
}
