import {
  Button,
  Card,
  Container,
  Group,
  Loader,
  Pagination,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime } from '@avatar-studio/shared';
import { useUserWorkflowList } from './api';
import { stepsDone, type UserWorkflow } from './model';

/** /user_workflows: the caller's own workflows, newest first. */
export function UserWorkflowsPage() {
  const { t } = useTranslation('customer');
  const [page, setPage] = useState(1);
  const list = useUserWorkflowList(page);
  const data = list.data;
  const pages = data ? Math.ceil(data.total / data.limit) : 0;

  return (
    <Container size="lg" py="lg">
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          {t('workflows.user.title')}
        </Title>
        <Button component={Link} to="/workflows" variant="light">
          {t('workflows.user.browse')}
        </Button>
      </Group>
      {list.isPending ? (
        <Loader aria-label={t('workflows.user.title')} />
      ) : !data?.user_workflows.length ? (
        <Text c="dimmed">{t('workflows.user.empty')}</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {data.user_workflows.map((item) => (
              <UserWorkflowCard key={item.user_workflow_id} userWorkflow={item} />
            ))}
          </SimpleGrid>
          {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} />}
        </>
      )}
    </Container>
  );
}

function UserWorkflowCard({ userWorkflow }: { userWorkflow: UserWorkflow }) {
  const { t, i18n } = useTranslation('customer');
  const total = userWorkflow.user_workflow_templates.length;
  const done = stepsDone(userWorkflow);
  return (
    <Card
      withBorder
      component={Link}
      to={`/user_workflows/${userWorkflow.user_workflow_id}`}
      data-testid="user-workflow-card"
    >
      <Stack gap="xs">
        <Text fw={600} lineClamp={1}>
          {userWorkflow.workflow?.name ?? userWorkflow.name}
        </Text>
        {userWorkflow.workflow && userWorkflow.name !== userWorkflow.workflow.name && (
          <Text size="sm" lineClamp={1}>
            {userWorkflow.name}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {t('workflows.user.started', {
            date: formatDateTime(userWorkflow.createdAt, i18n.language),
          })}
        </Text>
        <Progress value={total ? (done / total) * 100 : 0} size="sm" aria-hidden />
        <Text size="sm">{t('workflows.user.progress', { done, total })}</Text>
      </Stack>
    </Card>
  );
}
