import { Button, Group, Loader, Select, Stack, Switch, Text, Textarea } from '@mantine/core';
import { IconSend, IconSparkles } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_TOKENS, canEnhance, canSend, estimateTokens, type Conversation } from '../model';
import { ConversationFile } from './ConversationFile';
import type { useModelChoice } from './useModelChoice';

interface Props {
  conversation: Conversation;
  text: string;
  onTextChange: (text: string) => void;
  model: ReturnType<typeof useModelChoice>;
  /** Shown only when the configuration turns web search on. */
  search: { enabled: boolean; on: boolean; set: (on: boolean) => void };
  /** An answer is being generated: Send waits for it. */
  generating: boolean;
  enhancing: boolean;
  onSend: () => void;
  onEnhance: () => void;
}

/** The input under the messages: model, web search, file, Enhance, the text with its token estimate, Send. */
export function ChatComposer(props: Props) {
  const { conversation, text, onTextChange, model, search, generating, enhancing, onSend, onEnhance } = props;
  const { t } = useTranslation('customer');
  const tokens = estimateTokens(text);
  const tooLong = tokens > MAX_TOKENS;
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onSend();
    }
  };
  return (
    <Stack gap={4} mt="sm">
      <Group gap="xs" wrap="wrap">
        <Select
          size="xs"
          w={180}
          label={t('conversations.form.model')}
          data={model.options}
          value={model.model}
          onChange={(value) => model.setModel(value ?? 'Unset')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        {search.enabled && (
          <Switch
            size="sm"
            mt="lg"
            label={t('conversations.input.search')}
            checked={search.on}
            onChange={(e) => search.set(e.currentTarget.checked)}
          />
        )}
        <ConversationFile conversation={conversation} />
        <Button
          size="xs"
          mt="lg"
          ml="auto"
          variant="light"
          leftSection={<IconSparkles size={14} aria-hidden />}
          onClick={onEnhance}
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
          onChange={(e) => onTextChange(e.currentTarget.value)}
          onKeyDown={onKeyDown}
          disabled={enhancing}
          autosize
          minRows={2}
          maxRows={8}
          error={tooLong ? t('conversations.input.tooLong', { max: MAX_TOKENS }) : undefined}
          style={{ flex: 1 }}
        />
        <Button
          onClick={onSend}
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
  );
}
