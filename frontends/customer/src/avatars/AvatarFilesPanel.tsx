import {
  ActionIcon,
  Badge,
  Button,
  FileButton,
  Group,
  Modal,
  Paper,
  Progress,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifySuccess } from '@avatar-studio/shared';
import { IconFilePlus, IconPencil, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAddEditableFile,
  useDeleteFile,
  useSaveEditableFile,
  useUploadFile,
  type Avatar,
  type AvatarFile,
} from './api';

/** A file name is shown cut at 30 characters. */
const NAME_SHOWN = 30;
const ACCEPT = '.docx,.pdf,.pptx,.txt';
const STATE_COLOR = { pending: 'gray', indexing: 'blue', ready: 'green', failed: 'red' } as const;

const shortName = (name: string) => (name.length > NAME_SHOWN ? `${name.slice(0, NAME_SHOWN)}…` : name);

/** The avatar's files: upload with progress, editable text files, each file's indexing state, removal. */
export function AvatarFilesPanel({ avatar }: { avatar: Avatar }) {
  const { t } = useTranslation('customer');
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [editing, setEditing] = useState<AvatarFile | 'new' | null>(null);
  const upload = useUploadFile(avatar, (fraction) =>
    setProgress((current) => (current ? { ...current, fraction } : current)),
  );
  const remove = useDeleteFile(avatar);

  const start = (file: File | null) => {
    if (!file) return;
    setProgress({ name: file.name, fraction: 0 });
    upload.mutate(file, { onSettled: () => setProgress(null) });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('avatars.knowledge.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('avatars.knowledge.help')}
        </Text>
        {avatar.avatar_files.length === 0 && <Text size="sm">{t('avatars.knowledge.none')}</Text>}
        <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {avatar.avatar_files.map((file) => (
            <Group key={file.avatar_file_id} component="li" justify="space-between" wrap="nowrap">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Tooltip label={file.file_data.name} disabled={file.file_data.name.length <= NAME_SHOWN}>
                  <Text size="sm">{shortName(file.file_data.name)}</Text>
                </Tooltip>
                <Group gap={4}>
                  <Badge
                    size="xs"
                    variant="light"
                    color={STATE_COLOR[file.index_state]}
                    c={`${STATE_COLOR[file.index_state]}.9`}
                    tt="none"
                  >
                    {t(`avatars.knowledge.state.${file.index_state}`, { count: file.chunks })}
                  </Badge>
                  {file.index_error && (
                    <Text size="xs" c="dimmed">
                      {file.index_error}
                    </Text>
                  )}
                </Group>
              </Stack>
              <Group gap={4} wrap="nowrap">
                {file.editable && (
                  <ActionIcon
                    variant="subtle"
                    aria-label={`${t('avatars.knowledge.edit')} ${file.file_data.name}`}
                    onClick={() => setEditing(file)}
                  >
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                )}
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`${t('avatars.knowledge.remove')} ${file.file_data.name}`}
                  loading={remove.isPending && remove.variables?.avatar_file_id === file.avatar_file_id}
                  onClick={() => remove.mutate(file)}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
          ))}
        </Stack>
        {progress && (
          <Stack gap={2}>
            <Text size="xs">{t('avatars.knowledge.uploading', { name: shortName(progress.name) })}</Text>
            <Progress
              value={Math.round(progress.fraction * 100)}
              aria-label={t('avatars.knowledge.uploading', { name: progress.name })}
            />
          </Stack>
        )}
        <Group>
          <FileButton onChange={start} accept={ACCEPT}>
            {(props) => (
              <Button
                {...props}
                leftSection={<IconUpload size={16} aria-hidden />}
                loading={upload.isPending}
              >
                {t('avatars.knowledge.upload')}
              </Button>
            )}
          </FileButton>
          <Button
            variant="light"
            leftSection={<IconFilePlus size={16} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            {t('avatars.knowledge.newText')}
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={t('avatars.knowledge.editorTitle')}
      >
        {editing !== null && (
          <TextFileEditor
            avatar={avatar}
            file={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </Paper>
  );
}

/** An editable .txt file's name and text; saving indexes it again. */
function TextFileEditor({
  avatar,
  file,
  onDone,
}: {
  avatar: Avatar;
  file: AvatarFile | null;
  onDone: () => void;
}) {
  const { t } = useTranslation('customer');
  const [name, setName] = useState(file?.file_data.name ?? '');
  const [content, setContent] = useState(file?.content ?? '');
  const [error, setError] = useState<string | null>(null);
  const done = () => {
    notifySuccess(t('avatars.saved'));
    onDone();
  };
  const add = useAddEditableFile(avatar, done);
  const save = useSaveEditableFile(done);
  const submit = () => {
    if (!name.trim() || !content.trim()) {
      setError(t('avatars.context.empty'));
      return;
    }
    if (file) save.mutate({ id: file.avatar_file_id, content, name });
    else add.mutate({ name, content });
  };
  return (
    <Stack>
      <TextInput
        label={t('avatars.knowledge.fileName')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
      />
      <Textarea
        label={t('avatars.knowledge.content')}
        value={content}
        onChange={(e) => {
          setContent(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        autosize
        minRows={8}
        maxRows={20}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('avatars.cancel')}
        </Button>
        <Button loading={add.isPending || save.isPending} onClick={submit}>
          {t('avatars.save')}
        </Button>
      </Group>
    </Stack>
  );
}
