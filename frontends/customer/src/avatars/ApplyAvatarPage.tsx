import { Alert, Anchor, Box, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { PageLoader } from '@avatar-studio/shared';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useTemplate } from '../templates/api';
import { TemplateApplyForm } from '../templates/TemplateApplyForm';
import { useApplyWithAvatar, useAvatar } from './api';
import { AvatarChat } from './AvatarChat';

/**
 * /templates/apply-avatar/{template_id}/{avatar_id}: the template's form beside the caller's chat with the
 * avatar; Generate sends the filled-in template to the avatar, which answers from its context and files.
 */
export function ApplyAvatarPage() {
  const { t } = useTranslation('customer');
  const params = useParams<{ template_id: string; avatar_id: string }>();
  const templateId = Number(params.template_id);
  const avatarId = Number(params.avatar_id);
  const template = useTemplate(templateId);
  const avatar = useAvatar(avatarId);
  const apply = useApplyWithAvatar(avatarId, () => undefined);

  if (template.isError || avatar.isError)
    return (
      <Container size="md" py="lg">
        <Alert color="red">{avatar.isError ? t('avatars.notFound') : t('templates.notFound')}</Alert>
        <Button component={Link} to="/templates" variant="subtle" mt="md">
          {t('templates.apply.browse')}
        </Button>
      </Container>
    );
  if (!template.data || !avatar.data) return <PageLoader />;
  return (
    <Container size="xl" py="lg">
      <Stack gap={2} mb="sm">
        <Anchor component={Link} to="/templates" size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden />
            {t('templates.apply.browse')}
          </Group>
        </Anchor>
        <Title order={1} size="h3">
          {t('avatars.apply.title', { name: avatar.data.name })}
        </Title>
      </Stack>
      <Group align="stretch" gap="lg" wrap="wrap">
        <Paper withBorder p="md" component="section" aria-label={template.data.name} w={420} maw="100%">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {template.data.name}
            </Title>
            {template.data.description && (
              <Text size="sm" c="dimmed">
                {template.data.description}
              </Text>
            )}
            <TemplateApplyForm
              template={template.data}
              generating={apply.isPending}
              onGenerate={(values) => apply.mutate({ template_id: templateId, values })}
            />
          </Stack>
        </Paper>
        <Paper
          withBorder
          p="sm"
          style={{ flex: 1, minWidth: 300, height: 600, display: 'flex', flexDirection: 'column' }}
        >
          <Box style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
            <AvatarChat avatarId={avatarId} />
          </Box>
        </Paper>
      </Group>
    </Container>
  );
}
