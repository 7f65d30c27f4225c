import { Button, ColorInput, Group, Select, Switch, TextInput, Textarea } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { SUPER_FETCH_PROMPT_VARIABLES } from '@avatar-studio/contracts';
import { useTranslation } from 'react-i18next';

/** One entry of GET /api/appconfig/admin. */
export interface AdminConfigEntry {
  key: string;
  value: string | null;
  secret: boolean;
  type: 'boolean' | 'string' | 'json' | 'url' | 'color';
  group: 'Content' | 'Advanced' | 'Super Fetch';
  options?: string[];
}

/** Keys edited as long text besides json (prompts, snippets, descriptions). */
function isLongText(entry: AdminConfigEntry): boolean {
  return (
    entry.type === 'json' ||
    entry.key.endsWith('_prompt') ||
    /_description(_es)?$/.test(entry.key) ||
    entry.key === 'tracking_code'
  );
}

export interface ConfigFieldProps {
  entry: AdminConfigEntry;
  /** The text shown in the input (the draft, or the stored value; '' for a secret not being replaced). */
  value: string;
  onChange(value: string): void;
  /** A protected field that is locked now. */
  locked: boolean;
  /** Whether the viewer may unlock it (staff admins only); shows the Edit control. */
  canUnlock: boolean;
  onRequestUnlock(): void;
}

/** The input for one app config key, by type: switch, colour, select, text, url or textarea. */
export function ConfigField({
  entry,
  value,
  onChange,
  locked,
  canUnlock,
  onRequestUnlock,
}: ConfigFieldProps) {
  const { t } = useTranslation('admin');
  const label = t(`settings.labels.${entry.key}`, { defaultValue: entry.key });
  const common = {
    label,
    disabled: locked,
    'data-config-key': entry.key,
  };
  const placeholder = entry.secret
    ? entry.value
      ? t('settings.secretPlaceholder', { masked: entry.value })
      : t('settings.secretEmpty')
    : undefined;
  const description =
    entry.key === 'super_fetch_prompt'
      ? t('settings.superFetchHint', {
          variables: SUPER_FETCH_PROMPT_VARIABLES.map((v) => `{${v}}`).join(', '),
        })
      : locked && !canUnlock
        ? t('settings.locked')
        : undefined;

  let input;
  if (entry.type === 'boolean') {
    input = (
      <Switch
        {...common}
        checked={value === 'true'}
        onChange={(event) => onChange(event.currentTarget.checked ? 'true' : 'false')}
      />
    );
  } else if (entry.type === 'color') {
    input = (
      <ColorInput
        {...common}
        format="hex"
        value={value}
        onChange={onChange}
        description={description}
        eyeDropperButtonProps={{ 'aria-label': t('settings.eyeDropper') }}
      />
    );
  } else if (entry.options && entry.options.length > 0) {
    input = (
      <Select
        {...common}
        description={description}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
        data={entry.options.map((option) => ({
          value: option,
          label: t(`settings.sortOptions.${option}`, { defaultValue: option }),
        }))}
      />
    );
  } else if (isLongText(entry)) {
    input = (
      <Textarea
        {...common}
        description={description}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        autosize
        minRows={/_description(_es)?$/.test(entry.key) ? 2 : 4}
        maxRows={entry.key === 'super_fetch_prompt' ? 24 : 12}
        styles={entry.type === 'json' ? { input: { fontFamily: 'monospace' } } : undefined}
        autoComplete="off"
        spellCheck={entry.type !== 'json'}
      />
    );
  } else {
    input = (
      <TextInput
        {...common}
        description={description}
        placeholder={placeholder}
        type={entry.type === 'url' ? 'url' : 'text'}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        autoComplete="off"
        spellCheck={false}
      />
    );
  }

  if (!entry.secret) return input;
  return (
    <Group align="flex-end" wrap="nowrap" gap="xs">
      <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
      {locked && canUnlock ? (
        <Button
          variant="light"
          leftSection={<IconLock size={16} aria-hidden />}
          onClick={onRequestUnlock}
          aria-label={t('settings.editLabel', { label })}
        >
          {t('settings.edit')}
        </Button>
      ) : null}
    </Group>
  );
}
