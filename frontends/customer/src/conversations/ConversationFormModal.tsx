import { Button, Group, Modal, Select, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MODEL_OPTIONS, UNSET_MODEL, splitTags, type Conversation } from './model';

export interface ConversationFormValues {
  name: string;
  tags: string[];
  model: string;
  archived: boolean;
}

interface Props {
  opened: boolean;
  onClose: () => void;
  /** Editing this conversation; absent = creating one. */
  conversation?: Conversation;
  saving: boolean;
  /** The server's field message for the name (e.g. 'Conversation name is required.'). */
  nameError?: string | null;
  onSubmit: (values: ConversationFormValues) => void;
}

/**
 * The name is required (the server's message is shown), tags are typed comma-separated and a comma
 * commits a tag; the model is gpt-4o-mini, grok-2-latest or Unset. Editing also toggles archived.
 */
export function ConversationFormModal({ opened, onClose, conversation, saving, nameError, onSubmit }: Props) {
  const { t } = useTranslation('customer');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t(conversation ? 'conversations.form.editTitle' : 'conversations.form.createTitle')}
    >
      {/* Remounted on each opening so the fields start from the conversation (or empty). */}
      {opened && (
        <ConversationForm
          conversation={conversation}
          saving={saving}
          nameError={nameError}
          onSubmit={onSubmit}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function ConversationForm({ conversation, saving, nameError, onSubmit, onClose }: Omit<Props, 'opened'>) {
  const { t } = useTranslation('customer');
  const [name, setName] = useState(conversation?.name ?? '');
  const [tags, setTags] = useState<string[]>(splitTags(conversation?.tags));
  const [model, setModel] = useState<string>(conversation?.model ?? UNSET_MODEL);
  const [archived, setArchived] = useState(conversation?.archived ?? false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ name: name.trim(), tags, model, archived });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('conversations.form.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={nameError}
          required
          data-autofocus
        />
        <TagsInput
          label={t('conversations.form.tags')}
          description={t('conversations.form.tagsHint')}
          value={tags}
          onChange={setTags}
          splitChars={[',']}
          clearable
        />
        <Select
          label={t('conversations.form.model')}
          value={model}
          onChange={(value) => setModel(value ?? UNSET_MODEL)}
          allowDeselect={false}
          data={[
            ...MODEL_OPTIONS.map((m) => ({ value: m, label: m })),
            { value: UNSET_MODEL, label: t('conversations.form.unset') },
          ]}
        />
        {conversation && (
          <Switch
            label={t('conversations.form.archived')}
            checked={archived}
            onChange={(e) => setArchived(e.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('conversations.form.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t(conversation ? 'conversations.form.save' : 'conversations.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
