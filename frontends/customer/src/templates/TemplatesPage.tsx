import {
  ActionIcon,
  Anchor,
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
  Switch,
  Tabs,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconPencil,
  IconPlayerPlay,
  IconPlus,
  IconSearch,
  IconStar,
  IconStarFilled,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ConfirmModal, notifySuccess, useDebouncedValue, useSession } from '@avatar-studio/shared';
import {
  useDeleteTemplate,
  useStartTemplateConversation,
  useTemplateList,
  useTemplateTags,
  useTemplateTypes,
  useToggleFavorite,
} from './api';
import {
  CARD_TAGS,
  SORT_OPTIONS,
  TEMPLATE_LANGUAGES,
  canChangeTemplate,
  splitTags,
  type Template,
  type TemplateLanguage,
  type TemplateSort,
  type Viewer,
} from './model';

export type TemplatesTab = 'all' | 'type' | 'tags';

const TAB_PATHS: Record<TemplatesTab, string> = {
  all: '/templates',
  type: '/templates/types',
  tags: '/templates/tags',
};

/** Longest conversation name the server takes; a template's name may be as long, so it is cut. */
const MAX_CONVERSATION_NAME = 200;

/**
 * Template page: tabs all / type / tags (/templates, /templates/types, /templates/tags). Choosing a
 * type or tag drills in (/templates/types/{type}, /templates/tags/{tag}); Back returns to the tab list.
 */
