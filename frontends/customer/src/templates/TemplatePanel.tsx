import {
  ActionIcon,
  Anchor,
  Badge,
  Card,
  CloseButton,
  Group,
  Loader,
  Pagination,
  ScrollArea,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconSearch, IconStar, IconStarFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDebouncedValue } from '@avatar-studio/shared';
import { splitTags, type Template } from './model';
import { useApplyTemplate, useTemplateList, useToggleFavorite } from './api';
import { TemplateApplyForm } from './TemplateApplyForm';

/**
 * The template panel beside a conversation (shown when showTemplates is on): a searchable list with a favorites toggle;
 * choosing a template shows its apply form, and Generate applies it in this conversation (the answer streams into
 * the chat beside the panel) and returns to the list.
 */
export function TemplatePanel({ conversationId, onClose }: { conversationId: number; onClose: () => void }) {
  const { t } = useTranslation('customer');
  const [chosen, setChosen] = useState<Template | null>(null);
  const apply = useApplyTemplate(conversationId, () => setChosen(null));

  return (
    <Stack
      gap="sm"
      h="100%"
      style={{ minHeight: 0 }}
      aria-label={t('templates.panel.title')}
      component="section"
    >
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} size="h4">
          {t('templates.panel.title')}
        </Title>
        <CloseButton aria-label={t('templates.panel.close')} onClick={onClose} />
      </Group>
      {chosen ? (
        <ScrollArea style={{ flex: 1 }}>
          <Stack gap="sm">
            <Anchor component="button" type="button" size="sm" onClick={() => setChosen(null)} mr="auto">
              <Group gap={4} component="span">
                <IconArrowLeft size={14} aria-hidden />
                {t('templates.panel.back')}
              </Group>
            </Anchor>
            <Text fw={600}>{chosen.name}</Text>
            {chosen.description && (
              <Text size="sm" c="dimmed">
                {chosen.description}
              </Text>
            )}
            <TemplateApplyForm
              key={chosen.template_id}
              template={chosen}
              generating={apply.isPending}
              onGenerate={(values) => apply.mutate({ templateId: chosen.template_id, values })}
            />
          </Stack>
        </ScrollArea>
      ) : (
        <TemplateList onChoose={setChosen} />
      )}
    </Stack>
  );
}

/** The searchable template list of the panels (with the favorites toggle); choosing one calls `onChoose`. */
export function TemplateList({ onChoose }: { onChoose: (template: Template) => void }) {
  const { t } = useTranslation('customer');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [favoritesOnly, setFavoritesOnly] = useState(false);
  const [page, setPage] = useState(1);
  const favorite = useToggleFavorite();

  const list = useTemplateList({ drill: null, query, favoritesOnly, page }, 'panel');
  const data = list.data;
  const pages = data ? Math.ceil(data.total / data.limit) : 0;

  return (
    <>
      <TextInput
        aria-label={t('templates.panel.search')}
        placeholder={t('templates.panel.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        leftSection={<IconSearch size={16} aria-hidden />}
      />
      <Switch
        label={t('templates.panel.favoritesOnly')}
        checked={favoritesOnly}
        onChange={(e) => {
          setFavoritesOnly(e.currentTarget.checked);
          setPage(1);
        }}
      />
      <ScrollArea style={{ flex: 1 }}>
        {list.isPending ? (
          <Loader size="sm" aria-label={t('templates.panel.title')} />
        ) : !data?.templates.length ? (
          <Text c="dimmed" size="sm">
            {t('templates.noTemplates')}
          </Text>
        ) : (
          <Stack gap="xs">
            {data.templates.map((template) => (
              <Card key={template.template_id} withBorder padding="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Anchor
                      component="button"
                      type="button"
                      fw={600}
                      ta="left"
                      aria-label={t('templates.panel.choose', { name: template.name })}
                      onClick={() => onChoose(template)}
                    >
                      {template.name}
                    </Anchor>
                    <Text size="xs" c="dimmed" lineClamp={2}>
                      {template.description}
                    </Text>
                    {splitTags(template.tags)
                      .slice(0, 1)
                      .map((tag) => (
                        <Badge key={tag} variant="outline" size="xs">
                          {tag}
                        </Badge>
                      ))}
                  </Stack>
                  <ActionIcon
                    variant="subtle"
                    color="yellow"
                    aria-label={t(
                      template.favorite ? 'templates.card.unfavorite' : 'templates.card.favorite',
                    )}
                    aria-pressed={template.favorite}
                    onClick={() => favorite.mutate(template.template_id)}
                  >
                    {template.favorite ? (
                      <IconStarFilled size={16} aria-hidden />
                    ) : (
                      <IconStar size={16} aria-hidden />
                    )}
                  </ActionIcon>
                </Group>
              </Card>
            ))}
            {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={setPage} />}
          </Stack>
        )}
      </ScrollArea>
      <Anchor component={Link} to="/templates" size="sm">
        {t('templates.apply.browse')}
      </Anchor>
    </>
  );
}
