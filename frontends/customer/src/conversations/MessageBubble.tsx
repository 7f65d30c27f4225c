import { ActionIcon, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconStar, IconStarFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Message } from './model';

interface Props {
  message: Message;
  onCopy: (message: Message) => void;
  onFavorite: (message: Message) => void;
  /** The answer is still being generated (streamed text shows, actions wait for the saved message). */
  streaming?: boolean;
}

/**
 * One message. AI text is shown as plain text (no HTML is ever interpreted): paragraphs split on blank lines,
 * single line breaks kept. A pending answer (content null) shows a spinner.
 */
export function MessageBubble({ message, onCopy, onFavorite, streaming = false }: Props) {
  const { t } = useTranslation('customer');
  const mine = message.role === 'user';
  const paragraphs = (message.content ?? '').split(/\n{2,}/);
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      maw="85%"
      ml={mine ? 'auto' : undefined}
      bg={mine ? 'var(--mantine-primary-color-light)' : undefined}
      data-testid={`message-${message.message_id}`}
    >
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" fw={600} c="dimmed">
            {mine ? t('conversations.you') : t('conversations.assistant')}
          </Text>
          {message.content !== null && !streaming && (
            <Group gap={2} wrap="nowrap">
              <Tooltip label={t('conversations.copy')}>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label={t('conversations.copy')}
                  onClick={() => onCopy(message)}
                >
                  <IconCopy size={14} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t(message.favorite ? 'conversations.unfavorite' : 'conversations.favorite')}>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  color="yellow"
                  aria-pressed={message.favorite}
                  aria-label={t(message.favorite ? 'conversations.unfavorite' : 'conversations.favorite')}
                  onClick={() => onFavorite(message)}
                >
                  {message.favorite ? (
                    <IconStarFilled size={14} aria-hidden />
                  ) : (
                    <IconStar size={14} aria-hidden />
                  )}
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
        {message.content === null ? (
          <Loader size="sm" type="dots" aria-label={t('conversations.input.generating')} />
        ) : (
          paragraphs.map((p, i) => (
            <Text key={i} size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {p}
            </Text>
          ))
        )}
      </Stack>
    </Paper>
  );
}
