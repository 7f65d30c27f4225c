import {
  Anchor,
  Button,
  CloseButton,
  Group,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconFileTypeDocx, IconPlayerStop, IconSparkles } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TemplateApplyForm } from '../templates/TemplateApplyForm';
import { TemplateList } from '../templates/TemplatePanel';
import type { Template } from '../templates/model';
import type { AvatarRequest, GenerateRequest } from './api';
import { AvatarPicker } from './AvatarPicker';

/**
 * The tools panel beside a document: Templates (apply one into the document), Avatars (ask one of the caller's
 * avatars; its answer is inserted), Prompt (a free prompt on the selection or the whole document) and Download
 * (Word). While a generation runs, its text streams into the document and the panel offers Stop.
 */
export function DocumentTools({
  generating,
  starting,
  downloading,
  avatars,
  onGenerate,
  onAskAvatar,
  onStop,
  onDownload,
  onClose,
}: {
  generating: boolean;
  starting: boolean;
  downloading: boolean;
  /** Whether the Avatars tab shows (the avatars feature is on). */
  avatars: boolean;
  onGenerate: (request: Omit<GenerateRequest, 'selection'>) => void;
  onAskAvatar: (request: Omit<AvatarRequest, 'selection'>) => void;
  onStop: () => void;
  onDownload: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('customer');
  const [chosen, setChosen] = useState<Template | null>(null);
  const [prompt, setPrompt] = useState('');
  const [promptError, setPromptError] = useState<string | null>(null);
  const busy = generating || starting;

  const submitPrompt = (event: FormEvent) => {
    event.preventDefault();
    if (!prompt.trim()) {
      setPromptError(t('documents.required'));
      return;
    }
    if (!busy) onGenerate({ prompt: prompt.trim() });
  };

  return (
    <Stack
      component="aside"
      aria-label={t('documents.tools.title')}
      gap="sm"
      h="100%"
      style={{ minHeight: 0 }}
    >
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} size="h4">
          {t('documents.tools.title')}
        </Title>
        <CloseButton aria-label={t('documents.editor.closeTools')} onClick={onClose} />
      </Group>
      {generating && (
        <Group justify="space-between" wrap="nowrap" role="status">
          <Text size="sm">{t('documents.tools.generating')}</Text>
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconPlayerStop size={14} aria-hidden />}
            onClick={onStop}
          >
            {t('documents.tools.stop')}
          </Button>
        </Group>
      )}
      <Tabs
        defaultValue="templates"
        keepMounted={false}
        style={{ flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 }}
      >
        <Tabs.List>
          <Tabs.Tab value="templates">{t('documents.tools.templates')}</Tabs.Tab>
          {avatars && <Tabs.Tab value="avatars">{t('documents.tools.avatars')}</Tabs.Tab>}
          <Tabs.Tab value="prompt">{t('documents.tools.prompt')}</Tabs.Tab>
          <Tabs.Tab value="download">{t('documents.tools.download')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="templates" pt="sm" style={{ flex: 1, minHeight: 0 }}>
          <Stack gap="sm" h="100%">
            {chosen ? (
              <ScrollArea style={{ flex: 1 }}>
                <Stack gap="sm">
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    onClick={() => setChosen(null)}
                    mr="auto"
                  >
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
                    generating={busy}
                    onGenerate={(values) => onGenerate({ template_id: chosen.template_id, values })}
                  />
                </Stack>
              </ScrollArea>
            ) : (
              <TemplateList onChoose={setChosen} />
            )}
          </Stack>
        </Tabs.Panel>
        {avatars && (
          <Tabs.Panel value="avatars" pt="sm">
            <AskAvatarForm busy={busy} onAsk={onAskAvatar} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="prompt" pt="sm">
          <form onSubmit={submitPrompt} noValidate>
            <Stack gap="sm">
              <PromptField
                label={t('documents.tools.promptLabel')}
                value={prompt}
                error={promptError}
                onChange={(value) => {
                  setPrompt(value);
                  if (value.trim()) setPromptError(null);
                }}
              />
              <Button type="submit" loading={busy} leftSection={<IconSparkles size={16} aria-hidden />}>
                {t('documents.tools.generate')}
              </Button>
            </Stack>
          </form>
        </Tabs.Panel>
        <Tabs.Panel value="download" pt="sm">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('documents.tools.wordHelp')}
            </Text>
            <Button
              leftSection={<IconFileTypeDocx size={16} aria-hidden />}
              loading={downloading}
              onClick={onDownload}
            >
              {t('documents.tools.word')}
            </Button>
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** The Avatars tab: an avatar and what to ask it; its answer streams into the document. */
function AskAvatarForm({
  busy,
  onAsk,
}: {
  busy: boolean;
  onAsk: (request: Omit<AvatarRequest, 'selection'>) => void;
}) {
  const { t } = useTranslation('customer');
  const [avatarId, setAvatarId] = useState<number | null>(null);
  const [prompt, setPrompt] = useState('');
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const [promptError, setPromptError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const noAvatar = avatarId === null;
    const noPrompt = !prompt.trim();
    setAvatarError(noAvatar ? t('documents.avatars.required') : null);
    setPromptError(noPrompt ? t('documents.required') : null);
    if (noAvatar || noPrompt || busy) return;
    onAsk({ avatar_id: avatarId, prompt: prompt.trim() });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <AvatarPicker
          value={avatarId}
          error={avatarError}
          onChange={(id) => {
            setAvatarId(id);
            if (id !== null) setAvatarError(null);
          }}
        />
        <PromptField
          label={t('documents.avatars.prompt')}
          value={prompt}
          error={promptError}
          onChange={(value) => {
            setPrompt(value);
            if (value.trim()) setPromptError(null);
          }}
        />
        <Button type="submit" loading={busy} leftSection={<IconSparkles size={16} aria-hidden />}>
          {t('documents.avatars.ask')}
        </Button>
      </Stack>
    </form>
  );
}

/** What to write, for the model: the Prompt tab's and the Avatars tab's box, with the same help and limit. */
function PromptField({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('customer');
  return (
    <Textarea
      label={label}
      description={t('documents.tools.promptHelp')}
      autosize
      minRows={3}
      maxRows={10}
      maxLength={4000}
      value={value}
      error={error}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
