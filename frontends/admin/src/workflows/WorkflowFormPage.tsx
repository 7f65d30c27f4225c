import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconGripVertical,
  IconPlus,
  IconSearch,
  IconX,
} from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  ApiError,
  PageLoader,
  api,
  notifyError,
  notifySuccess,
  unwrap,
  useDebouncedValue,
} from '@avatar-studio/shared';
import type { Workflow } from './model';
import { WORKFLOWS_QUERY_KEY } from './WorkflowsAdminPage';

/** The workflows API contract: 1 to 20 templates per workflow. */
export const MAX_STEPS = 20;

export interface Step {
  template_id: number;
  name: string;
  description: string;
}

/** The steps with the one at `from` moved to `to` (both 0-based). */
export function moveStep<T>(steps: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= steps.length || to >= steps.length) return [...steps];
  const next = [...steps];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

/**
 * Create (/admin/workflows/new) or edit (/admin/workflows/{workflow_id}) a workflow. Saving rule: a numeric
 * id is updated, anything else is created.
 */
export function WorkflowFormPage() {
  const { t } = useTranslation('admin');
  const param = useParams<{ workflow_id: string }>().workflow_id ?? '';
  const id = /^\d+$/.test(param) ? Number(param) : null;
  const workflow = useQuery({
    queryKey: [...WORKFLOWS_QUERY_KEY, 'one', id],
    queryFn: async () =>
      (await unwrap(api.GET('/api/workflows/{workflow_id}', { params: { path: { workflow_id: id ?? 0 } } })))
        .workflow,
    enabled: id !== null,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 3,
  });
  if (id === null) return <WorkflowForm key="new" workflow={null} />;
  if (workflow.isError) {
    return (
      <Stack p="md" align="flex-start">
        <Alert color="red">{t('workflows.notFound')}</Alert>
        <Button component={Link} to="/admin/workflows" variant="subtle">
          {t('workflows.back')}
        </Button>
      </Stack>
    );
  }
  if (!workflow.data) return <PageLoader />;
  return <WorkflowForm key={id} workflow={workflow.data} />;
}

