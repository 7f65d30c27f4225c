import { Button, CloseButton, FileButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealtimeEvent } from '@avatar-studio/shared';
import { MessageList } from '../conversations/chat/MessageList';
import { useChatMessages, useGenerationErrors } from '../conversations/chat/useChatMessages';
import { useMessageActions } from '../conversations/chat/useMessageActions';
import { canSend, type Message } from '../conversations/model';
import { useRetryAnswer } from '../conversations/api';
import { useSendDocumentToAvatar, useSendToAvatar, useThreadPages } from './api';
import { ShareToAvatarModal } from './ShareToAvatarModal';

/** The documents a message to an avatar may carry (refused by content on the server otherwise). */
const DOCUMENT_ACCEPT = '.docx,.pdf,.pptx,.txt';

/**
 * The caller's chat with an avatar: the 10 latest messages, 10 more on scrolling to the top, answers streamed
 * like any chat's, with the files they cite under them. A message may carry a document for the avatar to read.
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
  const [attachment, setAttachment] = useState<File | null>(null);
  const retry = useRetryAnswer(chat.restartAnswer);

  const send = useSendToAvatar(avatarId, ({ user_message, message }, content) => {
    setConversationId(message.conversation_id);
    chat.addExchange(user_message, message);
    setText((current) => (current === content ? '' : current));
  });
  const sendDocument = useSendDocumentToAvatar(avatarId, ({ user_message, message }, input) => {
    setConversationId(message.conversation_id);
    chat.addExchange(user_message, message);
    setText((current) => (current === input.message ? '' : current));
    setAttachment((current) => (current === input.file ? null : current));
  });
  // Answers of this thread sent from elsewhere (another tab, a template applied with the avatar).
  useRealtimeEvent('thread_messages', (payload) => {
    if (payload.avatar_id !== avatarId) return;
    for (const m of payload.messages) chat.upsert(m as Message);
  });
  useGenerationErrors((message) => chat.failPending(message, false));

  const generating = send.isPending || sendDocument.isPending || retry.isPending || chat.generating.size > 0;
  const submit = () => {
    if (generating || !canSend(text)) return;
    if (attachment) sendDocument.mutate({ message: text, file: attachment });
    else send.mutate(text);
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
      {attachment && (
        <Group gap={4}>
          <Text size="sm">{t('avatars.chat.attached', { name: attachment.name })}</Text>
          <CloseButton
            size="sm"
            aria-label={t('avatars.chat.removeDocument')}
            onClick={() => setAttachment(null)}
          />
        </Group>
      )}
      <Group align="flex-end" wrap="nowrap">
        <FileButton onChange={setAttachment} accept={DOCUMENT_ACCEPT}>
          {(props) => (
            <Button {...props} variant="default" disabled={generating}>
              {t('avatars.chat.attach')}
            </Button>
          )}
        </FileButton>
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
