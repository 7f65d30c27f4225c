import {
  ActionIcon,
  Anchor,
  Badge,
  Card,
  Container,
  Group,
  Loader,
  Pagination,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useDebouncedValue } from '@avatar-studio/shared';
import { useConversationList, useConversationTags, useCreateConversation } from './api';
import { ConversationFormModal } from './ConversationFormModal';
import { fieldError } from './errors';
import { CARD_TAGS, SORT_OPTIONS, splitTags, type Conversation, type ConversationSort } from './model';

type View = 'all' | 'tags';

/**
 * Conversations page (/ and /conversations) and the tag routes (/conversation/tags[/{tag}]): search,
 * sort, All/Tags toggle, archived toggle and an add button.
 */
export function ConversationsPage({ initialView = 'all' }: { initialView?: View }) {
  const { t, i18n } = useTranslation('customer');
  const { tag } = useParams<{ tag?: string }>();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [sortBy, setSortBy] = useState<ConversationSort>('createdAt_desc');
  const [view, setView] = useState<View>(tag ? 'all' : initialView);
  const [archived, setArchived] = useState(false);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);

  const list = useConversationList({ query, sortBy, archived, tag, page }, view === 'all');
  const tags = useConversationTags(archived, view === 'tags');
  const create = useCreateConversation({
    onCreated: (conversation) => {
      setAdding(false);
      navigate(`/conversations/${conversation.conversation_id}`);
    },
    onNoAccess: () => setAdding(false),
  });

  const resetPage =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const date = (value: string) => new Date(value).toLocaleString(i18n.language);
  const data = list.data;
  const pages = data ? Math.ceil(data.total / data.limit) : 0;

  return (
    <Container size="lg" py="lg">
      <Group justify="space-between" mb="md">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {tag ? t('conversations.tagTitle', { tag }) : t('conversations.title')}
          </Title>
          {tag && (
            <Anchor component={Link} to="/conversations" size="sm">
              {t('conversations.allChats')}
            </Anchor>
          )}
        </Stack>
        <Tooltip label={t('conversations.add')}>
          <ActionIcon size="lg" aria-label={t('conversations.add')} onClick={() => setAdding(true)}>
            <IconPlus size={20} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>

      <Group mb="md" align="flex-end" wrap="wrap">
        {view === 'all' && (
          <>
            <TextInput
              label={t('conversations.search')}
              value={search}
              onChange={(e) => resetPage(setSearch)(e.currentTarget.value)}
              leftSection={<IconSearch size={16} aria-hidden />}
              style={{ flex: 1, minWidth: 200 }}
            />
            <Select
              label={t('conversations.sort.label')}
              value={sortBy}
              onChange={(value) => value && resetPage(setSortBy)(value as ConversationSort)}
              allowDeselect={false}
              data={SORT_OPTIONS.map((s) => ({ value: s, label: t(`conversations.sort.${s}`) }))}
            />
          </>
        )}
        {!tag && (
          <SegmentedControl
            aria-label={t('conversations.view.label')}
            value={view}
            onChange={(value) => setView(value as View)}
            data={[
              { value: 'all', label: t('conversations.view.all') },
              { value: 'tags', label: t('conversations.view.tags') },
            ]}
          />
        )}
        <Switch
          label={t('conversations.archived')}
          checked={archived}
          onChange={(e) => resetPage(setArchived)(e.currentTarget.checked)}
          mb={8}
        />
      </Group>

      {view === 'tags' ? (
        tags.isPending ? (
          <Loader aria-label={t('conversations.title')} />
        ) : !tags.data?.tags.length ? (
          <Text c="dimmed">{t('conversations.noTags')}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {tags.data.tags.map((item) => (
              <Card
                key={item.tag}
                withBorder
                component={Link}
                to={`/conversation/tags/${encodeURIComponent(item.tag)}`}
              >
                <Text fw={600}>{item.tag}</Text>
                <Text size="sm" c="dimmed">
                  {t('conversations.tagCount', { count: item.conversations })}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        )
      ) : list.isPending ? (
        <Loader aria-label={t('conversations.title')} />
      ) : !data?.conversations.length ? (
        <Text c="dimmed">{t('conversations.empty')}</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {data.conversations.map((c) => (
              <ConversationCard key={c.conversation_id} conversation={c} date={date} />
            ))}
          </SimpleGrid>
          {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} />}
        </>
      )}

      <ConversationFormModal
        opened={adding}
        onClose={() => {
          setAdding(false);
          create.reset();
        }}
        saving={create.isPending}
        nameError={fieldError(create.error, 'name')}
        onSubmit={(values) => create.mutate(values)}
      />
    </Container>
  );
}

function ConversationCard({
  conversation,
  date,
}: {
  conversation: Conversation;
  date: (v: string) => string;
}) {
  const { t } = useTranslation('customer');
  const tags = splitTags(conversation.tags).slice(0, CARD_TAGS);
  return (
    <Card withBorder component={Link} to={`/conversations/${conversation.conversation_id}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} lineClamp={1}>
            {conversation.name}
          </Text>
          {conversation.archived && (
            <Badge variant="light" color="gray">
              {t('conversations.archivedBadge')}
            </Badge>
          )}
        </Group>
        {tags.length > 0 && (
          <Group gap={4}>
            {tags.map((tag) => (
              <Badge key={tag} variant="outline" size="sm">
                {tag}
              </Badge>
            ))}
          </Group>
        )}
        <Text size="xs" c="dimmed">
          {t('conversations.lastUsed', { date: date(conversation.updatedAt) })}
        </Text>
      </Stack>
    </Card>
  );
}
