import {
  ActionIcon,
  Alert,
  Button,
  Card,
  FileInput,
  Grid,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowBackUp,
  IconCopy,
  IconEraser,
  IconPaperclip,
  IconPlayerStop,
  IconRefresh,
  IconSparkles,
  IconThumbDown,
  IconThumbUp,
} from '@tabler/icons-react';
import {
  applyChunk,
  notifyError,
  notifySuccess,
  useFormat,
  useRealtimeEvent,
  useScopeKey,
} from '@avatar-studio/shared';
import {
  canGenerateSuperFetch,
  clampSuperFetchOutputs,
  DEFAULT_SUPER_FETCH_OUTPUTS,
  emptySuperFetchInputs,
  isSuperFetchInputValid,
  MAX_SUPER_FETCH_FEEDBACK,
  MAX_SUPER_FETCH_INPUT,
  MAX_SUPER_FETCH_OUTPUTS,
  superFetchRequestOf,
  validateSuperFetchInputs,
  type SuperFetchFeedback,
  type SuperFetchInputState,
} from '@avatar-studio/contracts/super-fetch';
import type { SuperFetchOutputsPayload } from '@avatar-studio/contracts/events';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  stopSuperFetchOutput,
  superFetchKeys,
  useCreateSuperFetchAssistant,
  useGenerateSuperFetch,
  useResetSuperFetch,
  useSuperFetchAssistants,
  useSuperFetchHistory,
  type SuperFetchRequest,
} from './api';

const FILE_ACCEPT = '.docx,.pdf,.pptx,.txt';

/** One output of the request shown: its text so far and whether it ended (done, stopped or failed). */
interface Output {
  generation_id: string;
  text: string;
  done: boolean;
  stopped: boolean;
}

/** Copies text to the clipboard and says so. */
async function copy(text: string, done: string, failed: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess(done);
  } catch {
    notifyError(new Error(failed));
  }
}

/**
 * /super-fetch: the nine inputs on the left (required ones invalid when empty, which blocks generating), then,
 * once outputs are asked for, the feedback form (thumbs, the changes to make, Back to Edit); on the right the
 * outputs streaming in, or the history with the assistant. Reset forgets the history; Clean empties the form.
 */
