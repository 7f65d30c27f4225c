import {
  ActionIcon,
  Button,
  FileInput,
  Group,
  Image,
  Modal,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ApiError,
  ConfirmModal,
  PageLoader,
  api,
  notifyError,
  notifySuccess,
  unwrap,
  uploadFile,
  type ApiSchemas,
} from '@avatar-studio/shared';

type Tutorial = ApiSchemas['TutorialDto'];
type Language = 'en' | 'es';
export const TUTORIALS_QUERY_KEY = ['admin', 'tutorials'] as const;
const isYouTubeId = (src: string) => /^[A-Za-z0-9_-]{11}$/.test(src);

/** /admin/tutorials: staff manage the tutorials of each language (order, name, thumbnail, video). */
export function TutorialsAdminPage() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [language, setLanguage] = useState<Language>('en');
  const [editing, setEditing] = useState<Tutorial | 'new' | null>(null);
  const [removing, setRemoving] = useState<Tutorial | null>(null);
  const list = useQuery({
    queryKey: [...TUTORIALS_QUERY_KEY, language],
    queryFn: () => unwrap(api.GET('/api/tutorials', { params: { query: { language, limit: 200 } } })),
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/tutorials/{tutorial_id}', { params: { path: { tutorial_id: id } } })),
    onSuccess: async () => {
      setRemoving(null);
      notifySuccess(t('tutorials.removed'));
      await queryClient.invalidateQueries({ queryKey: TUTORIALS_QUERY_KEY });
    },
    onError: (error) => {
      setRemoving(null);
      notifyError(error);
    },
  });
  const tutorials = list.data?.tutorials ?? [];

  return (
    <Stack gap="md" p="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('tutorials.title')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {t('tutorials.add')}
        </Button>
      </Group>
      <Select
        label={t('tutorials.language')}
        data={(['en', 'es'] as const).map((value) => ({ value, label: t(`tutorials.languages.${value}`) }))}
        value={language}
        allowDeselect={false}
        onChange={(value) => value && setLanguage(value as Language)}
        maw={240}
      />
      {list.isPending ? (
        <PageLoader />
      ) : !tutorials.length ? (
        <Text c="dimmed">{t('tutorials.empty')}</Text>
      ) : (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={560}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('tutorials.columns.order')}</Table.Th>
                  <Table.Th>{t('tutorials.columns.thumbnail')}</Table.Th>
                  <Table.Th>{t('tutorials.columns.name')}</Table.Th>
                  <Table.Th>{t('tutorials.columns.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tutorials.map((tutorial) => (
                  <Table.Tr key={tutorial.tutorial_id}>
                    <Table.Td>{tutorial.order}</Table.Td>
                    <Table.Td>
                      {tutorial.thumbnail && (
                        <Image src={tutorial.thumbnail} alt="" w={80} h={45} fit="cover" />
                      )}
                    </Table.Td>
                    <Table.Td>{tutorial.name}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={t('tutorials.edit')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('tutorials.editLabel', { name: tutorial.name })}
                            onClick={() => setEditing(tutorial)}
                          >
                            <IconPencil size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('tutorials.remove')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('tutorials.removeLabel', { name: tutorial.name })}
                            onClick={() => setRemoving(tutorial)}
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
      {editing !== null && (
        <TutorialForm
          tutorial={editing === 'new' ? null : editing}
          language={language}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmModal
        opened={removing !== null}
        title={t('tutorials.removeTitle')}
        body={t('tutorials.removeBody', { name: removing?.name ?? '' })}
        cancelLabel={t('tutorials.cancel')}
        confirmLabel={t('tutorials.remove')}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.tutorial_id)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}

/** The add/edit form: uploads the chosen files first (POST /api/files), then saves the tutorial. */
function TutorialForm({
  tutorial,
  language: defaultLanguage,
  onClose,
}: {
  tutorial: Tutorial | null;
  language: Language;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [name, setName] = useState(tutorial?.name ?? '');
  const [order, setOrder] = useState<number | ''>(tutorial?.order ?? 0);
  const [language, setLanguage] = useState<Language>((tutorial?.language as Language) ?? defaultLanguage);
  const [source, setSource] = useState<'link' | 'upload'>(
    tutorial && !isYouTubeId(tutorial.src) ? 'upload' : 'link',
  );
  const [link, setLink] = useState(tutorial && isYouTubeId(tutorial.src) ? tutorial.src : '');
  const [videoFile, setVideoFile] = useState<File | null>(null);
  const [thumbnailFile, setThumbnailFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ name?: string; video?: string }>({});

  const save = useMutation({
    mutationFn: async () => {
      const thumbnail = thumbnailFile ? await uploadFile(thumbnailFile) : (tutorial?.thumbnail ?? null);
      const src =
        source === 'link' ? link.trim() : videoFile ? await uploadFile(videoFile) : (tutorial?.src ?? '');
      const body = { name: name.trim(), order: order === '' ? 0 : order, language, thumbnail, src };
      return tutorial
        ? unwrap(api.PUT('/api/tutorials', { body: { ...body, tutorial_id: tutorial.tutorial_id } }))
        : unwrap(api.POST('/api/tutorials', { body }));
    },
    onSuccess: async () => {
      notifySuccess(t('tutorials.saved'));
      await queryClient.invalidateQueries({ queryKey: TUTORIALS_QUERY_KEY });
      onClose();
    },
    onError: (error) => {
      // The server's sentence about the video or thumbnail is shown as it is.
      if (error instanceof ApiError && error.status === 400) setErrors({ video: error.message });
      else notifyError(error);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = t('tutorials.required');
    const hasVideo =
      source === 'link'
        ? link.trim() !== ''
        : videoFile !== null || (tutorial !== null && !isYouTubeId(tutorial.src));
    if (!hasVideo) found.video = t('tutorials.required');
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t(tutorial ? 'tutorials.formTitleEdit' : 'tutorials.formTitleNew')}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('tutorials.name')}
            required
            maxLength={200}
            value={name}
            error={errors.name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Group grow>
            <NumberInput
              label={t('tutorials.order')}
              min={0}
              max={10000}
              allowDecimal={false}
              value={order}
              onChange={(value) => setOrder(typeof value === 'number' ? value : '')}
            />
            <Select
              label={t('tutorials.language')}
              data={(['en', 'es'] as const).map((value) => ({
                value,
                label: t(`tutorials.languages.${value}`),
              }))}
              value={language}
              allowDeselect={false}
              onChange={(value) => value && setLanguage(value as Language)}
            />
          </Group>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="tutorial-video-label">
              {t('tutorials.video')}
            </Text>
            <SegmentedControl
              aria-labelledby="tutorial-video-label"
              value={source}
              onChange={(value) => setSource(value as 'link' | 'upload')}
              data={[
                { value: 'link', label: t('tutorials.videoLink') },
                { value: 'upload', label: t('tutorials.videoUpload') },
              ]}
            />
            {source === 'link' ? (
              <TextInput
                label={t('tutorials.videoUrl')}
                value={link}
                error={errors.video}
                maxLength={300}
                onChange={(e) => setLink(e.currentTarget.value)}
              />
            ) : (
              <FileInput
                label={t('tutorials.videoFile')}
                accept="video/mp4,video/webm,video/quicktime"
                value={videoFile}
                error={errors.video}
                description={
                  tutorial && !isYouTubeId(tutorial.src)
                    ? t('tutorials.videoCurrent', { src: tutorial.src })
                    : undefined
                }
                onChange={setVideoFile}
                clearable
              />
            )}
          </Stack>
          <FileInput
            label={t('tutorials.thumbnail')}
            accept="image/png,image/jpeg,image/webp,image/gif"
            value={thumbnailFile}
            onChange={setThumbnailFile}
            clearable
          />
          {tutorial?.thumbnail && !thumbnailFile && (
            <Image src={tutorial.thumbnail} alt={t('tutorials.thumbnailAlt')} w={160} h={90} fit="cover" />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('tutorials.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {save.isPending && (videoFile || thumbnailFile)
                ? t('tutorials.uploading')
                : t('tutorials.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
