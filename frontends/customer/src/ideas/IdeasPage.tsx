import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Loader,
  NumberInput,
  Pagination,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCopy, IconPlayerStop, IconSparkles, IconTrash } from '@tabler/icons-react';
import {
  applyChunk,
  notifyError,
  notifySuccess,
  useFormat,
  useRealtimeEvent,
  useScopeKey,
  type IdeasOutputPayload,
} from '@avatar-studio/shared';
import { MAX_IDEAS } from '@avatar-studio/contracts/limits';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IDEAS_PER_PAGE,
  ideaKeys,
  stopIdeas,
  useDeleteIdea,
  useGenerateIdeas,
  useIdeaHistory,
  type Idea,
  type IdeaKind,
} from './api';

const PLATFORMS = ['instagram', 'tiktok', 'x', 'linkedin', 'facebook', 'youtube'] as const;

/** Copies text to the clipboard and says so. */
async function copy(text: string, done: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess(done);
  } catch (error) {
    notifyError(error);
  }
}

/** The ideas of a finished generation or a history entry, one line each, as they are copied. */
const joined = (kind: IdeaKind, items: string[]) => items.join(kind === 'hashtags' ? ' ' : '\n');

/**
 * /topics and /hashtags: the form, the result streaming in, and the history of earlier generations, each idea
 * copied alone or all at once.
 */