export function SuperFetchPage() {
  const { t } = useTranslation('customer');
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const assistants = useSuperFetchAssistants();
  const [chosen, setChosen] = useState<string | null>(null);
  const assistantId = chosen ?? assistants.data?.[0]?.assistant_id ?? null;

  const [inputs, setInputs] = useState<SuperFetchInputState[]>(emptySuperFetchInputs);
  /** The outputs count as typed: '' while emptied (read as 0). */
  const [typedCount, setCount] = useState<number | ''>(DEFAULT_SUPER_FETCH_OUTPUTS);
  const count = typedCount === '' ? 0 : typedCount;
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'edit' | 'feedback'>('edit');
  const [liked, setLiked] = useState<boolean | null>(null);
  const [retry, setRetry] = useState('');
  const [retryError, setRetryError] = useState<string | null>(null);
  const [showHistory, setShowHistory] = useState(false);
  const [outputs, setOutputs] = useState<Output[]>([]);
  /** The request shown; events of others (an earlier one still streaming) are left out. */
  const requestId = useRef<string | null>(null);
  /** Events may come before the request has answered: kept by request until it does. */
  const early = useRef(new Map<string, SuperFetchOutputsPayload[]>());
  /** What was last generated, sent again with the feedback. */
  const lastBody = useRef<Omit<SuperFetchRequest, 'file_id'> | null>(null);

  const apply = (list: Output[], payload: SuperFetchOutputsPayload): Output[] => {
    const next = [...list];
    const before = next[payload.index];
    if (!before || before.generation_id !== payload.generation_id || before.done) return list;
    next[payload.index] = payload.done
      ? { ...before, text: payload.content, done: true }
      : { ...before, text: applyChunk(before.text, payload.offset, payload.content).text };
    return next;
  };

  useRealtimeEvent('super_fetch_outputs', (payload) => {
    if (payload.request_id !== requestId.current) {
      const kept = early.current.get(payload.request_id) ?? [];
      early.current.set(payload.request_id, [...kept, payload]);
      return;
    }
    setOutputs((list) => apply(list, payload));
    if (payload.done && assistantId)
      void queryClient.invalidateQueries({ queryKey: superFetchKeys.history(scope, assistantId) });
  });
  // Generation errors are only logged: the outputs still running end where they are.
  const failed = () =>
    setOutputs((list) => list.map((o) => (o.done ? o : { ...o, done: true, stopped: true })));
  useRealtimeEvent('error', failed);
  useRealtimeEvent('openai-error', failed);

  const generate = useGenerateSuperFetch((started) => {
    requestId.current = started.request_id;
    let list: Output[] = started.generation_ids.map((generation_id) => ({
      generation_id,
      text: '',
      done: false,
      stopped: false,
    }));
    for (const payload of early.current.get(started.request_id) ?? []) list = apply(list, payload);
    early.current.clear();
    setOutputs(list);
    setShowHistory(false);
    setMode('feedback');
  });
  const running = generate.isPending || outputs.some((o) => !o.done);

  const reset = useResetSuperFetch(() => {
    notifySuccess(t('superFetch.resetDone'));
    requestId.current = null;
    setOutputs([]);
    setMode('edit');
  });

  const edit = (key: SuperFetchInputState['key'], change: Partial<SuperFetchInputState>) =>
    setInputs((list) =>
      list.map((i) => {
        if (i.key !== key) return i;
        const next = { ...i, ...change };
        return { ...next, isValid: isSuperFetchInputValid(next) };
      }),
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateSuperFetchInputs(inputs);
    setInputs(checked);
    if (!assistantId || running || !canGenerateSuperFetch(checked, count)) return;
    const { values, editable } = superFetchRequestOf(checked);
    const body = { assistant_id: assistantId, values, editable, outputs: count };
    lastBody.current = body;
    setLiked(null);
    setRetry('');
    setRetryError(null);
    generate.mutate({ body, file });
  };

  const regenerate = (event: FormEvent) => {
    event.preventDefault();
    if (!retry.trim()) {
      setRetryError(t('superFetch.required'));
      return;
    }
    if (!lastBody.current || running) return;
    const feedback: SuperFetchFeedback = { liked, text: retry.trim() };
    generate.mutate({ body: { ...lastBody.current, feedback }, file });
  };

  const clean = () => {
    setInputs(emptySuperFetchInputs());
    setCount(DEFAULT_SUPER_FETCH_OUTPUTS);
    setFile(null);
  };

  const stop = (output: Output) => {
    setOutputs((list) =>
      list.map((o) => (o.generation_id === output.generation_id ? { ...o, done: true, stopped: true } : o)),
    );
    void stopSuperFetchOutput(output.generation_id).catch(notifyError);
  };

  if (assistants.isPending) return <Loader m="md" />;
  if (!assistantId) return <NoAssistant />;

  return (
    <Stack p="md" gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('superFetch.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('superFetch.intro')}
          </Text>
        </Stack>
        {(assistants.data?.length ?? 0) > 1 && (
          <Select
            label={t('superFetch.assistant')}
            data={(assistants.data ?? []).map((a) => ({ value: a.assistant_id, label: a.name }))}
            value={assistantId}
            allowDeselect={false}
            onChange={(value) => value && setChosen(value)}
          />
        )}
      </Group>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          {mode === 'edit' ? (
            <Card withBorder component="form" onSubmit={submit} noValidate aria-label={t('superFetch.title')}>
              <Stack gap="sm">
                {inputs.map((input) => (
                  <InputField key={input.key} input={input} onChange={(change) => edit(input.key, change)} />
                ))}
                <FileInput
                  label={t('superFetch.file')}
                  description={t('superFetch.fileHint')}
                  accept={FILE_ACCEPT}
                  clearable
                  leftSection={<IconPaperclip size={16} aria-hidden />}
                  value={file}
                  onChange={setFile}
                />
                <NumberInput
                  label={t('superFetch.outputs')}
                  min={0}
                  max={MAX_SUPER_FETCH_OUTPUTS}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="none"
                  value={typedCount}
                  error={count < 1 ? t('superFetch.outputsNone') : null}
                  onChange={(value) =>
                    setCount(typeof value === 'number' ? clampSuperFetchOutputs(value) : '')
                  }
                />
                <Group>
                  <Button
                    type="submit"
                    loading={running}
                    leftSection={<IconSparkles size={16} aria-hidden />}
                  >
                    {t('superFetch.generate')}
                  </Button>
                  <Button
                    variant="default"
                    leftSection={<IconEraser size={16} aria-hidden />}
                    onClick={clean}
                  >
                    {t('superFetch.clean')}
                  </Button>
                </Group>
              </Stack>
            </Card>
          ) : (
            <Card
              withBorder
              component="form"
              onSubmit={regenerate}
              noValidate
              aria-label={t('superFetch.feedbackTitle')}
            >
              <Stack gap="sm">
                <Title order={2} size="h4">
                  {t('superFetch.feedbackTitle')}
                </Title>
                <Group gap="xs">
                  <Tooltip label={t('superFetch.like')}>
                    <ActionIcon
                      variant={liked === true ? 'filled' : 'default'}
                      size="lg"
                      aria-label={t('superFetch.like')}
                      aria-pressed={liked === true}
                      onClick={() => setLiked(liked === true ? null : true)}
                    >
                      <IconThumbUp size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('superFetch.dislike')}>
                    <ActionIcon
                      variant={liked === false ? 'filled' : 'default'}
                      size="lg"
                      aria-label={t('superFetch.dislike')}
                      aria-pressed={liked === false}
                      onClick={() => setLiked(liked === false ? null : false)}
                    >
                      <IconThumbDown size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
                <Textarea
                  label={t('superFetch.retry')}
                  placeholder={t('superFetch.retryPlaceholder')}
                  required
                  autosize
                  minRows={3}
                  maxRows={8}
                  maxLength={MAX_SUPER_FETCH_FEEDBACK}
                  value={retry}
                  error={retryError}
                  onChange={(e) => {
                    setRetry(e.currentTarget.value);
                    setRetryError(e.currentTarget.value.trim() ? null : t('superFetch.required'));
                  }}
                />
                <Group>
                  <Button type="submit" loading={running} leftSection={<IconRefresh size={16} aria-hidden />}>
                    {t('superFetch.regenerate')}
                  </Button>
                  <Button
                    variant="default"
                    leftSection={<IconArrowBackUp size={16} aria-hidden />}
                    onClick={() => setMode('edit')}
                  >
                    {t('superFetch.backToEdit')}
                  </Button>
                </Group>
              </Stack>
            </Card>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder component="section" aria-label={t('superFetch.outputsTitle')}>
            <Stack gap="sm">
              <Group justify="space-between">
                <Title order={2} size="h4">
                  {showHistory ? t('superFetch.history') : t('superFetch.outputsTitle')}
                </Title>
                <Group gap="sm">
                  <Switch
                    label={t('superFetch.history')}
                    checked={showHistory}
                    onChange={(e) => setShowHistory(e.currentTarget.checked)}
                  />
                  <Button
                    variant="light"
                    color="red"
                    size="xs"
                    loading={reset.isPending}
                    onClick={() => reset.mutate(assistantId)}
                  >
                    {t('superFetch.reset')}
                  </Button>
                </Group>
              </Group>
              {showHistory ? (
                <History assistantId={assistantId} />
              ) : outputs.length === 0 ? (
                <Text c="dimmed">
                  {generate.isPending ? t('superFetch.generating') : t('superFetch.empty')}
                </Text>
              ) : (
                outputs.map((output, index) => (
                  <OutputCard
                    key={output.generation_id}
                    n={index + 1}
                    output={output}
                    onStop={() => stop(output)}
                  />
                ))
              )}
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** One of the nine inputs: its text (invalid when required and empty) and whether it stays a [field]. */
function InputField({
  input,
  onChange,
}: {
  input: SuperFetchInputState;
  onChange: (change: Partial<SuperFetchInputState>) => void;
}) {
  const { t } = useTranslation('customer');
  const label = t(`superFetch.inputs.${input.key}`);
  const long = input.key === 'examples' || input.key === 'prompt';
  return (
    <Stack gap={4}>
      <Textarea
        label={label}
        placeholder={t(`superFetch.placeholders.${input.key}`)}
        required={input.required && !input.editable}
        autosize
        minRows={long ? 2 : 1}
        maxRows={long ? 8 : 3}
        maxLength={MAX_SUPER_FETCH_INPUT}
        value={input.value}
        disabled={input.editable}
        error={input.isValid ? null : t('superFetch.required')}
        onChange={(e) => onChange({ value: e.currentTarget.value })}
      />
      <Switch
        size="xs"
        label={t('superFetch.keepFieldShort')}
        aria-label={t('superFetch.keepField', { label })}
        checked={input.editable}
        onChange={(e) => onChange({ editable: e.currentTarget.checked })}
      />
    </Stack>
  );
}

function OutputCard({ n, output, onStop }: { n: number; output: Output; onStop: () => void }) {
  const { t } = useTranslation('customer');
  const title = t('superFetch.output', { n });
  return (
    <Card withBorder component="article" aria-label={title}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>{title}</Text>
          {!output.done ? (
            <Group gap="xs">
              <Loader size="xs" aria-label={t('superFetch.generating')} />
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconPlayerStop size={14} aria-hidden />}
                onClick={onStop}
              >
                {t('superFetch.stop')}
              </Button>
            </Group>
          ) : output.stopped ? (
            <Text size="sm" c="dimmed">
              {t('superFetch.stopped')}
            </Text>
          ) : (
            <CopyButton text={output.text} />
          )}
        </Group>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{output.text}</Text>
      </Stack>
    </Card>
  );
}

function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation('customer');
  return (
    <Tooltip label={t('superFetch.copy')}>
      <ActionIcon
        variant="subtle"
        aria-label={t('superFetch.copy')}
        onClick={() => void copy(text, t('superFetch.copied'), t('superFetch.copyFailed'))}
      >
        <IconCopy size={16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}

/** The assistant's earlier outputs, newest first. */
function History({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const history = useSuperFetchHistory(assistantId);
  if (history.isPending) return <Loader size="sm" />;
  const outputs = (history.data ?? []).filter((m) => m.role === 'assistant').reverse();
  if (!outputs.length) return <Text c="dimmed">{t('superFetch.noHistory')}</Text>;
  return (
    <Stack gap="sm">
      {outputs.map((m) => (
        <Card
          key={m.message_id}
          withBorder
          component="article"
          aria-label={format.dateTime(m.createdAt) ?? undefined}
        >
          <Stack gap="xs">
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {format.dateTime(m.createdAt)}
              </Text>
              <CopyButton text={m.content} />
            </Group>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{m.content}</Text>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** Without a Super Fetch assistant: say so and make one. */
function NoAssistant() {
  const { t } = useTranslation('customer');
  const create = useCreateSuperFetchAssistant(t('superFetch.assistantName'));
  return (
    <Stack p="md" gap="md">
      <Title order={1} size="h2">
        {t('superFetch.title')}
      </Title>
      <Alert variant="light">
        <Stack gap="sm" align="flex-start">
          <Text>{t('superFetch.noAssistant')}</Text>
          <Button loading={create.isPending} onClick={() => create.mutate()}>
            {t('superFetch.createAssistant')}
          </Button>
        </Stack>
      </Alert>
    </Stack>
  );
}
