import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  SegmentedControl,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconDeviceFloppy, IconSparkles, IconTools } from '@tabler/icons-react';
import {
  ApiError,
  PageLoader,
  applyChunk,
  notifyError,
  notifySuccess,
  useAppConfig,
  useRealtimeEvent,
  useScopeKey,
  type DocumentAvatarPayload,
  type DocumentOutputPayload,
} from '@avatar-studio/shared';
import { MAX_DOCUMENT_CONTENT } from '@avatar-studio/contracts/limits';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { saveBlob } from '../conversations/download';
import {
  campaignDocumentKey,
  documentKeys,
  saveDocument,
  stopGeneration,
  useAskAvatarInDocument,
  useCampaignDocument,
  useDocument,
  useDownloadWord,
  useGenerateInDocument,
  type AvatarRequest,
  type GenerateRequest,
  type TextDocument,
} from './api';
import { BlockEditor, type BlockEditorHandle, type EditorChange } from './BlockEditor';
import { DocumentTools } from './DocumentTools';
import { GenerateModal } from './GenerateModal';

/** Edits are saved this long after the last keystroke. */
export const AUTOSAVE_MS = 1500;

type SaveState = 'saved' | 'dirty' | 'saving' | 'failed' | 'conflict' | 'tooLarge';

/** /documents/{id}: loads the document, then the editor (reloaded from the server after a conflict). */
export function DocumentEditorPage() {
  const { t } = useTranslation('customer');
  const id = Number(useParams().document_id);
  const document = useDocument(id);
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const [loadCount, setLoadCount] = useState(0);
  if (document.isPending) return <PageLoader />;
  if (document.isError || !document.data)
    return (
      <Stack p="md">
        <Alert color="red">{t('documents.notFound')}</Alert>
        <Anchor component={Link} to="/documents">
          {t('documents.editor.back')}
        </Anchor>
      </Stack>
    );
  return (
    <DocumentEditor
      key={`${document.data.document_id}:${loadCount}`}
      document={document.data}
      back={{ to: '/documents', label: t('documents.editor.back') }}
      onReload={async () => {
        await queryClient.refetchQueries({ queryKey: documentKeys.one(scope, id) });
        setLoadCount((n) => n + 1);
      }}
    />
  );
}

/**
 * campaign/{campaign_id}/documents/{id}: a document opened through a campaign, in the same editor; read only
 * unless the caller made it (and works in its organization), as the API says.
 */
export function CampaignDocumentPage() {
  const { t } = useTranslation('customer');
  const params = useParams();
  const campaignId = Number(params.campaign_id);
  const id = Number(params.document_id);
  const opened = useCampaignDocument(campaignId, id);
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const [loadCount, setLoadCount] = useState(0);
  const back = `/organization/campaigns/${campaignId}`;
  if (opened.isPending) return <PageLoader />;
  if (opened.isError || !opened.data)
    return (
      <Stack p="md">
        <Alert color="red">{t('documents.campaign.notFound')}</Alert>
        <Anchor component={Link} to={back}>
          {t('documents.editor.back')}
        </Anchor>
      </Stack>
    );
  const { document, campaign, editable } = opened.data;
  return (
    <DocumentEditor
      key={`${document.document_id}:${loadCount}`}
      document={document}
      readOnly={!editable}
      back={{ to: back, label: t('documents.campaign.back', { name: campaign.name }) }}
      onReload={async () => {
        await queryClient.refetchQueries({ queryKey: campaignDocumentKey(scope, campaignId, id) });
        setLoadCount((n) => n + 1);
      }}
    />
  );
}

interface Running {
  id: string | null;
  insert: { update(markdown: string): void };
}

/**
 * The editor: header (title, tags, saved indicator, view/edit toggle, Generate, Save, Tools), the block editor,
 * and the tools panel. Changes autosave; each save names the version it started from, so a second tab's stale
 * save is refused and the page offers to reload instead of overwriting. Read only, it shows the document alone.
 */