export function IdeasPage({ kind }: { kind: IdeaKind }) {
  const { t } = useTranslation('customer');
  const queryClient = useQueryClient();
  const scope = useScopeKey();
  const [subject, setSubject] = useState('');
  const [audience, setAudience] = useState('');
  const [language, setLanguage] = useState<'en' | 'es'>('en');
  const [text, setText] = useState('');
  const [platform, setPlatform] = useState<(typeof PLATFORMS)[number]>('instagram');
  const [count, setCount] = useState<number | ''>(10);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [live, setLive] = useState<{ id: string | null; text: string; done: boolean } | null>(null);
  /** Streams by generation id: events may come before the request has answered. */
  const streams = useRef(new Map<string, { text: string; done: boolean }>());
  const current = useRef<string | null>(null);

  const show = (id: string) => {
    const stream = streams.current.get(id);
    if (!stream || current.current !== id) return;
    setLive({ id, ...stream });
    if (stream.done) {
      current.current = null;
      void queryClient.invalidateQueries({ queryKey: ideaKeys.all(scope, kind) });
    }
  };
  useRealtimeEvent(kind === 'topics' ? 'topics_output' : 'hashtags_output', (payload: IdeasOutputPayload) => {
    if (payload.kind !== kind) return;
    const before = streams.current.get(payload.generation_id) ?? { text: '', done: false };
    streams.current.set(
      payload.generation_id,
      payload.done
        ? { text: payload.content, done: true }
        : { text: applyChunk(before.text, payload.offset, payload.content).text, done: false },
    );
    show(payload.generation_id);
  });
  const failed = () => {
    // The engine reports a failed generation without its id; only a running one of this page is ended.
    if (!current.current) return;
    current.current = null;
    setLive(null);
  };
  useRealtimeEvent('error', failed);
  useRealtimeEvent('openai-error', failed);

  const generate = useGenerateIdeas(kind, (id) => {
    current.current = id;
    setLive({ id, text: '', done: false });
    show(id);
  });
  const running = generate.isPending || (live !== null && !live.done);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const main = kind === 'topics' ? subject : text;
    if (!main.trim()) {
      setError(t('ideas.required'));
      return;
    }
    if (running) return;
    setLive(null);
    // An emptied count asks for the default.
    const howMany = count === '' ? 10 : count;
    generate.mutate(
      kind === 'topics'
        ? {
            subject: subject.trim(),
            ...(audience.trim() ? { audience: audience.trim() } : {}),
            count: howMany,
            language,
          }
        : { text: text.trim(), platform, count: howMany },
    );
  };
  const stop = () => {
    const id = current.current;
    current.current = null;
    setLive(null);
    if (id) void stopIdeas(kind, id).catch(notifyError);
  };

  const title = t(kind === 'topics' ? 'ideas.topicsTitle' : 'ideas.hashtagsTitle');
  return (
    <Stack p="md" gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder component="form" onSubmit={submit} noValidate>
            <Stack gap="sm">
              {kind === 'topics' ? (
                <>
                  <TextInput
                    label={t('ideas.subject')}
                    placeholder={t('ideas.subjectPlaceholder')}
                    required
                    maxLength={500}
                    value={subject}
                    error={error}
                    onChange={(e) => {
                      setSubject(e.currentTarget.value);
                      if (e.currentTarget.value.trim()) setError(null);
                    }}
                  />
                  <TextInput
                    label={t('ideas.audience')}
                    placeholder={t('ideas.audiencePlaceholder')}
                    maxLength={200}
                    value={audience}
                    onChange={(e) => setAudience(e.currentTarget.value)}
                  />
                  <Select
                    label={t('ideas.language')}
                    data={(['en', 'es'] as const).map((value) => ({
                      value,
                      label: t(`ideas.languages.${value}`),
                    }))}
                    value={language}
                    allowDeselect={false}
                    onChange={(value) => value && setLanguage(value as 'en' | 'es')}
                  />
                </>
              ) : (
                <>
                  <Textarea
                    label={t('ideas.text')}
                    placeholder={t('ideas.textPlaceholder')}
                    required
                    autosize
                    minRows={3}
                    maxRows={10}
                    maxLength={4000}
                    value={text}
                    error={error}
                    onChange={(e) => {
                      setText(e.currentTarget.value);
                      if (e.currentTarget.value.trim()) setError(null);
                    }}
                  />
                  <Select
                    label={t('ideas.platform')}
                    data={PLATFORMS.map((value) => ({ value, label: t(`ideas.platforms.${value}`) }))}
                    value={platform}
                    allowDeselect={false}
                    onChange={(value) => value && setPlatform(value as (typeof PLATFORMS)[number])}
                  />
                </>
              )}
              <NumberInput
                label={t('ideas.count')}
                min={1}
                max={MAX_IDEAS}
                clampBehavior="strict"
                allowDecimal={false}
                value={count}
                onChange={(value) => setCount(typeof value === 'number' ? value : '')}
              />
              <Group>
                <Button type="submit" loading={running} leftSection={<IconSparkles size={16} aria-hidden />}>
                  {t('ideas.generate')}
                </Button>
                {live && !live.done && live.id && (
                  <Button
                    variant="light"
                    color="red"
                    leftSection={<IconPlayerStop size={16} aria-hidden />}
                    onClick={stop}
                  >
                    {t('ideas.stop')}
                  </Button>
                )}
              </Group>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            {live && (
              <Card withBorder component="section" aria-label={t('ideas.result')}>
                <Stack gap="xs">
                  <Title order={2} size="h4">
                    {t('ideas.result')}
                  </Title>
                  {live.done ? (
                    <LatestResult kind={kind} />
                  ) : (
                    <>
                      <Text size="sm" c="dimmed">
                        {t('ideas.generating')}
                      </Text>
                      <Text style={{ whiteSpace: 'pre-wrap' }}>{live.text}</Text>
                    </>
                  )}
                </Stack>
              </Card>
            )}
            <History kind={kind} page={page} onPage={setPage} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** The newest history entry, once the generation is saved. */
function LatestResult({ kind }: { kind: IdeaKind }) {
  const history = useIdeaHistory(kind, 1);
  const latest = history.data?.ideas[0];
  if (!latest) return <Loader size="sm" />;
  return <IdeaItems kind={kind} idea={latest} />;
}

function IdeaItems({ kind, idea }: { kind: IdeaKind; idea: Idea }) {
  const { t } = useTranslation('customer');
  const items = idea.items.length ? idea.items : [idea.content];
  return (
    <Stack gap={6}>
      <Group gap={6}>
        {items.map((item) => (
          <Group key={item} gap={2} wrap="nowrap">
            <Badge variant="light" size="lg" tt="none" style={{ maxWidth: 420 }}>
              {item}
            </Badge>
            <Tooltip label={t('ideas.copy')}>
              <ActionIcon
                variant="subtle"
                size="sm"
                aria-label={t('ideas.copyOne', { item })}
                onClick={() => void copy(item, t('ideas.copied'))}
              >
                <IconCopy size={14} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
      </Group>
      <Button
        variant="default"
        size="xs"
        mr="auto"
        leftSection={<IconCopy size={14} aria-hidden />}
        onClick={() => void copy(joined(kind, items), t('ideas.copied'))}
      >
        {t('ideas.copyAll')}
      </Button>
    </Stack>
  );
}

function History({ kind, page, onPage }: { kind: IdeaKind; page: number; onPage: (page: number) => void }) {
  const { t } = useTranslation('customer');
  const format = useFormat();
  const history = useIdeaHistory(kind, page);
  const remove = useDeleteIdea(kind, () => notifySuccess(t('ideas.deleted')));
  const data = history.data;
  const pages = data ? Math.ceil(data.total / IDEAS_PER_PAGE) : 0;
  return (
    <Stack gap="sm" component="section" aria-label={t('ideas.history')}>
      <Title order={2} size="h4">
        {t('ideas.history')}
      </Title>
      {history.isPending ? (
        <Loader size="sm" />
      ) : !data?.ideas.length ? (
        <Text c="dimmed">{t('ideas.noHistory')}</Text>
      ) : (
        <>
          {data.ideas.map((idea) => (
            <Card key={idea.idea_id} withBorder component="article" aria-label={summaryOf(idea)}>
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {t('ideas.asked', { date: format.dateTime(idea.createdAt), summary: summaryOf(idea) })}
                  </Text>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('ideas.delete')}
                    loading={remove.isPending && remove.variables === idea.idea_id}
                    onClick={() => remove.mutate(idea.idea_id)}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
                <IdeaItems kind={kind} idea={idea} />
              </Stack>
            </Card>
          ))}
          {pages > 1 && <Pagination total={pages} value={page} onChange={onPage} />}
        </>
      )}
    </Stack>
  );
}

/** What was asked, in one line: the subject (and audience) or the start of the post. */
function summaryOf(idea: Idea): string {
  const input = idea.input as Record<string, string | number | null>;
  const main = String(input.subject ?? input.text ?? '');
  const extra = input.audience ?? input.platform;
  const line = extra ? `${main} (${String(extra)})` : main;
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
