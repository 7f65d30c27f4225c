import { notifyError, notifySuccess } from '@avatar-studio/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../../settings/clipboard';
import { useEditMessage, useExportMessage, useShareMessage, useToggleMessageFavorite } from '../api';
import { saveBlob } from '../download';
import type { Message } from '../model';

/** What a message bubble offers: copy, favorite, edit, export (PDF, Word) and share into an avatar. */
export function useMessageActions(upsert: (message: Message) => void) {
  const { t } = useTranslation('customer');
  const favorite = useToggleMessageFavorite(upsert);
  const edit = useEditMessage((saved) => {
    upsert(saved);
    notifySuccess(t('conversations.message.saved'));
  });
  const exportMessage = useExportMessage((blob, format) =>
    saveBlob(blob, format === 'pdf' ? 'message.pdf' : 'message.docx'),
  );
  /** The message being shared: the screen shows the avatar choice for it. */
  const [sharing, setSharing] = useState<Message | null>(null);
  const share = useShareMessage(() => {
    setSharing(null);
    notifySuccess(t('conversations.message.shared'));
  });
  return {
    copy: async (message: Message) => {
      try {
        await copyToClipboard(message.content ?? '');
        notifySuccess(t('conversations.copied'));
      } catch {
        notifyError(t('conversations.copyFailed'));
      }
    },
    favorite: (message: Message) => favorite.mutate(message),
    /** Resolves once saved; rejects (the error already shown) so the bubble stays in edit mode. */
    edit: (message: Message, content: string) => edit.mutateAsync({ message, content }),
    exportAs: (message: Message, format: 'pdf' | 'word') => exportMessage.mutate({ message, format }),
    share: (message: Message) => setSharing(message),
    sharing,
    closeShare: () => setSharing(null),
    shareTo: (avatarId: number) => sharing && share.mutate({ message: sharing, avatarId }),
    sharePending: share.isPending,
  };
}