function DocumentEditor({
  document,
  back,
  readOnly = false,
  onReload,
}: {
  document: TextDocument;
  back: { to: string; label: string };
  readOnly?: boolean;
  onReload: () => Promise<void>;
}) {
  const { t } = useTranslation('customer');
  const config = useAppConfig();
  const avatarsOn = config.feature('avatars_enabled');
  const generateOn = avatarsOn && config.feature('templates_enabled');
  const [generateOpen, setGenerateOpen] = useState(false);
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const editor = useRef<BlockEditorHandle>(null);
  const [name, setName] = useState(document.name);
  const [tags, setTags] = useState<string[]>(document.tags);
  const [mode, setMode] = useState<'view' | 'edit'>(readOnly ? 'view' : 'edit');
  const [toolsOpen, setToolsOpen] = useState(false);
  const [state, setState] = useState<SaveState>('saved');
  const [conflict, setConflict] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [length, setLength] = useState(document.content.length);
  const [changes, setChanges] = useState(0);
  // What has changed since the last save (content only when the editor reported a change).
  const pending = useRef<{ content?: EditorChange; meta: boolean }>({ meta: false });
  const version = useRef(document.version);
  const saving = useRef<Promise<boolean> | null>(null);

  const changed = useCallback((content?: EditorChange) => {
    if (content) {
      pending.current.content = content;
      setLength(content.markdown.length);
    } else pending.current.meta = true;
    setState((s) => (s === 'conflict' ? s : 'dirty'));
    setChanges((n) => n + 1);
  }, []);

  /** Saves what changed; resolves true when everything is saved. */
  const save = useCallback(async (): Promise<boolean> => {
    if (saving.current) await saving.current;
    const work = pending.current;
    if (!work.content && !work.meta) return true;
    if (!name.trim()) {
      setNameError(t('documents.required'));
      setState('failed');
      return false;
    }
    if (work.content && work.content.markdown.length > MAX_DOCUMENT_CONTENT) {
      setState('tooLarge');
      return false;
    }
    pending.current = { meta: false };
    setState('saving');
    const run = (async () => {
      try {
        const saved = await saveDocument(document.document_id, {
          name: name.trim(),
          tags,
          version: version.current,
          ...(work.content ? { content: work.content.markdown, blocks: work.content.blocks } : {}),
        });
        version.current = saved.version;
        queryClient.setQueryData(documentKeys.one(scope, saved.document_id), saved);
        void queryClient.invalidateQueries({ queryKey: documentKeys.all(scope), refetchType: 'none' });
        const more = pending.current.content || pending.current.meta;
        setState(more ? 'dirty' : 'saved');
        return !more;
      } catch (error) {
        // Keep what was not saved for the next try.
        pending.current = {
          content: pending.current.content ?? work.content,
          meta: pending.current.meta || work.meta,
        };
        if (error instanceof ApiError && error.status === 409) {
          setConflict(error.message);
          setState('conflict');
        } else {
          setState('failed');
          notifyError(error);
        }
        return false;
      }
    })();
    saving.current = run;
    const done = await run;
    saving.current = null;
    return done;
  }, [document.document_id, name, tags, t, queryClient, scope]);

  // Autosave a moment after the last change (never over a conflict: the user chooses to reload).
  useEffect(() => {
    if (changes === 0 || state === 'conflict' || state === 'tooLarge') return;
    const timer = setTimeout(() => void save(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
    // Only a new change restarts the wait.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [changes]);

  // ---- generations streaming into the document
  const [generating, setGenerating] = useState(false);
  const running = useRef<Running | null>(null);
  /** Every stream of this document by generation id: events may come before the request has answered. */
  const streams = useRef(new Map<string, { text: string; done: boolean }>());
  const show = (id: string) => {
    const stream = streams.current.get(id);
    if (!stream || running.current?.id !== id) return;
    if (stream.text) running.current.insert.update(stream.text);
    if (stream.done) {
      running.current = null;
      setGenerating(false);
    }
  };
  const received = (payload: DocumentOutputPayload | DocumentAvatarPayload) => {
    if (payload.document_id !== document.document_id) return;
    const stream = streams.current.get(payload.generation_id) ?? { text: '', done: false };
    if (payload.done) streams.current.set(payload.generation_id, { text: payload.content, done: true });
    else
      streams.current.set(payload.generation_id, {
        text: applyChunk(stream.text, payload.offset, payload.content).text,
        done: false,
      });
    show(payload.generation_id);
  };
  useRealtimeEvent('document_output', received);
  useRealtimeEvent('document_avatar', received);
  const failed = () => {
    if (!running.current) return;
    running.current = null;
    setGenerating(false);
  };
  useRealtimeEvent('error', failed);
  useRealtimeEvent('openai-error', failed);
  const started = (id: string) => {
    if (!running.current) return;
    running.current.id = id;
    show(id);
  };
  const generate = useGenerateInDocument(document.document_id, started);
  const askAvatar = useAskAvatarInDocument(document.document_id, started);
  /** Starts inserting after the selection (or the cursor), in edit view, then sends the request with it. */
  const begin = (send: (selection: string, onError: () => void) => void) => {
    const handle = editor.current;
    if (!handle || running.current) return;
    const selection = handle.selectedText().trim();
    setMode('edit');
    running.current = { id: null, insert: handle.beginInsert() };
    setGenerating(true);
    send(selection, () => {
      running.current = null;
      setGenerating(false);
    });
  };
  const startGeneration = (request: Omit<GenerateRequest, 'selection'>) =>
    begin((selection, onError) =>
      generate.mutate({ ...request, ...(selection ? { selection } : {}) }, { onError }),
    );
  const startAvatar = (request: Omit<AvatarRequest, 'selection'>) =>
    begin((selection, onError) =>
      askAvatar.mutate({ ...request, ...(selection ? { selection } : {}) }, { onError }),
    );
  const stop = () => {
    const id = running.current?.id;
    running.current = null;
    setGenerating(false);
    if (id) void stopGeneration(id).catch(notifyError);
  };

  const download = useDownloadWord((blob) => saveBlob(blob, `${name.trim() || 'document'}.docx`));

  const stateText = {
    saved: t('documents.editor.state.saved'),
    dirty: t('documents.editor.state.dirty'),
    saving: t('documents.editor.state.saving'),
    failed: t('documents.editor.state.failed'),
    conflict: t('documents.editor.state.failed'),
    tooLarge: t('documents.editor.state.failed'),
  }[state];

  return (
    <Stack p="md" gap="sm" h="100%">
      <Anchor component={Link} to={back.to} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {back.label}
        </Group>
      </Anchor>
      {readOnly ? (
        <Stack gap={4}>
          <Title order={1} size="h2">
            {document.name}
          </Title>
          {document.tags.length > 0 && (
            <Group gap={4} aria-label={t('documents.tags')}>
              {document.tags.map((tag) => (
                <Badge key={tag} variant="light" size="sm">
                  {tag}
                </Badge>
              ))}
            </Group>
          )}
          <Alert variant="light" color="gray">
            {t('documents.campaign.readOnly')}
          </Alert>
        </Stack>
      ) : (
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4} style={{ flex: 1, minWidth: 240 }}>
            <TextInput
              aria-label={t('documents.editor.titleLabel')}
              value={name}
              error={nameError}
              maxLength={255}
              size="lg"
              fw={700}
              onChange={(e) => {
                setName(e.currentTarget.value);
                if (e.currentTarget.value.trim()) setNameError(null);
                changed();
              }}
            />
            <TagsInput
              aria-label={t('documents.tags')}
              placeholder={t('documents.tagsInput')}
              value={tags}
              maxTags={20}
              size="xs"
              onChange={(value) => {
                setTags(value);
                changed();
              }}
            />
          </Stack>
          <Group gap="sm">
            <Text size="sm" c={state === 'saved' ? 'dimmed' : undefined} aria-live="polite">
              {stateText}
            </Text>
            <SegmentedControl
              aria-label={t('documents.editor.mode')}
              value={mode}
              onChange={(value) => setMode(value as 'view' | 'edit')}
              data={[
                { value: 'view', label: t('documents.editor.view') },
                { value: 'edit', label: t('documents.editor.edit') },
              ]}
            />
            {generateOn && (
              <Button
                variant="light"
                leftSection={<IconSparkles size={16} aria-hidden />}
                loading={generating || askAvatar.isPending}
                onClick={() => setGenerateOpen(true)}
              >
                {t('documents.generate.open')}
              </Button>
            )}
            <Button
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              loading={state === 'saving'}
              onClick={async () => {
                pending.current.meta = true;
                if (await save()) notifySuccess(t('documents.editor.saved'));
              }}
            >
              {t('documents.editor.save')}
            </Button>
            <Button
              variant={toolsOpen ? 'filled' : 'default'}
              leftSection={<IconTools size={16} aria-hidden />}
              aria-expanded={toolsOpen}
              onClick={() => setToolsOpen((open) => !open)}
            >
              {t('documents.editor.tools')}
            </Button>
          </Group>
        </Group>
      )}
      {state === 'tooLarge' && <Alert color="red">{t('documents.editor.tooLarge')}</Alert>}
      {conflict && (
        <Alert color="orange" title={t('documents.editor.conflictTitle')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{conflict}</Text>
            <Button size="xs" variant="light" onClick={() => void onReload()}>
              {t('documents.editor.reload')}
            </Button>
          </Stack>
        </Alert>
      )}
      <Group align="stretch" wrap="nowrap" gap="md" style={{ flex: 1, minHeight: 0 }}>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <BlockEditor
            ref={editor}
            blocks={document.blocks as Record<string, unknown>[] | null}
            markdown={document.content}
            editable={mode === 'edit'}
            label={t('documents.editor.body')}
            onChange={changed}
          />
          <Text size="xs" c={length > MAX_DOCUMENT_CONTENT ? 'red' : 'dimmed'} ta="right" mt={4}>
            {t('documents.editor.characters', { count: length })}
          </Text>
        </Box>
        {toolsOpen && !readOnly && (
          <Box w={340} style={{ flexShrink: 0 }}>
            <DocumentTools
              generating={generating}
              starting={generate.isPending || askAvatar.isPending}
              downloading={download.isPending}
              avatars={avatarsOn}
              onGenerate={startGeneration}
              onAskAvatar={startAvatar}
              onStop={stop}
              onDownload={async () => {
                if (await save()) download.mutate(document.document_id);
              }}
              onClose={() => setToolsOpen(false)}
            />
          </Box>
        )}
      </Group>
      {generateOn && !readOnly && (
        <GenerateModal
          opened={generateOpen}
          busy={generating || askAvatar.isPending}
          onClose={() => setGenerateOpen(false)}
          onGenerate={startAvatar}
        />
      )}
    </Stack>
  );
}