function splitTags(tags: string): string[] {
  return tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

function WorkflowForm({ workflow }: { workflow: Workflow | null }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(workflow?.name ?? '');
  const [description, setDescription] = useState(workflow?.description ?? '');
  const [tags, setTags] = useState<string[]>(splitTags(workflow?.tags ?? ''));
  const [steps, setSteps] = useState<Step[]>(
    [...(workflow?.templates ?? [])]
      .sort((a, b) => a.order - b.order)
      .map(({ template_id, name: stepName, description: stepDescription }) => ({
        template_id,
        name: stepName,
        description: stepDescription,
      })),
  );
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [dragging, setDragging] = useState<number | null>(null);

  const errors = {
    name: name.trim() === '' ? t('workflows.form.required') : serverErrors.name,
    description: description.trim() === '' ? t('workflows.form.required') : serverErrors.description,
    steps: steps.length === 0 ? t('workflows.form.noSteps') : serverErrors.template_ids,
  };
  const shown = submitted
    ? errors
    : { name: serverErrors.name, description: serverErrors.description, steps: serverErrors.template_ids };

  const save = useMutation({
    mutationFn: async () => {
      const body = {
        name: name.trim(),
        description: description.trim(),
        tags,
        template_ids: steps.map((s) => s.template_id),
      };
      return workflow
        ? (await unwrap(api.PUT('/api/workflows', { body: { workflow_id: workflow.workflow_id, ...body } })))
            .workflow
        : (await unwrap(api.POST('/api/workflows', { body }))).workflow;
    },
    onSuccess: async () => {
      notifySuccess(t('workflows.form.saved'));
      await queryClient.invalidateQueries({ queryKey: WORKFLOWS_QUERY_KEY });
      navigate('/admin/workflows');
    },
    onError: (error) => {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? (error.errors ?? []) : [];
      if (fieldErrors.length) {
        setServerErrors(Object.fromEntries(fieldErrors.map((e) => [e.field, e.message])));
      } else notifyError(error);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setServerErrors({});
    if (errors.name || errors.description || errors.steps) {
      notifyError(t('workflows.form.incomplete'));
      return;
    }
    save.mutate();
  };

  const add = (template: Step) => {
    setSteps((prev) =>
      prev.length >= MAX_STEPS || prev.some((s) => s.template_id === template.template_id)
        ? prev
        : [...prev, template],
    );
    setServerErrors(({ template_ids: _, ...rest }) => rest);
  };
  const move = (from: number, to: number) => setSteps((prev) => moveStep(prev, from, to));
  const drop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (dragging !== null) move(dragging, to);
    setDragging(null);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" p="md">
        <Group justify="space-between">
          <Title order={1} size="h2">
            {workflow ? t('workflows.form.editTitle') : t('workflows.form.createTitle')}
          </Title>
          <Group gap="xs">
            <Button component={Link} to="/admin/workflows" variant="default">
              {t('workflows.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('workflows.form.save')}
            </Button>
          </Group>
        </Group>
        <TextInput
          label={t('workflows.form.name')}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={shown.name}
          maxLength={200}
        />
        <Textarea
          label={t('workflows.form.description')}
          required
          autosize
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={shown.description}
        />
        <TagsInput
          label={t('workflows.form.tags')}
          description={t('workflows.form.tagsHint')}
          value={tags}
          onChange={setTags}
          splitChars={[',']}
          clearable
        />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Paper withBorder p="sm">
            <Stack gap="xs">
              <Group justify="space-between">
                <Title order={2} size="h4">
                  {t('workflows.form.steps')}
                </Title>
                <Text size="sm" c={steps.length >= MAX_STEPS ? 'orange' : 'dimmed'}>
                  {t('workflows.form.stepCount', { count: steps.length, max: MAX_STEPS })}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {t('workflows.form.stepsHint', { max: MAX_STEPS })}
              </Text>
              {shown.steps && (
                <Text size="sm" c="red" role="alert">
                  {shown.steps}
                </Text>
              )}
              {steps.length >= MAX_STEPS && (
                <Text size="sm" c="orange">
                  {t('workflows.form.tooMany', { max: MAX_STEPS })}
                </Text>
              )}
              <Stack
                gap={4}
                component="ol"
                aria-label={t('workflows.form.steps')}
                m={0}
                p={0}
                style={{ listStyle: 'none' }}
              >
                {steps.map((step, index) => (
                  <Paper
                    key={step.template_id}
                    component="li"
                    withBorder
                    p="xs"
                    draggable
                    onDragStart={() => setDragging(index)}
                    onDragEnd={() => setDragging(null)}
                    onDragOver={(e: DragEvent) => e.preventDefault()}
                    onDrop={(e: DragEvent) => drop(e, index)}
                    opacity={dragging === index ? 0.5 : 1}
                    data-testid="workflow-step"
                  >
                    <Group gap="xs" wrap="nowrap">
                      <IconGripVertical
                        size={16}
                        aria-label={t('workflows.form.dragStep', { name: step.name })}
                        style={{ cursor: 'grab', flexShrink: 0 }}
                      />
                      <Text size="sm" c="dimmed" w={24}>
                        {index + 1}.
                      </Text>
                      <Text size="sm" fw={600} style={{ flex: 1 }} lineClamp={1}>
                        {step.name}
                      </Text>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('workflows.form.moveUp', { name: step.name })}
                        disabled={index === 0}
                        onClick={() => move(index, index - 1)}
                      >
                        <IconArrowUp size={16} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('workflows.form.moveDown', { name: step.name })}
                        disabled={index === steps.length - 1}
                        onClick={() => move(index, index + 1)}
                      >
                        <IconArrowDown size={16} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('workflows.form.removeStep', { name: step.name })}
                        onClick={() => setSteps((prev) => prev.filter((_, i) => i !== index))}
                      >
                        <IconX size={16} aria-hidden />
                      </ActionIcon>
                    </Group>
                  </Paper>
                ))}
              </Stack>
            </Stack>
          </Paper>
          <TemplatePicker chosen={steps} full={steps.length >= MAX_STEPS} onAdd={add} />
        </SimpleGrid>
      </Stack>
    </form>
  );
}

/** Templates the staff member can see (GET /api/templates: their own and public ones), searchable. */
function TemplatePicker({
  chosen,
  full,
  onAdd,
}: {
  chosen: Step[];
  full: boolean;
  onAdd: (step: Step) => void;
}) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const templates = useQuery({
    queryKey: ['admin', 'workflow-templates', { query }],
    queryFn: () =>
      unwrap(api.GET('/api/templates', { params: { query: { page: 1, ...(query ? { query } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const items = templates.data?.templates ?? [];
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('workflows.form.templates')}
        </Title>
        <TextInput
          label={t('workflows.form.searchTemplates')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
        />
        {templates.isPending ? (
          <Loader size="sm" aria-label={t('workflows.form.templates')} />
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('workflows.form.noTemplates')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={420}>
            <Stack gap={4}>
              {items.map((template) => {
                const added = chosen.some((s) => s.template_id === template.template_id);
                return (
                  <Group key={template.template_id} gap="xs" wrap="nowrap" justify="space-between">
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} lineClamp={1}>
                        {template.name}
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {template.description}
                      </Text>
                    </Stack>
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={added ? undefined : <IconPlus size={14} aria-hidden />}
                      disabled={added || full}
                      aria-label={
                        added
                          ? t('workflows.form.added')
                          : t('workflows.form.addStepLabel', { name: template.name })
                      }
                      onClick={() =>
                        onAdd({
                          template_id: template.template_id,
                          name: template.name,
                          description: template.description,
                        })
                      }
                    >
                      {added ? t('workflows.form.added') : t('workflows.form.addStep')}
                    </Button>
                  </Group>
                );
              })}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Paper>
  );
}
