import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { ConfirmModal, notifySuccess, useDebouncedValue, useFormat } from '@avatar-studio/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import {
  DOCUMENT_SORTS,
  DOCUMENTS_PER_PAGE,
  useCreateDocument,
  useDeleteDocument,
  useDocumentList,
  useDocumentTags,
  type DocumentSort,
  type TextDocument,
} from './api';

const CARD_TAGS = 3;

/** /documents: the caller's documents in the current scope, searchable, filtered by tags, sorted; create and delete. */
export function DocumentsPage() {
  const { t } = useTranslation('customer');
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [tags, setTags] = useState<string[]>([]);
  const [sort, setSort] = useState<DocumentSort>('updatedAt_desc');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<TextDocument | null>(null);
  const list = useDocumentList({ query, tags, sort, page });
  const allTags = useDocumentTags();
  const remove = useDeleteDocument(() => {
    setDeleting(null);
    notifySuccess(t('documents.deleted'));
  });
  const data = list.data;
  const pages = data ? Math.ceil(data.total / DOCUMENTS_PER_PAGE) : 0;
  const filtered = query !== '' || tags.length > 0;

  return (
    <Stack p="md" gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('documents.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('documents.create')}
        </Button>
      </Group>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          aria-label={t('documents.search')}
          placeholder={t('documents.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1, minWidth: 200 }}
        />
        <MultiSelect
          label={t('documents.tags')}
          placeholder={tags.length ? undefined : t('documents.tagsPlaceholder')}
          data={allTags.data ?? []}
          value={tags}
          onChange={(value) => {
            setTags(value);
            setPage(1);
          }}
          searchable
          clearable
          style={{ minWidth: 200 }}
        />
        <Select
          label={t('documents.sort')}
          data={DOCUMENT_SORTS.map((value) => ({ value, label: t(`documents.sorts.${value}`) }))}
          value={sort}
          onChange={(value) => {
            if (value) setSort(value as DocumentSort);
            setPage(1);
          }}
          allowDeselect={false}
        />
      </Group>
      {list.isPending ? (
        <Loader aria-label={t('documents.title')} />
      ) : !data?.documents.length ? (
        <Text c="dimmed">{filtered ? t('documents.noMatch') : t('documents.empty')}</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {data.documents.map((document) => (
              <DocumentCard key={document.document_id} document={document} onDelete={setDeleting} />
            ))}
          </SimpleGrid>
          {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
        </>
      )}
      <CreateDocumentModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(document) => navigate(`/documents/${document.document_id}`)}
      />
      <ConfirmModal
        opened={deleting !== null}
        title={t('documents.deleteTitle')}
        body={t('documents.deleteBody', { name: deleting?.name ?? '' })}
        cancelLabel={t('documents.cancel')}
        confirmLabel={t('documents.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.document_id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

function DocumentCard({
  document,
  onDelete,
}: {
  document: TextDocument;
  onDelete: (document: TextDocument) => void;
}) {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const excerpt = document.content.replace(/[#*_`>|-]+/g, ' ').trim();
  return (
    <Card withBorder component="article" aria-label={document.name}>
      <Stack gap="xs" h="100%">
        <Anchor component={Link} to={`/documents/${document.document_id}`} fw={600}>
          {document.name}
        </Anchor>
        <Text size="sm" c="dimmed" lineClamp={3}>
          {excerpt}
        </Text>
        {document.tags.length > 0 && (
          <Group gap={4}>
            {document.tags.slice(0, CARD_TAGS).map((tag) => (
              <Badge key={tag} variant="outline" size="sm">
                {tag}
              </Badge>
            ))}
          </Group>
        )}
        <Group justify="space-between" mt="auto">
          <Text size="xs" c="dimmed">
            {t('documents.updated', { date: format.date(document.updatedAt) })}
          </Text>
          <Group gap="xs">
            <Button component={Link} to={`/documents/${document.document_id}`} size="xs" variant="light">
              {t('documents.open')}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              c="red.9"
              leftSection={<IconTrash size={14} aria-hidden />}
              onClick={() => onDelete(document)}
            >
              {t('documents.delete')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

function CreateDocumentModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (document: TextDocument) => void;
}) {
  const { t } = useTranslation('customer');
  const [name, setName] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateDocument(onCreated);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('documents.required'));
      return;
    }
    create.mutate({ name: name.trim(), tags });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('documents.createTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('documents.name')}
            required
            value={name}
            error={error}
            maxLength={255}
            onChange={(e) => {
              setName(e.currentTarget.value);
              if (e.currentTarget.value.trim()) setError(null);
            }}
            data-autofocus
          />
          <TagsInput label={t('documents.tagsInput')} value={tags} onChange={setTags} maxTags={20} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('documents.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('documents.createSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
