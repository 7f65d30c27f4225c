import {
  Badge,
  Button,
  Card,
  ColorInput,
  Code,
  FileInput,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { ConfirmModal, notifyError, notifySuccess, PageLoader, useFormat } from '@avatar-studio/shared';
import { DEFAULT_WIDGET_ACCENT, WIDGET_LIMIT_BOUNDS } from '@avatar-studio/contracts/widget';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateWidget,
  useDeleteWidget,
  useUpdateWidget,
  useWidgetAvatars,
  useWidgets,
  type Widget,
} from './api';
import { originsOf, widgetSnippet } from './snippet';
import { WidgetPreview } from './WidgetPreview';

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

/** The embed code of a widget with its copy button. */
function SnippetCard({ widget }: { widget: Widget }) {
  const { t } = useTranslation('customer');
  const code = widgetSnippet(widget, window.location.origin);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      notifySuccess(t('chatWidget.copied'));
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <Card withBorder padding="md" aria-labelledby="widget-snippet-title">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5" id="widget-snippet-title">
          {t('chatWidget.snippet')}: {widget.name}
        </Title>
        <Button leftSection={<IconCopy size={16} />} onClick={() => void copy()}>
          {t('chatWidget.copy')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        {t('chatWidget.snippetHint')}
      </Text>
      <Code block data-testid="widget-snippet">
        {code}
      </Code>
    </Card>
  );
}

