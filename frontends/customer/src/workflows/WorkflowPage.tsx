import { Alert, Badge, Button, Container, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageLoader, useSession } from '@avatar-studio/shared';
import { useStartWorkflow, useWorkflow } from './api';
import { FieldValuesModal } from './FieldValuesModal';
import { sortedSteps, splitTags, type Workflow } from './model';
import { UpgradePrompt } from '../access';

/** /workflows/{workflow_id}: the workflow's description and steps, with a Start button. */
export function WorkflowPage() {
  const { t } = useTranslation('customer');
  const id = Number(useParams<{ workflow_id: string }>().workflow_id);
  const valid = Number.isInteger(id) && id > 0;
  const workflow = useWorkflow(valid ? id : null);
  if (!valid || workflow.isError) {
    return (
      <Container size="md" py="lg">
        <Alert color="red">{t('workflows.notFound')}</Alert>
        <Button component={Link} to="/workflows" variant="subtle" mt="md">
          {t('workflows.back')}
        </Button>
      </Container>
    );
  }
  if (!workflow.data) return <PageLoader />;
  return <WorkflowScreen workflow={workflow.data} />;
}

function WorkflowScreen({ workflow }: { workflow: Workflow }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const hasAccess = useSession().user?.has_access ?? false;
  const [starting, setStarting] = useState(false);

  const start = useStartWorkflow(workflow.workflow_id, {
    onStarted: (userWorkflow) => {
      setStarting(false);
      navigate(`/user_workflows/${userWorkflow.user_workflow_id}`);
    },
    onNoAccess: () => setStarting(false),
  });

  const tags = splitTags(workflow.tags);
  const steps = sortedSteps(workflow.templates);

  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <Button component={Link} to="/workflows" variant="subtle" px={0} mr="auto">
          {t('workflows.back')}
        </Button>
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={1} size="h2">
            {workflow.name}
          </Title>
          <Button
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={() => setStarting(true)}
            disabled={!hasAccess}
          >
            {t('workflows.start')}
          </Button>
        </Group>
        {!hasAccess && <UpgradePrompt />}
        <Text style={{ whiteSpace: 'pre-wrap' }}>{workflow.description}</Text>
        {tags.length > 0 && (
          <Group gap={4}>
            {tags.map((tag) => (
              <Badge key={tag} variant="outline" size="sm">
                {tag}
              </Badge>
            ))}
          </Group>
        )}
        <Title order={2} size="h4">
          {t('workflows.steps')}
        </Title>
        <List type="ordered" spacing="sm" aria-label={t('workflows.steps')}>
          {steps.map((step) => (
            <List.Item key={`${step.order}-${step.template_id}`}>
              <Text fw={600}>{step.name}</Text>
              {step.description && (
                <Text size="sm" c="dimmed">
                  {step.description}
                </Text>
              )}
            </List.Item>
          ))}
        </List>
      </Stack>

      <FieldValuesModal
        opened={starting}
        title={t('workflows.values.startTitle', { name: workflow.name })}
        fields={workflow.fields}
        submitLabel={t('workflows.values.start')}
        saving={start.isPending}
        onSubmit={(values) => start.mutate(values)}
        onClose={() => {
          setStarting(false);
          start.reset();
        }}
      />
    </Container>
  );
}
