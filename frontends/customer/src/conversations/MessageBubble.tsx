import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Menu,
  Paper,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import {
  IconCopy,
  IconDots,
  IconFileTypeDocx,
  IconFileTypePdf,
  IconPencil,
  IconPlayerStop,
  IconRefresh,
  IconShare,
  IconStar,
  IconStarFilled,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from './Markdown';
import { MAX_TOKENS, canSend, estimateTokens, type Message } from './model';
import { messageSources } from './model';

export type ExportFormat = 'pdf' | 'word';

interface Props {
  message: Message;
  onCopy: (message: Message) => void;
  onFavorite: (message: Message) => void;
  /** Saves edited text; resolves once saved (the bubble then leaves edit mode), rejects to stay in it. */
  onEdit?: (message: Message, content: string) => Promise<unknown>;
  onExport?: (message: Message, format: ExportFormat) => void;
  onShare?: (message: Message) => void;
  /** The answer is still being generated (streamed text shows, actions wait for the saved message). */
  streaming?: boolean;
  /** An answer is being generated in the conversation: editing waits for it. */
  busy?: boolean;
  /** Generates an interrupted answer again. */
  onRetry?: (message: Message) => void;
  /** The retry of this answer is on its way. */
  retrying?: boolean;
}

/**
 * One message. Answers are Markdown rendered without raw HTML; the user's own text is shown as typed. A pending
 * answer (content null) shows a spinner. A message has a view mode and an edit mode (save, cancel).
 */
export function MessageBubble({
  message,
  onCopy,
  onFavorite,
  onEdit,
  onExport,
  onShare,
  streaming = false,
  busy = false,
  onRetry,
  retrying = false,
}: Props) {
  const { t } = useTranslation('customer');
  const mine = message.role === 'user';
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const editing = draft !== null;
  const done = message.content !== null && !streaming;
  const sources = mine ? [] : messageSources(message);
  const interrupted = !mine && message.status === 'interrupted';

  const save = async () => {
    if (draft === null || !canSend(draft) || busy || !onEdit) return;
    setSaving(true);
    try {
      await onEdit(message, draft);
      setDraft(null);
    } catch {
      // The chat shows the error; the draft stays so nothing typed is lost.
    } finally {
      setSaving(false);
    }
  };
  const draftTooLong = draft !== null && estimateTokens(draft) > MAX_TOKENS;

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      maw={editing ? '100%' : '85%'}
      w={editing ? '100%' : undefined}
      ml={mine ? 'auto' : undefined}
      bg={mine ? 'var(--mantine-primary-color-light)' : undefined}
      data-testid={`message-${message.message_id}`}
    >
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" fw={600} c="dimmed">
            {mine ? t('conversations.you') : t('conversations.assistant')}
          </Text>
          {done && !editing && (
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
              {onEdit && (
                <Tooltip label={t('conversations.message.edit')}>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    aria-label={t('conversations.message.edit')}
                    disabled={busy}
                    onClick={() => setDraft(message.content ?? '')}
                  >
                    <IconPencil size={14} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              )}
              {!mine && (onExport || onShare) && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" size="sm" aria-label={t('conversations.message.more')}>
                      <IconDots size={14} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {onExport && (
                      <>
                        <Menu.Item
                          leftSection={<IconFileTypePdf size={14} aria-hidden />}
                          onClick={() => onExport(message, 'pdf')}
                        >
                          {t('conversations.message.pdf')}
                        </Menu.Item>
                        <Menu.Item
                          leftSection={<IconFileTypeDocx size={14} aria-hidden />}
                          onClick={() => onExport(message, 'word')}
                        >
                          {t('conversations.message.word')}
                        </Menu.Item>
                      </>
                    )}
                    {onShare && (
                      <Menu.Item
                        leftSection={<IconShare size={14} aria-hidden />}
                        onClick={() => onShare(message)}
                      >
                        {t('conversations.message.share')}
                      </Menu.Item>
                    )}
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          )}
        </Group>
        {editing ? (
          <Stack gap="xs">
            <Textarea
              label={t('conversations.message.editLabel')}
              value={draft}
              onChange={(e) => setDraft(e.currentTarget.value)}
              autosize
              minRows={2}
              maxRows={12}
              data-autofocus
              error={draftTooLong ? t('conversations.input.tooLong', { max: MAX_TOKENS }) : undefined}
              onKeyDown={(e) => {
                if (e.key === 'Escape') setDraft(null);
              }}
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" size="xs" onClick={() => setDraft(null)} disabled={saving}>
                {t('conversations.form.cancel')}
              </Button>
              <Button
                size="xs"
                onClick={() => void save()}
                loading={saving}
                disabled={busy || !canSend(draft)}
              >
                {t('conversations.form.save')}
              </Button>
            </Group>
          </Stack>
        ) : message.content === null ? (
          <Loader size="sm" type="dots" aria-label={t('conversations.input.generating')} />
        ) : mine ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {message.content}
          </Text>
        ) : (
          message.content !== '' && <Markdown text={message.content} />
        )}
        {interrupted && !editing && (
          // An answer cut short keeps its text so far; it says why and offers to generate it again.
          <Alert
            color="orange"
            variant="light"
            p="xs"
            icon={<IconPlayerStop size={16} aria-hidden />}
            title={t('conversations.interrupted.title')}
            data-testid={`interrupted-${message.message_id}`}
          >
            <Stack gap={6} align="flex-start">
              {message.interrupted_reason && <Text size="sm">{message.interrupted_reason}</Text>}
              {onRetry && (
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconRefresh size={14} aria-hidden />}
                  loading={retrying}
                  disabled={busy && !retrying}
                  onClick={() => onRetry(message)}
                >
                  {t('conversations.interrupted.retry')}
                </Button>
              )}
            </Stack>
          </Alert>
        )}
        {!mine && !editing && message.citations && message.citations.length > 0 && (
          <Citations citations={message.citations} />
        )}
        {sources.length > 0 && !editing && (
          <Stack gap={2} mt={4} component="nav" aria-label={t('conversations.message.sources')}>
            <Text size="xs" fw={600} c="dimmed">
              {t('conversations.message.sources')}
            </Text>
            {sources.map((source, i) => (
              <Anchor
                key={`${source.url}-${i}`}
                href={source.url}
                target="_blank"
                rel="noopener noreferrer nofollow"
                size="xs"
                lineClamp={1}
              >
                {source.title || source.url}
              </Anchor>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** The passages of an avatar's files the answer was given: each file name opens its passage. */
function Citations({ citations }: { citations: NonNullable<Message['citations']> }) {
  const { t } = useTranslation('customer');
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Stack gap={2} mt={4} component="nav" aria-label={t('conversations.message.citations')}>
      <Text size="xs" fw={600} c="dimmed">
        {t('conversations.message.citations')}
      </Text>
      {citations.map((citation, i) => (
        <Stack key={`${citation.avatar_file_id}-${i}`} gap={2}>
          <Anchor
            component="button"
            type="button"
            size="xs"
            ta="left"
            aria-expanded={open === i}
            onClick={() => setOpen(open === i ? null : i)}
          >
            [{i + 1}] {citation.file_name}
          </Anchor>
          {open === i && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }} data-testid="citation-passage">
              {citation.passage}
            </Text>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
