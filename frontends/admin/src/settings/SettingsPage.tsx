import { Alert, Button, Group, Modal, Paper, PasswordInput, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconDeviceFloppy } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  APP_CONFIG_QUERY_KEY,
  ApiError,
  PageLoader,
  api,
  notifyError,
  notifySuccess,
  unwrap,
  useCan,
} from '@avatar-studio/shared';
import { ConfigField, type AdminConfigEntry } from './ConfigField';
import { useUnlocks } from './useUnlocks';

export const ADMIN_CONFIG_QUERY_KEY = ['admin', 'appconfig'] as const;
const GROUPS = ['Content', 'Advanced', 'Super Fetch'] as const;

/** The value an entry shows before any edit. Secrets show '' (their masked value is a placeholder). */
function storedText(entry: AdminConfigEntry): string {
  if (entry.secret) return '';
  if (entry.type === 'boolean') return entry.value === 'true' ? 'true' : 'false';
  return entry.value ?? '';
}

/** Whether a draft is a change worth sending. An empty draft of a secret means "keep the stored one". */
function isChange(entry: AdminConfigEntry, draft: string | undefined): draft is string {
  if (draft === undefined) return false;
  if (entry.secret) return draft !== '';
  return draft !== storedText(entry);
}

/**
 * Admin /settings: tabs Content, Advanced and Super Fetch built from GET /api/appconfig/admin. Save sends
 * only the changed keys. Protected (secret) fields are locked until a staff admin confirms the edit; the unlock
 * lasts 10 s from the last edit.
 */
