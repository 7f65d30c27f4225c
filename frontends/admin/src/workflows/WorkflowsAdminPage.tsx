import {
  ActionIcon,
  Button,
  Group,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  ConfirmModal,
  notifyError,
  notifySuccess,
  PageLoader,
  unwrap,
  useDebouncedValue,
} from '@avatar-studio/shared';
import { api, formatDate } from '@avatar-studio/shared';
import type { Workflow } from './model';

export const WORKFLOWS_QUERY_KEY = ['admin', 'workflows'] as const;

/** Staff authoring of workflows (/admin/workflows): the list with search, edit and delete. */
export function WorkflowsAdminPage() {
  const { t, i18n } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [pageState, setPageState] = useState({ page: 1, query: '' });
  // A new search starts again at page 1.
  const page = pageState.query === query ? pageState.page : 1;
  const [removing, setRemoving] = useState<Workflow | null>(null);

  const list = useQuery({
    queryKey: [...WORKFLOWS_QUERY_KEY, 'list', { page, query }],
    queryFn: () =>
      unwrap(api.GET('/api/workflows', { params: { query: { page, ...(query ? { query } : {}) } } })),
    placeholderData: keepPreviousData,
  });

  const remove = useMutation({
    mutationFn: (workflowId: number) =>
      unwrap(
        api.DELETE('/api/workflows/{workflow_id}', {
          params: { path: { workflow_id: workflowId } },
        }),
      ),
    onSuccess: async () => {
      setRemoving(null);
      notifySuccess(t('workflows.removed'));
      await queryClient.invalidateQueries({ queryKey: WORKFLOWS_QUERY_KEY });
    },
    onError: (error) => {
      setRemoving(null);
      notifyError(error);
    },
  });

  const data = list.data;
  const pages = data ? Math.ceil(data.total / data.limit) : 0;

  return (
    <Stack gap="md" p="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('workflows.title')}
        </Title>
        <Button component={Link} to="/admin/workflows/new" leftSection={<IconPlus size={16} aria-hidden />}>
          {t('workflows.add')}
        </Button>
      </Group>
      <TextInput
        label={t('workflows.search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden />}
        maw={400}
      />
      {list.isPending ? (
        <PageLoader />
      ) : !data?.workflows.length ? (
        <Text c="dimmed">{t('workflows.empty')}</Text>
      ) : (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('workflows.columns.name')}</Table.Th>
                  <Table.Th>{t('workflows.columns.tags')}</Table.Th>
                  <Table.Th>{t('workflows.columns.steps')}</Table.Th>
                  <Table.Th>{t('workflows.columns.updated')}</Table.Th>
                  <Table.Th>{t('workflows.columns.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.workflows.map((workflow) => (
                  <Table.Tr key={workflow.workflow_id}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {workflow.name}
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {workflow.description}
                      </Text>
                    </Table.Td>
                    <Table.Td>{workflow.tags.split(',').filter(Boolean).join(', ')}</Table.Td>
                    <Table.Td>{workflow.templates.length}</Table.Td>
                    <Table.Td>{formatDate(workflow.updatedAt, i18n.language)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={t('workflows.edit')}>
                          <ActionIcon
                            component={Link}
                            to={`/admin/workflows/${workflow.workflow_id}`}
                            variant="subtle"
                            aria-label={t('workflows.editLabel', { name: workflow.name })}
                          >
                            <IconPencil size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('workflows.remove')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('workflows.removeLabel', { name: workflow.name })}
                            onClick={() => setRemoving(workflow)}
                          >
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {pages > 1 && (
        <Pagination total={pages} value={page} onChange={(next) => setPageState({ page: next, query })} />
      )}

      <ConfirmModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={t('workflows.removeTitle')}
        body={t('workflows.removeBody', { name: removing?.name ?? '' })}
        cancelLabel={t('workflows.cancel')}
        confirmLabel={t('workflows.remove')}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.workflow_id)}
      />
    </Stack>
  );
}
