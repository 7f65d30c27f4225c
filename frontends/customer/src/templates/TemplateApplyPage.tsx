import {
  Alert,
  Anchor,
  Box,
  Button,
  Container,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { BREAKPOINT_PX, PageLoader } from '@avatar-studio/shared';
import { ConversationChat } from '../conversations/ConversationChat';
import { useConversation } from '../conversations/api';
import type { Template } from './model';
import { useApplyTemplate, useTemplate } from './api';
import { TemplateApplyForm } from './TemplateApplyForm';

type View = 'form' | 'chat';

/**
 * /templates/apply-template/{template_id}/{conversation_id}: the template's form and the conversation's
 * chat, side by side on large screens; below 1200 px a form/chat toggle, the form first and the chat after Generate.
 */
export function TemplateApplyPage() {
  const { t } = useTranslation('customer');
  const params = useParams<{ template_id: string; conversation_id: string }>();
  const templateId = Number(params.template_id);
  const conversationId = Number(params.conversation_id);
  const template = useTemplate(templateId);
  const validIds = [templateId, conversationId].every((n) => Number.isInteger(n) && n > 0);

  if (!validIds || template.isError)
    return (
      <Container size="md" py="lg">
        <Alert color="red">{t('templates.notFound')}</Alert>
        <Button component={Link} to="/templates" variant="subtle" mt="md">
          {t('templates.apply.browse')}
        </Button>
      </Container>
    );
  if (!template.data) return <PageLoader />;
  return (
    <ApplyScreen
      key={`${templateId}:${conversationId}`}
      template={template.data}
      conversationId={conversationId}
    />
  );
}

function ApplyScreen({ template, conversationId }: { template: Template; conversationId: number }) {
  const { t } = useTranslation('customer');
  const large = useMediaQuery(`(min-width: ${BREAKPOINT_PX.medium}px)`, false) ?? false;
  const [view, setView] = useState<View>('form');
  const conversation = useConversation(conversationId);
  const apply = useApplyTemplate(conversationId, () => setView('chat'));

  const form = (
    <Paper withBorder p="md" component="section" aria-label={template.name}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {template.name}
        </Title>
        {template.description && (
          <Text size="sm" c="dimmed">
            {template.description}
          </Text>
        )}
        <TemplateApplyForm
          template={template}
          generating={apply.isPending}
          onGenerate={(values) => apply.mutate({ templateId: template.template_id, values })}
        />
      </Stack>
    </Paper>
  );
  const chat = (
    <Box
      component="section"
      aria-label={t('templates.apply.conversation')}
      style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}
    >
      <ConversationChat conversationId={conversationId} />
    </Box>
  );

  return (
    <Container size="xl" py="lg" h="calc(100dvh - 80px)" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Stack gap={2}>
          <Anchor component={Link} to="/templates" size="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} aria-hidden />
              {t('templates.apply.browse')}
            </Group>
          </Anchor>
          <Title order={1} size="h3" lineClamp={1}>
            {conversation.data?.name ?? t('templates.apply.title')}
          </Title>
        </Stack>
        {!large && (
          <SegmentedControl
            aria-label={t('templates.apply.view.label')}
            value={view}
            onChange={(value) => setView(value as View)}
            data={[
              { value: 'form', label: t('templates.apply.view.form') },
              { value: 'chat', label: t('templates.apply.view.chat') },
            ]}
          />
        )}
      </Group>
      {large ? (
        <Group align="stretch" wrap="nowrap" style={{ flex: 1, minHeight: 0 }} gap="lg">
          <Box w={420} style={{ flexShrink: 0, overflowY: 'auto' }}>
            {form}
          </Box>
          {chat}
        </Group>
      ) : (
        // Both stay mounted so that typed values survive the toggle and the chat keeps receiving the stream.
        <>
          <Box style={{ overflowY: 'auto', display: view === 'form' ? 'block' : 'none' }}>{form}</Box>
          <Box
            style={{
              flex: 1,
              minHeight: 0,
              flexDirection: 'column',
              display: view === 'chat' ? 'flex' : 'none',
            }}
          >
            {chat}
          </Box>
        </>
      )}
    </Container>
  );
}