export function SettingsPage() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const canUnlock = useCan('appconfig.edit');
  const unlocks = useUnlocks();
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [confirmKey, setConfirmKey] = useState<string | null>(null);
  // The current password typed when unlocking a secret; sent with the save that edits secrets, then forgotten.
  const password = useRef<string | null>(null);
  const [typed, setTyped] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  // The server refused the password at save time: ask again and save once it is typed.
  const [askAgain, setAskAgain] = useState(false);

  const config = useQuery({
    queryKey: ADMIN_CONFIG_QUERY_KEY,
    queryFn: async () => (await unwrap(api.GET('/api/appconfig/admin'))).config satisfies AdminConfigEntry[],
  });
  const entries = useMemo(() => config.data ?? [], [config.data]);
  // A link may name the tab and the field to show (the setup checklist links each item to its field).
  const [searchParams] = useSearchParams();
  const linkedTab = searchParams.get('tab');
  const linkedField = searchParams.get('field');
  useEffect(() => {
    // Config keys are letters, digits and underscores; anything else names no field.
    if (!linkedField || !/^\w+$/.test(linkedField) || entries.length === 0) return;
    const input = document.querySelector<HTMLElement>(`[data-config-key="${linkedField}"]`);
    input?.scrollIntoView?.({ block: 'center' });
    input?.focus();
  }, [linkedField, entries.length]);

  const changes = useMemo(
    () =>
      entries
        .filter((entry) => isChange(entry, drafts[entry.key]))
        .map((entry) => {
          const value = drafts[entry.key];
          return { key: entry.key, value: value === '' ? null : value };
        }),
    [entries, drafts],
  );

  const secretKeys = useMemo(
    () => new Set(entries.filter((entry) => entry.secret).map((entry) => entry.key)),
    [entries],
  );

  const save = useMutation({
    mutationFn: (config: { key: string; value: string | null }[]) => {
      const editsSecret = config.some((change) => secretKeys.has(change.key));
      return unwrap(
        api.PUT('/api/appconfig', {
          body: editsSecret && password.current ? { config, password: password.current } : { config },
        }),
      );
    },
    onSuccess: async (answer) => {
      queryClient.setQueryData(ADMIN_CONFIG_QUERY_KEY, answer.config satisfies AdminConfigEntry[]);
      setDrafts({});
      password.current = null;
      notifySuccess(t('settings.saved'));
      // The shell re-reads the public config: app name (page title), colours, switches.
      await queryClient.invalidateQueries({ queryKey: APP_CONFIG_QUERY_KEY });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'password_incorrect') {
        password.current = null;
        setTyped('');
        setPasswordError(error.status === 403 ? t('settings.confirm.wrongPassword') : null);
        setAskAgain(true);
      } else notifyError(error);
    },
  });

  const closeConfirm = () => {
    setConfirmKey(null);
    setAskAgain(false);
    setTyped('');
    setPasswordError(null);
  };
  const confirm = () => {
    if (!typed) {
      setPasswordError(t('settings.confirm.passwordRequired'));
      return;
    }
    password.current = typed;
    if (askAgain) save.mutate(changes);
    else if (confirmKey) unlocks.unlock(confirmKey);
    closeConfirm();
  };

  if (config.isPending) return <PageLoader />;
  if (config.isError) {
    return (
      <Alert color="red" m="md" role="alert" icon={<IconAlertTriangle aria-hidden />}>
        {config.error.message}
      </Alert>
    );
  }

  const edit = (entry: AdminConfigEntry, value: string) => {
    setDrafts((previous) => ({ ...previous, [entry.key]: value }));
    if (entry.secret) unlocks.touch(entry.key);
  };
  const confirmEntry = entries.find((entry) => entry.key === confirmKey);

  return (
    <Stack gap="md" p="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('settings.title')}
        </Title>
        <Group gap="sm">
          {changes.length > 0 ? (
            <>
              <Text size="sm" c="dimmed">
                {t('settings.unsaved', { count: changes.length })}
              </Text>
              <Button variant="default" onClick={() => setDrafts({})} disabled={save.isPending}>
                {t('settings.reset')}
              </Button>
            </>
          ) : null}
          <Button
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            onClick={() => save.mutate(changes)}
            disabled={changes.length === 0}
            loading={save.isPending}
          >
            {t('settings.save')}
          </Button>
        </Group>
      </Group>

      <Tabs defaultValue={GROUPS.find((group) => group === linkedTab) ?? 'Content'} keepMounted={false}>
        <Tabs.List>
          {GROUPS.map((group) => (
            <Tabs.Tab key={group} value={group}>
              {t(`settings.tabs.${group}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {GROUPS.map((group) => (
          <Tabs.Panel key={group} value={group} pt="md">
            <Paper withBorder radius="md" p="lg">
              <Stack gap="md">
                {entries
                  .filter((entry) => entry.group === group)
                  .map((entry) => (
                    <ConfigField
                      key={entry.key}
                      entry={entry}
                      value={drafts[entry.key] ?? storedText(entry)}
                      onChange={(value) => edit(entry, value)}
                      locked={entry.secret && !unlocks.isUnlocked(entry.key)}
                      canUnlock={canUnlock}
                      onRequestUnlock={() => setConfirmKey(entry.key)}
                    />
                  ))}
              </Stack>
            </Paper>
          </Tabs.Panel>
        ))}
      </Tabs>

      <Modal
        opened={confirmKey !== null || askAgain}
        onClose={closeConfirm}
        title={askAgain ? t('settings.confirm.passwordTitle') : t('settings.confirm.title')}
        centered
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            confirm();
          }}
          noValidate
        >
          <Stack>
            {askAgain ? null : (
              <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />}>
                <Stack gap="xs">
                  {confirmEntry ? (
                    <Text size="sm" fw={600}>
                      {t(`settings.labels.${confirmEntry.key}`, { defaultValue: confirmEntry.key })}
                    </Text>
                  ) : null}
                  <Text size="sm">{t('settings.confirm.warning')}</Text>
                  <Text size="xs" c="dimmed">
                    {t('settings.confirm.relock')}
                  </Text>
                </Stack>
              </Alert>
            )}
            <PasswordInput
              label={t('settings.confirm.password')}
              description={t('settings.confirm.passwordHint')}
              autoComplete="current-password"
              value={typed}
              error={passwordError}
              onChange={(event) => {
                setPasswordError(null);
                setTyped(event.currentTarget.value);
              }}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={closeConfirm}>
                {t('settings.confirm.cancel')}
              </Button>
              <Button type="submit" color="orange" loading={save.isPending}>
                {askAgain ? t('settings.save') : t('settings.confirm.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
