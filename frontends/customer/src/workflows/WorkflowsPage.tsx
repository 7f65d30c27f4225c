import {
  Badge,
  Button,
  Card,
  Container,
  Group,
  Loader,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconListCheck, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDebouncedValue } from '@avatar-studio/shared';
import { useWorkflowList } from './api';
import { CARD_TAGS, splitTags, type WorkflowListItem } from './model';

/** /workflows: the workflow cards, with a search (500 ms debounce) and a tag filter. */
export function WorkflowsPage() {
  const { t } = useTranslation('customer');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [tag, setTag] = useState<string | null>(null);
  const [pageState, setPageState] = useState({ page: 1, filter: '' });
  // A new search or tag starts again at page 1.
  const filter = `${query}\u0000${tag ?? ''}`;
  const page = pageState.filter === filter ? pageState.page : 1;

  const list = useWorkflowList({ query, tag, page });
  const data = list.data;
  const pages = data ? Math.ceil(data.total / data.limit) : 0;

  return (
    <Container size="lg" py="lg">
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          {t('workflows.title')}
        </Title>
        <Button
          component={Link}
          to="/user_workflows"
          variant="light"
          leftSection={<IconListCheck size={16} aria-hidden />}
        >
          {t('workflows.myWorkflows')}
        </Button>
      </Group>

      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput
          label={t('workflows.search')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Select
          label={t('workflows.tag')}
          placeholder={t('workflows.allTags')}
          value={tag}
          onChange={setTag}
          clearable
          searchable
          data={(data?.tags ?? []).map((item) => ({
            value: item.tag,
            label: t('workflows.tagOption', { tag: item.tag, count: item.count }),
          }))}
        />
      </Group>

      {list.isPending ? (
        <Loader aria-label={t('workflows.title')} />
      ) : !data?.workflows.length ? (
        <Text c="dimmed">{t('workflows.empty')}</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {data.workflows.map((workflow) => (
              <WorkflowCard key={workflow.workflow_id} workflow={workflow} />
            ))}
          </SimpleGrid>
          {pages > 1 && (
            <Pagination
              mt="md"
              total={pages}
              value={page}
              onChange={(next) => setPageState({ page: next, filter })}
            />
          )}
        </>
      )}
    </Container>
  );
}

function WorkflowCard({ workflow }: { workflow: WorkflowListItem }) {
  const { t } = useTranslation('customer');
  const tags = splitTags(workflow.tags).slice(0, CARD_TAGS);
  return (
    <Card withBorder component={Link} to={`/workflows/${workflow.workflow_id}`} data-testid="workflow-card">
      <Stack gap="xs">
        <Text fw={600} lineClamp={1}>
          {workflow.name}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {workflow.description}
        </Text>
        {tags.length > 0 && (
          <Group gap={4}>
            {tags.map((item) => (
              <Badge key={item} variant="outline" size="sm">
                {item}
              </Badge>
            ))}
          </Group>
        )}
        <Text size="xs" c="dimmed">
          {t('workflows.stepCount', { count: workflow.templates.length })}
        </Text>
      </Stack>
    </Card>
  );
}
