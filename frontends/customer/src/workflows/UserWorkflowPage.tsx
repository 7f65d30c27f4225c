import { Alert, Badge, Button, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconForms, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  api,
  ConfirmModal,
  notifyError,
  notifySuccess,
  PageLoader,
  unwrap,
  useRealtimeEvent,
} from '@avatar-studio/shared';
import { FieldValuesModal } from './FieldValuesModal';
import {
  USER_WORKFLOWS_KEY,
  WORKFLOWS_KEY,
  applyStepStatus,
  isBusy,
  isNoAccess,
  readStepStatusEvent,
  retryServerErrors,
  sortedSteps,
  stepsDone,
  type StepStatus,
  type UserWorkflow,
  type UserWorkflowStep,
  type WorkflowField,
} from './model';

/** While a step is still pending or generating, re-read now and then in case a socket event was missed. */
const BUSY_REFRESH_MS = 10_000;

export const STATUS_COLOR: Record<StepStatus, string> = {
  pending: 'gray',
  generating: 'blue',
  done: 'green',
  failed: 'red',
};

/** The user workflow query, kept live by the step status (`message`) and stream-end socket events. */
export function useUserWorkflow(id: number) {
  const queryClient = useQueryClient();
  const valid = Number.isInteger(id) && id > 0;
  const key = [USER_WORKFLOWS_KEY, 'one', id];
  const query = useQuery({
    queryKey: key,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/user_workflows/{user_workflow_id}', {
            params: { path: { user_workflow_id: id } },
          }),
        )
      ).user_workflow,
    enabled: valid,
    retry: retryServerErrors,
    refetchInterval: (q) =>
      q.state.data?.user_workflow_templates.some((s) => isBusy(s.status)) ? BUSY_REFRESH_MS : false,
  });

  useRealtimeEvent('message', (payload) => {
    const event = readStepStatusEvent(payload);
    if (!event || event.user_workflow_id !== id) return;
    queryClient.setQueryData<UserWorkflow>(key, (old) => old && applyStepStatus(old, event));
    // The event carries no error text and no timestamps: read the saved row once the step has ended.
    if (!isBusy(event.status)) void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: [USER_WORKFLOWS_KEY, 'list'] });
  });
  useRealtimeEvent('message_stream_end', (payload) => {
    const steps = query.data?.user_workflow_templates ?? [];
    if (steps.some((s) => s.conversation_id === Number(payload.conversation_id))) {
      void queryClient.invalidateQueries({ queryKey: key });
    }
  });
  return { query, valid };
}

/** Spec 001 §2 /user_workflows/{user_workflow_id}: the steps with their status, delete, and the field values. */
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
  const queryClient = useQueryClient();
  const id = userWorkflow.user_workflow_id;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  // The field definitions (types, options) are the workflow's; a deleted workflow leaves plain text values.
  const workflowId = userWorkflow.workflow_id;
  const workflow = useQuery({
    queryKey: [WORKFLOWS_KEY, 'one', workflowId],
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/workflows/{workflow_id}', {
            params: { path: { workflow_id: workflowId ?? 0 } },
          }),
        )
      ).workflow,
    enabled: workflowId !== null,
    retry: retryServerErrors,
  });
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

  const save = useMutation({
    mutationFn: async (values: Record<string, string>) =>
      (await unwrap(api.PUT('/api/user_workflows', { body: { user_workflow_id: id, values } })))
        .user_workflow,
    onSuccess: (saved) => {
      queryClient.setQueryData([USER_WORKFLOWS_KEY, 'one', id], saved);
      setEditing(false);
      notifySuccess(`${t('workflows.values.saved')} ${t('workflows.values.savedHint')}`);
    },
    onError: (error) => {
      if (isNoAccess(error)) {
        setEditing(false);
        navigate('/sorry');
      } else notifyError(error);
    },
  });

  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/user_workflows/{user_workflow_id}', {
          params: { path: { user_workflow_id: id } },
        }),
      ),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [USER_WORKFLOWS_KEY, 'one', id] });
      void queryClient.invalidateQueries({ queryKey: [USER_WORKFLOWS_KEY, 'list'] });
      notifySuccess(t('workflows.user.deleted'));
      navigate('/user_workflows');
    },
    onError: (error) => {
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
