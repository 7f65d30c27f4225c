import { ActionIcon, Badge, CloseButton, FileButton, Group, Tooltip } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '@avatar-studio/shared';
import { useTranslation } from 'react-i18next';
import { useAttachFile, useDetachFile } from '../api';
import { ATTACHMENT_ACCEPT, isAllowedAttachment, truncateFileName, type Conversation } from '../model';

/** The conversation's one file: attach (the allowed types only) and the chip with its truncated name. */
export function ConversationFile({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation('customer');
  const id = conversation.conversation_id;
  const file = conversation.file ?? null;
  // A 400 carries the server's own sentence (e.g. that the model cannot read images): shown as it comes.
  const attach = useAttachFile(id, () => notifySuccess(t('conversations.file.attached')));
  const detach = useDetachFile(id, () => notifySuccess(t('conversations.file.removed')));
  const onChosen = (chosen: File | null) => {
    if (!chosen) return;
    if (!isAllowedAttachment(chosen.name)) {
      notifyError(t('conversations.file.wrongType'));
      return;
    }
    attach.mutate(chosen);
  };
  return (
    <Group gap="xs" mt="lg" wrap="nowrap">
      <FileButton onChange={onChosen} accept={ATTACHMENT_ACCEPT}>
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
  );
}
