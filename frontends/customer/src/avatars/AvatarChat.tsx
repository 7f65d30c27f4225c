import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealtimeEvent } from '@avatar-studio/shared';
import { MessageList } from '../conversations/chat/MessageList';
import { useChatMessages, useGenerationErrors } from '../conversations/chat/useChatMessages';
import { useMessageActions } from '../conversations/chat/useMessageActions';
import { canSend, type Message } from '../conversations/model';
import { useRetryAnswer } from '../conversations/api';
import { useSendToAvatar, useThreadPages } from './api';
import { ShareToAvatarModal } from './ShareToAvatarModal';

/**
 * The caller's chat with an avatar: the 10 latest messages, 10 more on scrolling to the top, answers streamed
 * like any chat's, with the files they cite under them.
 */
export function AvatarChat({ avatarId }: { avatarId: number }) {
  const { t } = useTranslation('customer');
  const pages = useThreadPages(avatarId);
  const [conversationId, setConversationId] = useState(0);
  const known = pages.data?.pages[0]?.messages[0]?.conversation_id ?? 0;
  useEffect(() => {
    if (known && !conversationId) setConversationId(known);
  }, [known, conversationId]);
  const chat = useChatMessages(conversationId, pages);
  const actions = useMessageActions(chat.upsert);
  const [text, setText] = useState('');
  const retry = useRetryAnswer(chat.restartAnswer);

  const send = useSendToAvatar(avatarId, ({ user_message, message }, content) => {
    setConversationId(message.conversation_id);
    chat.addExchange(user_message, message);
    setText((current) => (current === content ? '' : current));
  });
  // Answers of this thread sent from elsewhere (another tab, a template applied with the avatar).
  useRealtimeEvent('thread_messages', (payload) => {
    if (payload.avatar_id !== avatarId) return;
    for (const m of payload.messages) chat.upsert(m as Message);
  });
  useGenerationErrors((message) => chat.failPending(message, false));

  const generating = send.isPending || retry.isPending || chat.generating.size > 0;
  const submit = () => {
    if (generating || !canSend(text)) return;
    send.mutate(text);
  };
  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
      <MessageList
        chat={chat}
        actions={actions}
        busy={generating}
        onContinue={() => send.mutate('Continue')}
        onRetry={(message) => retry.mutate(message.message_id)}
        retrying={retry.isPending ? (retry.variables ?? null) : null}
      />
      <Group align="flex-end" wrap="nowrap">
        <Textarea
          label={t('avatars.chat.message')}
          placeholder={t('avatars.chat.empty')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          autosize
          minRows={1}
          maxRows={6}
          style={{ flex: 1 }}
        />
        <Button onClick={submit} loading={generating} disabled={!canSend(text)}>
          {t('avatars.chat.send')}
        </Button>
      </Group>
      <ShareToAvatarModal actions={actions} />
    </Stack>
  );
}
