import { useAppConfig } from '@avatar-studio/shared';
import { Badge, Button, Center, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { IconPlayerTrackNext } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageBubble } from '../MessageBubble';
import type { Message } from '../model';
import type { useChatMessages } from './useChatMessages';
import type { useMessageActions } from './useMessageActions';

interface Props {
  chat: ReturnType<typeof useChatMessages>;
  actions: ReturnType<typeof useMessageActions>;
  /** An answer is being generated: editing and Continue wait for it. */
  busy: boolean;
  onContinue: () => void;
  onRetry: (message: Message) => void;
  /** The answer whose retry request is on its way. */
  retrying: number | null;
}

/**
 * The messages, oldest first. Older pages load when scrolled to the top while fewer than the total are loaded;
 * a badge says when all of them are. The newest message stays in view as messages arrive or grow.
 */
export function MessageList({ chat, actions, busy, onContinue, onRetry, retrying }: Props) {
  const { t } = useTranslation('customer');
  // Sharing puts the answer into Documents: not offered while that feature is switched off.
  // Sharing saves the message into one of the user's avatars.
  const avatarsOn = useAppConfig().feature('avatars_enabled');
  const viewport = useRef<HTMLDivElement>(null);
  const { messages } = chat;
  const last = messages[messages.length - 1];
  const lastKey = last ? `${last.message_id}:${last.content?.length ?? -1}:${last.status}` : '';
  useEffect(() => {
    const el = viewport.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastKey]);
  const canContinue = !busy && last?.role === 'assistant' && last.finish_reason === 'length';

  return (
    <ScrollArea
      style={{ flex: 1 }}
      viewportRef={viewport}
      onScrollPositionChange={({ y }) => {
        if (y <= 0) chat.loadOlder();
      }}
    >
      <Stack gap="sm" pb="sm">
        {chat.hasOlder && (
          <Button variant="subtle" size="xs" onClick={chat.loadOlder} loading={chat.loadingOlder}>
            {t('conversations.loadOlder')}
          </Button>
        )}
        {chat.allLoaded && (
          <Center>
            <Badge variant="light" color="gray" tt="none" data-testid="all-messages-loaded">
              {t('conversations.allLoaded', { count: chat.total })}
            </Badge>
          </Center>
        )}
        {chat.isPending ? (
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
              streaming={chat.generating.has(m.message_id)}
              busy={busy}
              onCopy={(message) => void actions.copy(message)}
              onFavorite={actions.favorite}
              onEdit={actions.edit}
              onExport={actions.exportAs}
              onShare={avatarsOn ? actions.share : undefined}
              onRetry={onRetry}
              retrying={retrying === m.message_id}
            />
          ))
        )}
        {canContinue && (
          <Button
            variant="light"
            size="xs"
            mr="auto"
            leftSection={<IconPlayerTrackNext size={14} aria-hidden />}
            onClick={onContinue}
          >
            {t('conversations.continue')}
          </Button>
        )}
      </Stack>
    </ScrollArea>
  );
}