/** Changes a widget: name, colour, allowed sites, limits. */
function EditWidgetModal({ widget, onClose }: { widget: Widget; onClose: () => void }) {
  const { t } = useTranslation('customer');
  const [name, setName] = useState(widget.name);
  const [accent, setAccent] = useState(`#${widget.accent_color}`);
  const [origins, setOrigins] = useState(widget.allowed_origins.join('\n'));
  const [perMinute, setPerMinute] = useState<number | string>(widget.messages_per_minute);
  const [perDay, setPerDay] = useState<number | string>(widget.words_per_day);
  const [streams, setStreams] = useState<number | string>(widget.max_concurrent_streams);
  const [nameError, setNameError] = useState<string | null>(null);
  const save = useUpdateWidget(() => {
    notifySuccess(t('chatWidget.saved'));
    onClose();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setNameError(t('chatWidget.nameRequired'));
    save.mutate({
      id: widget.widget_id,
      body: {
        name: name.trim(),
        accent_color: accent,
        allowed_origins: originsOf(origins),
        messages_per_minute: Number(perMinute),
        words_per_day: Number(perDay),
        max_concurrent_streams: Number(streams),
      },
    });
  };
  const bounds = WIDGET_LIMIT_BOUNDS;
  return (
    <Modal opened onClose={onClose} title={t('chatWidget.editTitle', { name: widget.name })}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('chatWidget.name')}
            value={name}
            error={nameError}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
          />
          <ColorInput
            label={t('chatWidget.accent')}
            value={accent}
            onChange={setAccent}
            format="hex"
            eyeDropperButtonProps={{ 'aria-label': t('chatWidget.pickColour') }}
          />
          <Textarea
            label={t('chatWidget.origins')}
            description={t('chatWidget.originsHint')}
            value={origins}
            onChange={(e) => setOrigins(e.currentTarget.value)}
            autosize
            minRows={2}
          />
          <NumberInput
            label={t('chatWidget.messagesPerMinute')}
            value={perMinute}
            onChange={setPerMinute}
            min={bounds.messages_per_minute.min}
            max={bounds.messages_per_minute.max}
          />
          <NumberInput
            label={t('chatWidget.wordsPerDay')}
            value={perDay}
            onChange={setPerDay}
            min={bounds.words_per_day.min}
            max={bounds.words_per_day.max}
          />
          <NumberInput
            label={t('chatWidget.concurrentStreams')}
            value={streams}
            onChange={setStreams}
            min={bounds.max_concurrent_streams.min}
            max={bounds.max_concurrent_streams.max}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('chatWidget.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('chatWidget.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** One of the owner's widgets: state, sites, usage and its actions. */
function WidgetCard({
  widget,
  avatarName,
  onShowCode,
  onEdit,
  onDelete,
}: {
  widget: Widget;
  avatarName: string;
  onShowCode: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const toggle = useUpdateWidget();
  return (
    <Card withBorder padding="md" component="li">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Group gap="xs">
            <span
              aria-hidden
              style={{
                width: 14,
                height: 14,
                borderRadius: 7,
                background: `#${widget.accent_color}`,
                display: 'inline-block',
              }}
            />
            <Title order={3} size="h5">
              {widget.name}
            </Title>
            <Badge variant="dot" color={widget.disabled ? 'gray' : 'green'}>
              {widget.disabled ? t('chatWidget.disabled') : t('chatWidget.active')}
            </Badge>
          </Group>
          <Text size="sm">{avatarName}</Text>
          <Text size="sm" c="dimmed">
            {widget.allowed_origins.length ? widget.allowed_origins.join(', ') : t('chatWidget.noOrigins')}
          </Text>
          <Text size="sm">
            {t('chatWidget.usage', {
              conversations: format.number(widget.usage.conversations),
              messages: format.number(widget.usage.messages),
              words: format.number(widget.usage.words),
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('chatWidget.wordsToday', {
              used: format.number(widget.usage.words_today),
              limit: format.number(widget.words_per_day),
            })}
          </Text>
        </Stack>
        <Group gap="xs" role="group" aria-label={t('chatWidget.actionsFor', { name: widget.name })}>
          <Button size="xs" variant="default" onClick={onShowCode}>
            {t('chatWidget.showCode')}
          </Button>
          <Button size="xs" variant="default" onClick={onEdit}>
            {t('chatWidget.edit')}
          </Button>
          <Button
            size="xs"
            variant="default"
            loading={toggle.isPending}
            onClick={() => toggle.mutate({ id: widget.widget_id, body: { disabled: !widget.disabled } })}
          >
            {widget.disabled ? t('chatWidget.enable') : t('chatWidget.disable')}
          </Button>
          <Button size="xs" color="red" variant="light" onClick={onDelete}>
            {t('chatWidget.delete')}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

/**
 * /chat-widget-generator: choose an avatar (Super Fetch ones are not offered), name the widget, pick its colour
 * and optionally a button image, say where it may be shown, and Generate: the embed code appears with a copy
 * button, and hides again as soon as any input changes. Beside the form, a live preview of the widget; below,
 * the owner's widgets with their usage.
 */
export function ChatWidgetGeneratorPage() {
  const { t } = useTranslation('customer');
  const avatars = useWidgetAvatars();
  const widgets = useWidgets();
  const [avatarId, setAvatarId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [accent, setAccent] = useState(DEFAULT_WIDGET_ACCENT);
  const [image, setImage] = useState<File | null>(null);
  const [origins, setOrigins] = useState('');
  const [errors, setErrors] = useState<{ avatar?: string; name?: string }>({});
  const [shown, setShown] = useState<Widget | null>(null);
  const [editing, setEditing] = useState<Widget | null>(null);
  const [deleting, setDeleting] = useState<Widget | null>(null);
  const create = useCreateWidget((widget) => {
    notifySuccess(t('chatWidget.generated', { name: widget.name }));
    setShown(widget);
  });
  const remove = useDeleteWidget(() => {
    notifySuccess(t('chatWidget.deleted'));
    if (shown?.widget_id === deleting?.widget_id) setShown(null);
    setDeleting(null);
  });

  /** Any change of an input hides the code of the last Generate. */
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setShown(null);
    };

  const generate = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      avatar: avatarId ? undefined : t('chatWidget.selectAvatar'),
      name: name.trim() ? undefined : t('chatWidget.nameRequired'),
    };
    setErrors(found);
    if (found.avatar || found.name) return;
    create.mutate({
      body: {
        avatar_id: Number(avatarId),
        name: name.trim(),
        accent_color: accent,
        allowed_origins: originsOf(origins),
      },
      image,
    });
  };

  if (avatars.isPending) return <PageLoader />;
  const avatarNames = new Map((avatars.data ?? []).map((a) => [a.avatar_id, a.name]));
  const list = widgets.data?.widgets ?? [];
  return (
    <Stack maw={1200} mx="auto" p="md">
      <Title order={1} size="h2">
        {t('chatWidget.title')}
      </Title>
      <Text>{t('chatWidget.intro')}</Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="md">
          <form onSubmit={generate} noValidate>
            <Stack>
              <Select
                label={t('chatWidget.avatar')}
                placeholder={t('chatWidget.avatarPlaceholder')}
                data={(avatars.data ?? []).map((a) => ({ value: String(a.avatar_id), label: a.name }))}
                value={avatarId}
                onChange={changed((value: string | null) => {
                  setAvatarId(value);
                  setErrors((e) => ({ ...e, avatar: undefined }));
                })}
                error={errors.avatar}
                searchable
                required
              />
              <TextInput
                label={t('chatWidget.name')}
                placeholder={t('chatWidget.namePlaceholder')}
                value={name}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  changed(setName)(value);
                  setErrors((er) => ({ ...er, name: undefined }));
                }}
                error={errors.name}
                maxLength={100}
                required
              />
              <ColorInput
                label={t('chatWidget.accent')}
                value={accent}
                onChange={changed(setAccent)}
                format="hex"
                eyeDropperButtonProps={{ 'aria-label': t('chatWidget.pickColour') }}
              />
              <FileInput
                label={t('chatWidget.image')}
                placeholder={t('chatWidget.imagePlaceholder')}
                accept={IMAGE_TYPES}
                value={image}
                onChange={changed(setImage)}
                clearable
              />
              <Textarea
                label={t('chatWidget.origins')}
                description={t('chatWidget.originsHint')}
                placeholder="https://www.example.com"
                value={origins}
                onChange={(e) => changed(setOrigins)(e.currentTarget.value)}
                autosize
                minRows={2}
              />
              <Group>
                <Button type="submit" loading={create.isPending}>
                  {t('chatWidget.generate')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
        <Card withBorder padding="md" component="section" aria-labelledby="widget-preview-title">
          <Title order={2} size="h4" id="widget-preview-title" mb="xs">
            {t('chatWidget.preview')}
          </Title>
          <WidgetPreview name={name} accent={accent} image={image} />
        </Card>
      </SimpleGrid>
      {shown && <SnippetCard widget={shown} />}
      <Title order={2} size="h3">
        {t('chatWidget.yourWidgets')}
      </Title>
      {widgets.isPending ? (
        <PageLoader minHeight={80} />
      ) : list.length === 0 ? (
        <Text c="dimmed">{t('chatWidget.none')}</Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} style={{ listStyle: 'none' }}>
          {list.map((w) => (
            <WidgetCard
              key={w.widget_id}
              widget={w}
              avatarName={avatarNames.get(w.avatar_id) ?? ''}
              onShowCode={() => setShown(w)}
              onEdit={() => setEditing(w)}
              onDelete={() => setDeleting(w)}
            />
          ))}
        </Stack>
      )}
      {editing && <EditWidgetModal widget={editing} onClose={() => setEditing(null)} />}
      <ConfirmModal
        opened={deleting !== null}
        title={t('chatWidget.deleteTitle')}
        body={t('chatWidget.deleteBody')}
        cancelLabel={t('chatWidget.cancel')}
        confirmLabel={t('chatWidget.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.widget_id)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