export function TemplatesPage({ tab }: { tab: TemplatesTab }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const params = useParams<{ tag?: string; type?: string }>();
  const drill =
    params.tag !== undefined ? { tag: params.tag } : params.type !== undefined ? { type: params.type } : null;

  return (
    <Container size="xl" py="lg">
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          {t('templates.title')}
        </Title>
        <Button
          component={Link}
          to="/templates/create-template"
          leftSection={<IconPlus size={16} aria-hidden />}
        >
          {t('templates.create')}
        </Button>
      </Group>
      <Tabs value={tab} onChange={(value) => value && navigate(TAB_PATHS[value as TemplatesTab])} keepMounted>
        <Tabs.List aria-label={t('templates.tabs.label')}>
          <Tabs.Tab value="all">{t('templates.tabs.all')}</Tabs.Tab>
          <Tabs.Tab value="type">{t('templates.tabs.type')}</Tabs.Tab>
          <Tabs.Tab value="tags">{t('templates.tabs.tags')}</Tabs.Tab>
        </Tabs.List>
        {/* Every tab has its panel (each tab's aria-controls must name an element); only the open one is filled. */}
        {(Object.keys(TAB_PATHS) as TemplatesTab[])
          .filter((value) => value !== tab)
          .map((value) => (
            <Tabs.Panel key={value} value={value}>
              {null}
            </Tabs.Panel>
          ))}
        <Tabs.Panel value={tab} pt="md">
          {drill ? (
            <Stack gap="sm">
              <Group gap="sm">
                <Anchor component={Link} to={TAB_PATHS[tab]} size="sm">
                  <Group gap={4} component="span">
                    <IconArrowLeft size={14} aria-hidden />
                    {t('templates.back')}
                  </Group>
                </Anchor>
                <Title order={2} size="h4">
                  {'tag' in drill
                    ? t('templates.tagTitle', { tag: drill.tag })
                    : t('templates.typeTitle', { type: drill.type })}
                </Title>
              </Group>
              {/* Keyed: another tag or type starts on page 1 with its own list. */}
              <TemplateList key={JSON.stringify(drill)} drill={drill} />
            </Stack>
          ) : tab === 'all' ? (
            <TemplateList key="all" drill={null} />
          ) : tab === 'tags' ? (
            <TagList />
          ) : (
            <TypeList />
          )}
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}

function TagList() {
  const { t } = useTranslation('customer');
  const tags = useTemplateTags();
  if (tags.isPending) return <Loader aria-label={t('templates.title')} />;
  if (tags.isError) return <Text c="red">{tags.error.message}</Text>;
  if (!tags.data.tags.length) return <Text c="dimmed">{t('templates.emptyTags')}</Text>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }}>
      {tags.data.tags.map((item) => (
        <Card
          key={item.tag}
          withBorder
          component={Link}
          to={`/templates/tags/${encodeURIComponent(item.tag)}`}
        >
          <Text fw={600}>{item.tag}</Text>
          <Text size="sm" c="dimmed">
            {t('templates.count', { count: item.templates })}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function TypeList() {
  const { t } = useTranslation('customer');
  const types = useTemplateTypes();
  if (types.isPending) return <Loader aria-label={t('templates.title')} />;
  if (types.isError) return <Text c="red">{types.error.message}</Text>;
  if (!types.data.types.length) return <Text c="dimmed">{t('templates.emptyTypes')}</Text>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }}>
      {types.data.types.map((item) => (
        <Card
          key={item.type}
          withBorder
          component={Link}
          to={`/templates/types/${encodeURIComponent(item.type)}`}
        >
          <Text fw={600}>{item.type}</Text>
          <Text size="sm" c="dimmed">
            {t('templates.count', { count: item.templates })}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** The template cards of the all tab or of one tag or type, with search, sort, language and favorites. */
function TemplateList({ drill }: { drill: { tag: string } | { type: string } | null }) {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const session = useSession();
  const viewer: Viewer = { userId: session.user?.user_id ?? null, staffRole: session.staffRole };
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [sortBy, setSortBy] = useState<TemplateSort>('createdAt_desc');
  const [language, setLanguage] = useState<TemplateLanguage | null>(null);
  const [favoritesOnly, setFavoritesOnly] = useState(false);
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const favorite = useToggleFavorite();

  const list = useTemplateList({ drill, query, sortBy, language, favoritesOnly, page });
  const remove = useDeleteTemplate({
    onDeleted: () => {
      setDeleting(null);
      notifySuccess(t('templates.deleted'));
    },
    onFailed: () => setDeleting(null),
  });
  // Using a template from the browse page opens it in a new conversation named after it.
  const use = useStartTemplateConversation(MAX_CONVERSATION_NAME, (template, conversationId) =>
    navigate(`/templates/apply-template/${template.template_id}/${conversationId}`),
  );

  const resetPage =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const data = list.data;
  const pages = data ? Math.ceil(data.total / data.limit) : 0;
  const filtered = Boolean(query || language || favoritesOnly || drill);

  return (
    <>
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput
          label={t('templates.search')}
          value={search}
          onChange={(e) => resetPage(setSearch)(e.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Select
          label={t('templates.sort.label')}
          value={sortBy}
          onChange={(value) => value && resetPage(setSortBy)(value as TemplateSort)}
          allowDeselect={false}
          data={SORT_OPTIONS.map((s) => ({ value: s, label: t(`templates.sort.${s}`) }))}
        />
        <Select
          label={t('templates.language.label')}
          value={language ?? ''}
          onChange={(value) => resetPage(setLanguage)(value ? (value as TemplateLanguage) : null)}
          allowDeselect={false}
          data={[
            { value: '', label: t('templates.language.any') },
            ...TEMPLATE_LANGUAGES.map((l) => ({ value: l, label: t(`templates.language.${l}`) })),
          ]}
        />
        <Switch
          label={t('templates.favoritesOnly')}
          checked={favoritesOnly}
          onChange={(e) => resetPage(setFavoritesOnly)(e.currentTarget.checked)}
          mb={8}
        />
      </Group>

      {list.isPending ? (
        <Loader aria-label={t('templates.title')} />
      ) : list.isError ? (
        <Text c="red">{list.error.message}</Text>
      ) : !data?.templates.length ? (
        <Text c="dimmed">{filtered ? t('templates.noTemplates') : t('templates.emptyTemplates')}</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }}>
            {data.templates.map((template) => (
              <TemplateCard
                key={template.template_id}
                template={template}
                canChange={canChangeTemplate(template, viewer)}
                using={use.isPending && use.variables?.template_id === template.template_id}
                onUse={() => use.mutate(template)}
                onFavorite={() => favorite.mutate(template.template_id)}
                onDelete={() => setDeleting(template)}
              />
            ))}
          </SimpleGrid>
          {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} />}
        </>
      )}

      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('templates.deleteTitle')}
        body={t('templates.deleteBody', { name: deleting?.name ?? '' })}
        cancelLabel={t('templates.cancel')}
        confirmLabel={t('templates.card.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.template_id)}
      />
    </>
  );
}

function TemplateCard({
  template,
  canChange,
  using,
  onUse,
  onFavorite,
  onDelete,
}: {
  template: Template;
  canChange: boolean;
  using: boolean;
  onUse: () => void;
  onFavorite: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('customer');
  const tags = splitTags(template.tags).slice(0, CARD_TAGS);
  return (
    <Card withBorder aria-label={template.name} component="article">
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} lineClamp={2}>
            {template.name}
          </Text>
          <Tooltip label={t(template.favorite ? 'templates.card.unfavorite' : 'templates.card.favorite')}>
            <ActionIcon
              variant="subtle"
              color="yellow"
              aria-label={t(template.favorite ? 'templates.card.unfavorite' : 'templates.card.favorite')}
              aria-pressed={template.favorite}
              onClick={onFavorite}
            >
              {template.favorite ? (
                <IconStarFilled size={18} aria-hidden />
              ) : (
                <IconStar size={18} aria-hidden />
              )}
            </ActionIcon>
          </Tooltip>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {template.description}
        </Text>
        <Group gap={4}>
          {tags.map((tag) => (
            <Badge key={tag} variant="outline" size="sm">
              {tag}
            </Badge>
          ))}
          {template.public && (
            <Badge variant="light" size="sm">
              {t('templates.card.public')}
            </Badge>
          )}
        </Group>
        <Group justify="space-between" mt="auto">
          <Button
            size="xs"
            variant="light"
            loading={using}
            leftSection={<IconPlayerPlay size={14} aria-hidden />}
            onClick={onUse}
          >
            {t('templates.card.use')}
          </Button>
          {canChange && (
            <Group gap={4}>
              <Tooltip label={t('templates.card.edit')}>
                <ActionIcon
                  variant="default"
                  component={Link}
                  to={`/templates/edit-template/${template.template_id}`}
                  aria-label={t('templates.card.edit')}
                >
                  <IconPencil size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('templates.card.delete')}>
                <ActionIcon
                  variant="default"
                  color="red"
                  aria-label={t('templates.card.delete')}
                  onClick={onDelete}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
