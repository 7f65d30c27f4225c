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
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api, ConfirmModal, notifyError, notifySuccess, PageLoader, unwrap } from '@avatar-studio/shared';
import { ConversationChat } from './ConversationChat';
import { ConversationFormModal, type ConversationFormValues } from './ConversationFormModal';
import { fieldError, isNoAccess } from './errors';
import { CONVERSATIONS_KEY, modelValue, type Conversation } from './model';
import { conversationKey, messagesKey, useConversation } from './queries';

// The templates feature owns the panel; it loads only when first opened.
const TemplatePanel = lazy(() =>
  import('../templates/TemplatePanel').then((m) => ({ default: m.TemplatePanel })),
);

/**
 * Spec 001 §2 conversation screen: header (name, templates toggle, edit, delete), the chat (messages and input)
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
  const queryClient = useQueryClient();
  const id = conversation.conversation_id;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [showTemplates, setShowTemplates] = useState(false);
  const wide = useMediaQuery('(min-width: 1200px)');
  const wider = useMediaQuery('(min-width: 1300px)');
  const update = useMutation({
    mutationFn: async (values: ConversationFormValues) =>
      (
        await unwrap(
          api.PUT('/api/conversations', {
            body: {
              conversation_id: id,
              name: values.name,
              tags: values.tags,
              model: modelValue(values.model),
              archived: values.archived,
            },
          }),
        )
      ).conversation,
    onSuccess: (saved) => {
      queryClient.setQueryData(conversationKey(id), saved);
      void queryClient.invalidateQueries({ queryKey: [CONVERSATIONS_KEY, 'list'] });
      void queryClient.invalidateQueries({ queryKey: [CONVERSATIONS_KEY, 'tags'] });
      setEditing(false);
      notifySuccess(
        t(saved.archived && !conversation.archived ? 'conversations.archivedDone' : 'conversations.saved'),
      );
    },
    onError: (error) => {
      if (isNoAccess(error)) {
        setEditing(false);
        navigate('/sorry');
      } else if (!fieldError(error, 'name')) notifyError(error);
    },
  });

  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/conversations/{conversation_id}', { params: { path: { conversation_id: id } } }),
      ),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: conversationKey(id) });
      queryClient.removeQueries({ queryKey: messagesKey(id) });
      void queryClient.invalidateQueries({ queryKey: [CONVERSATIONS_KEY] });
      notifySuccess(t('conversations.deleted'));
      navigate('/conversations');
    },
    onError: (error) => {
      setDeleting(false);
      if (isNoAccess(error)) navigate('/sorry');
      else notifyError(error);
    },
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
