import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Container,
  Drawer,
  Group,
  Loader,
  Paper,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconTemplate, IconTrash } from '@tabler/icons-react';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ConfirmModal, notifySuccess, PageLoader } from '@avatar-studio/shared';
import { ConversationChat } from './ConversationChat';
import { ConversationFormModal } from './ConversationFormModal';
import { fieldError } from './errors';
import { useConversation, useDeleteConversation, useUpdateConversation } from './api';
import type { Conversation } from './model';

// The templates feature owns the panel; it loads only when first opened.
const TemplatePanel = lazy(() =>
  import('../templates/TemplatePanel').then((m) => ({ default: m.TemplatePanel })),
);

/**
 * Conversation screen: header (name, templates toggle, edit, delete), the chat (messages and input)
 * and, when showTemplates is on, the template panel: beside the chat from 1200 px (wider from 1300 px), in a
 * drawer below that.
 */
export function ConversationPage() {
  const { t } = useTranslation('customer');
  const id = Number(useParams<{ conversation_id: string }>().conversation_id);
  const conversation = useConversation(id);
  if (!Number.isInteger(id) || id <= 0 || conversation.isError) {
    return (
      <Container size="md" py="lg">
        <Alert color="red">{t('conversations.notFound')}</Alert>
        <Button component={Link} to="/conversations" variant="subtle" mt="md">
          {t('conversations.back')}
        </Button>
      </Container>
    );
  }
  if (!conversation.data) return <PageLoader />;
  return <ConversationScreen key={id} conversation={conversation.data} />;
}

function ConversationScreen({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const id = conversation.conversation_id;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [showTemplates, setShowTemplates] = useState(false);
  const wide = useMediaQuery('(min-width: 1200px)');
  const wider = useMediaQuery('(min-width: 1300px)');
  const update = useUpdateConversation(id, {
    onSaved: (saved) => {
      setEditing(false);
      notifySuccess(
        t(saved.archived && !conversation.archived ? 'conversations.archivedDone' : 'conversations.saved'),
      );
    },
    onNoAccess: () => setEditing(false),
  });
  const remove = useDeleteConversation(id, {
    onDeleted: () => {
      notifySuccess(t('conversations.deleted'));
      navigate('/conversations');
    },
    onFailed: () => setDeleting(false),
  });

  const panel = (
    <Suspense fallback={<Loader mx="auto" aria-label={t('conversations.templates.title')} />}>
      <TemplatePanel conversationId={id} onClose={() => setShowTemplates(false)} />
    </Suspense>
  );
  const besideChat = showTemplates && wide;
  const templatesLabel = t(showTemplates ? 'conversations.templates.hide' : 'conversations.templates.show');

  return (
    <Container
      size={besideChat ? 'xl' : 'md'}
      py="lg"
      h="calc(100dvh - 80px)"
      style={{ display: 'flex', flexDirection: 'column' }}
    >
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={1} size="h3" lineClamp={1}>
          {conversation.name}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <Tooltip label={templatesLabel}>
            <ActionIcon
              variant={showTemplates ? 'filled' : 'default'}
              aria-label={t('conversations.templates.show')}
              aria-pressed={showTemplates}
              onClick={() => setShowTemplates((open) => !open)}
            >
              <IconTemplate size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('conversations.edit')}>
            <ActionIcon
              variant="default"
              aria-label={t('conversations.edit')}
              onClick={() => setEditing(true)}
            >
              <IconPencil size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('conversations.delete')}>
            <ActionIcon
              variant="default"
              color="red"
              aria-label={t('conversations.delete')}
              onClick={() => setDeleting(true)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>

      <Group align="stretch" gap="md" wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
        <Box style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <ConversationChat conversationId={id} />
        </Box>
        {besideChat && (
          <Paper withBorder radius="md" p="sm" w={wider ? 400 : 340} style={{ flexShrink: 0, minHeight: 0 }}>
            {panel}
          </Paper>
        )}
      </Group>
      <Drawer
        opened={showTemplates && !wide}
        onClose={() => setShowTemplates(false)}
        position="right"
        size="md"
        withCloseButton={false}
      >
        {showTemplates && !wide && panel}
      </Drawer>

      <ConversationFormModal
        opened={editing}
        onClose={() => {
          setEditing(false);
          update.reset();
        }}
        conversation={conversation}
        saving={update.isPending}
        nameError={fieldError(update.error, 'name')}
        onSubmit={(values) => update.mutate(values)}
      />
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={t('conversations.deleteTitle')}
        body={t('conversations.deleteBody')}
        cancelLabel={t('conversations.form.cancel')}
        confirmLabel={t('conversations.delete')}
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </Container>
  );
}
