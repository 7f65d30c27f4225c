import { Alert, Badge, Button, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconForms, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ConfirmModal, notifyError, notifySuccess, PageLoader } from '@avatar-studio/shared';
import { useDeleteUserWorkflow, useSaveWorkflowValues, useUserWorkflow, useWorkflow } from './api';
import { FieldValuesModal } from './FieldValuesModal';
import {
  sortedSteps,
  stepsDone,
  type StepStatus,
  type UserWorkflow,
  type UserWorkflowStep,
  type WorkflowField,
} from './model';

export const STATUS_COLOR: Record<StepStatus, string> = {
  pending: 'gray',
  generating: 'blue',
  done: 'green',
  failed: 'red',
};

/** /user_workflows/{user_workflow_id}: the steps with their status, delete, and the field values. */
export function UserWorkflowPage() {
  const { t } = useTranslation('customer');
  const id = Number(useParams<{ user_workflow_id: string }>().user_workflow_id);
  const { query, valid } = useUserWorkflow(id);
  if (!valid || query.isError) {
    return (
      <Container size="md" py="lg">
        <Alert color="red">{t('workflows.user.notFound')}</Alert>
        <Button component={Link} to="/user_workflows" variant="subtle" mt="md">
          {t('workflows.user.back')}
        </Button>
      </Container>
    );
  }
  if (!query.data) return <PageLoader />;
  return <UserWorkflowScreen userWorkflow={query.data} />;
}

function UserWorkflowScreen({ userWorkflow }: { userWorkflow: UserWorkflow }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const id = userWorkflow.user_workflow_id;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  // The field definitions (types, options) are the workflow's; a deleted workflow leaves plain text values.
  const workflowId = userWorkflow.workflow_id;
  const workflow = useWorkflow(workflowId);
  const fields: WorkflowField[] =
    workflow.data?.fields ??
    Object.keys(userWorkflow.values).map((name, index) => ({
      name,
      label: name,
      type: 'text',
      options: [],
      order: index + 1,
      value: '',
    }));

  const save = useSaveWorkflowValues(id, {
    onSaved: () => {
      setEditing(false);
      notifySuccess(`${t('workflows.values.saved')} ${t('workflows.values.savedHint')}`);
    },
    onNoAccess: () => setEditing(false),
  });
  const remove = useDeleteUserWorkflow(id, {
    onDeleted: () => {
      notifySuccess(t('workflows.user.deleted'));
      navigate('/user_workflows');
    },
    onFailed: (error) => {
      setDeleting(false);
      notifyError(error);
    },
  });

  const steps = sortedSteps(userWorkflow.user_workflow_templates);
  const done = stepsDone(userWorkflow);

  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <Button component={Link} to="/user_workflows" variant="subtle" px={0} mr="auto">
          {t('workflows.user.back')}
        </Button>
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={1} size="h2">
              {userWorkflow.name}
            </Title>
            {userWorkflow.workflow === null && (
              <Text size="sm" c="dimmed">
                {t('workflows.user.workflowGone')}
              </Text>
            )}
          </Stack>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconForms size={16} aria-hidden />}
              onClick={() => setEditing(true)}
            >
              {t('workflows.user.values')}
            </Button>
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setDeleting(true)}
            >
              {t('workflows.user.delete')}
            </Button>
          </Group>
        </Group>
        {userWorkflow.description && (
          <Text style={{ whiteSpace: 'pre-wrap' }}>{userWorkflow.description}</Text>
        )}
        <Text size="sm" c="dimmed" role="status">
          {t('workflows.user.progress', { done, total: steps.length })}
        </Text>
        <Stack gap="sm">
          {steps.map((step) => (
            <StepRow key={step.user_workflow_template_id} userWorkflowId={id} step={step} />
          ))}
        </Stack>
      </Stack>

      <FieldValuesModal
        opened={editing}
        title={t('workflows.values.title')}
        fields={fields}
        values={userWorkflow.values}
        submitLabel={t('workflows.values.save')}
        saving={save.isPending}
        onSubmit={(values) => save.mutate(values)}
        onClose={() => {
          setEditing(false);
          save.reset();
        }}
      />
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={t('workflows.user.deleteTitle')}
        body={t('workflows.user.deleteBody')}
        cancelLabel={t('workflows.user.cancel')}
        confirmLabel={t('workflows.user.delete')}
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </Container>
  );
}

function StepRow({ userWorkflowId, step }: { userWorkflowId: number; step: UserWorkflowStep }) {
  const { t } = useTranslation('customer');
  const name = step.template?.name ?? t('workflows.user.removedTemplate');
  return (
    <Paper withBorder p="sm" radius="md" data-testid={`step-${step.user_workflow_template_id}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed">
            {t('workflows.user.step', { order: step.order })}
          </Text>
          <Text fw={600}>{name}</Text>
          {step.template?.description && (
            <Text size="sm" c="dimmed" lineClamp={2}>
              {step.template.description}
            </Text>
          )}
          {step.status === 'failed' && step.error && (
            <Text size="sm" c="red">
              {step.error}
            </Text>
          )}
        </Stack>
        <Stack gap="xs" align="flex-end">
          <Badge
            color={STATUS_COLOR[step.status]}
            variant="light"
            leftSection={step.status === 'generating' ? <Loader size={10} aria-hidden /> : undefined}
          >
            {t(`workflows.user.status.${step.status}`)}
          </Badge>
          <Button
            component={Link}
            to={`/user_workflows/${userWorkflowId}/conversation/${step.conversation_id}`}
            size="xs"
            variant="light"
            aria-label={`${t('workflows.user.viewContent')}: ${name}`}
          >
            {t('workflows.user.viewContent')}
          </Button>
        </Stack>
      </Group>
    </Paper>
  );
}
