import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SetupItem } from '@avatar-studio/contracts';
import { ConfirmModal, notifySuccess, useCan, useFormat, useRealtimeEvent } from '@avatar-studio/shared';
import { IconCircleCheck, IconCircleDashed, IconAlertTriangle, IconPlugConnected } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  useRemoveStarterContent,
  useSetupChecklist,
  useSetupTest,
  type SetupItemEntry,
  type SetupTestResult,
} from './api';

/** A badge colour that keeps its text readable (dot variant: dark text on a light badge). */
const STATE_COLOR = { todo: 'gray', untested: 'yellow', done: 'green', failed: 'red' } as const;
const STATE_ICON = {
  todo: IconCircleDashed,
  untested: IconPlugConnected,
  done: IconCircleCheck,
  failed: IconAlertTriangle,
} as const;

function newTestId(): string {
  return `setup-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The item's non-secret detail in words: the storage kind, the sign-up choice, the model, the app name... */
function useDetail(entry: SetupItemEntry): string | null {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const detail = entry.detail;
  if (!detail) return null;
  switch (entry.item) {
    case 'storage':
      return detail === 's3' ? t('setup.details.s3') : t('setup.details.disk');
    case 'signup':
      return detail === 'open' ? t('setup.details.open') : t('setup.details.closed');
    case 'ai':
      return t('setup.details.model', { model: detail });
    case 'branding':
      return t('setup.details.appName', { name: detail });
    case 'product':
      return t('setup.details.products', { count: Number(detail), formatted: format.number(Number(detail)) });
    default:
      return null;
  }
}

function TestResult({ result, streamed }: { result: SetupTestResult | null; streamed: string }) {
  const { t } = useTranslation('admin');
  if (!result) {
    return streamed ? (
      <Text size="sm" data-testid="setup-streamed" aria-live="polite">
        {t('setup.answer', { text: streamed })}
      </Text>
    ) : null;
  }
  if (!result.ok) {
    return (
      <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle aria-hidden />}>
        {t(`setup.problems.${result.problem ?? 'not_configured'}`)}
      </Alert>
    );
  }
  return (
    <Stack gap={2} aria-live="polite">
      <Group gap={4}>
        <IconCircleCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />
        <Text size="sm" fw={600}>
          {t('setup.works')}
        </Text>
      </Group>
      {result.answer ? (
        <Text size="sm" data-testid="setup-streamed">
          {t('setup.answer', { text: result.answer })}
        </Text>
      ) : null}
      {result.models?.length ? (
        <Text size="sm">{t('setup.models', { count: result.models.length })}</Text>
      ) : null}
      {result.results !== undefined ? (
        <Text size="sm">{t('setup.results', { count: result.results })}</Text>
      ) : null}
      {result.warnings.map((warning) => (
        <Group key={warning} gap={4} wrap="nowrap" align="flex-start">
          <IconAlertTriangle size={16} color="var(--mantine-color-orange-8)" aria-hidden />
          <Text size="sm">{t(`setup.warnings.${warning}`)}</Text>
        </Group>
      ))}
    </Stack>
  );
}

function ChecklistItem({ entry }: { entry: SetupItemEntry }) {
  const { t } = useTranslation('admin');
  const name = t(`setup.items.${entry.item}.name`);
  const detail = useDetail(entry);
  const test = useSetupTest();
  const [result, setResult] = useState<SetupTestResult | null>(null);
  const [streamed, setStreamed] = useState('');
  const testId = useRef<string | null>(null);
  useRealtimeEvent('setup_test_output', (payload) => {
    if (payload.test_id === testId.current) setStreamed((text) => text + payload.delta);
  });
  const Icon = STATE_ICON[entry.state];
  const run = () => {
    testId.current = newTestId();
    setResult(null);
    setStreamed('');
    test.mutate(
      { item: entry.item as SetupItem, testId: testId.current },
      { onSuccess: (answer) => setResult(answer) },
    );
  };
  return (
    <Paper withBorder p="sm" radius="md" component="li" data-setup-item={entry.item}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Icon size={18} aria-hidden />
            <Text fw={600}>{name}</Text>
            <Badge variant="dot" color={STATE_COLOR[entry.state]} data-testid={`setup-state-${entry.item}`}>
              {t(`setup.states.${entry.state}`)}
            </Badge>
            {entry.required ? (
              <Badge variant="outline" color="dark">
                {t('setup.required')}
              </Badge>
            ) : null}
          </Group>
          <Group gap="xs">
            <Anchor component={Link} to={entry.link} size="sm" aria-label={t('setup.openLabel', { name })}>
              {t('setup.open')}
            </Anchor>
            {entry.item === 'product' ? (
              <Anchor component={Link} to="/pricing" size="sm">
                {t('setup.pricing')}
              </Anchor>
            ) : null}
            {entry.testable ? (
              <Button
                size="xs"
                variant="light"
                onClick={run}
                loading={test.isPending}
                aria-label={t('setup.testLabel', { name })}
              >
                {t('setup.test')}
              </Button>
            ) : null}
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t(`setup.items.${entry.item}.help`)}
        </Text>
        {detail ? <Text size="sm">{detail}</Text> : null}
        <TestResult result={result} streamed={streamed} />
      </Stack>
    </Paper>
  );
}

function StarterContent({
  starter,
}: {
  starter: NonNullable<ReturnType<typeof useSetupChecklist>['data']>['starter'];
}) {
  const { t } = useTranslation('admin');
  const [confirming, setConfirming] = useState(false);
  const remove = useRemoveStarterContent(() => {
    setConfirming(false);
    notifySuccess(t('setup.starter.done'));
  });
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('setup.starter.title')}
        </Title>
        <Text size="sm">
          {starter.state === 'loaded'
            ? t('setup.starter.loaded', { templates: starter.templates, workflows: starter.workflows })
            : t(`setup.starter.${starter.state}`)}
        </Text>
        {starter.state === 'loaded' ? (
          <Group>
            <Button color="red.9" variant="outline" size="xs" onClick={() => setConfirming(true)}>
              {t('setup.starter.remove')}
            </Button>
          </Group>
        ) : null}
      </Stack>
      <ConfirmModal
        opened={confirming}
        title={t('setup.starter.confirmTitle')}
        body={t('setup.starter.confirmBody')}
        cancelLabel={t('setup.starter.cancel')}
        confirmLabel={t('setup.starter.confirm')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
    </Paper>
  );
}

/**
 * The first-run checklist on the back-office dashboard (staff admins only): each item's state from the live
 * settings, a link to the field that sets it, a Test button, and the starter content with its removal.
 */
export function SetupChecklist() {
  const { t } = useTranslation('admin');
  const isAdmin = useCan('appconfig.edit');
  const checklist = useSetupChecklist(isAdmin);
  if (!isAdmin || !checklist.data) return null;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      id="setup-checklist"
      component="section"
      aria-labelledby="setup-title"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="setup-title">
          {t('setup.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('setup.intro')}
        </Text>
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {checklist.data.items.map((entry) => (
            <ChecklistItem key={entry.item} entry={entry} />
          ))}
        </Stack>
        <StarterContent starter={checklist.data.starter} />
      </Stack>
    </Paper>
  );
}
