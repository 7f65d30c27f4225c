import { Alert, Stack } from '@mantine/core';
import { PageLoader, useAppConfig } from '@avatar-studio/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ShareToAvatarModal } from '../avatars/ShareToAvatarModal';
import { useConversation, useRetryAnswer, useSendMessage } from './api';
import { ChatComposer } from './chat/ChatComposer';
import { MessageList } from './chat/MessageList';
import { useChatMessages, useGenerationErrors } from './chat/useChatMessages';
import { useEnhancePrompt } from './chat/useEnhancePrompt';
import { useMessageActions } from './chat/useMessageActions';
import { useModelChoice } from './chat/useModelChoice';
import { canSend, type Conversation } from './model';

/**
 * A conversation's message list and input (streaming answers, continue, retry, copy, favorite). Used by the
 * conversation screen and embedded by other screens (the template apply screen).
 */
export function ConversationChat({ conversationId }: { conversationId: number }) {
  const { t } = useTranslation('customer');
  const conversation = useConversation(conversationId);
  if (conversation.isError) return <Alert color="red">{t('conversations.notFound')}</Alert>;
  if (!conversation.data) return <PageLoader />;
  return <Chat key={conversationId} conversation={conversation.data} />;
}

function Chat({ conversation }: { conversation: Conversation }) {
  const id = conversation.conversation_id;
  const { t } = useTranslation('customer');
  const searchEnabled = useAppConfig().feature('search_enabled');
  const [text, setText] = useState('');
  const [searchOnInternet, setSearchOnInternet] = useState(false);
  const model = useModelChoice(conversation);
  const chat = useChatMessages(id);
  const actions = useMessageActions(chat.upsert);
  const enhance = useEnhancePrompt(setText);

  const send = useSendMessage(
    id,
    ({ user_message, message }, content) => {
      chat.addExchange(user_message, message);
      setText((current) => (current === content ? '' : current));
    },
    t('conversations.unexpectedAnswer'),
  );
  const retry = useRetryAnswer(chat.restartAnswer);

  useGenerationErrors((message) => {
    // An enhancement in progress is the only thing waiting on the socket besides answers.
    if (enhance.enhancing) enhance.fail(message);
    chat.failPending(message, enhance.enhancing);
  });

  // Only an answer streaming now holds Send back; an interrupted one never does.
  const generating = send.isPending || retry.isPending || chat.generating.size > 0;
  const sendText = (content: string) =>
    send.mutate({ content, model: model.requested, searchOnInternet: searchEnabled && searchOnInternet });
  const submit = () => {
    if (generating || enhance.enhancing || !canSend(text)) return;
    sendText(text);
  };

  return (
    <Stack gap={0} style={{ flex: 1, minHeight: 0, height: '100%' }}>
      <MessageList
        chat={chat}
        actions={actions}
        busy={generating}
        onContinue={() => sendText('Continue')}
        onRetry={(message) => retry.mutate(message.message_id)}
        retrying={retry.isPending ? (retry.variables ?? null) : null}
      />
      <ChatComposer
        conversation={conversation}
        text={text}
        onTextChange={setText}
        model={model}
        search={{ enabled: searchEnabled, on: searchOnInternet, set: setSearchOnInternet }}
        generating={generating}
        enhancing={enhance.enhancing}
        onSend={submit}
        onEnhance={() => enhance.enhance(text, model.chosen)}
      />
      <ShareToAvatarModal actions={actions} />
    </Stack>
  );
}
