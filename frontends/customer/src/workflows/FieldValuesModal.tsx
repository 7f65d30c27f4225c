import { Button, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { emptyFields, initialValues, type WorkflowField } from './model';

interface Props {
  opened: boolean;
  title: string;
  fields: readonly WorkflowField[];
  /** Values already chosen (a user workflow's); fields without one start at their default. */
  values?: Record<string, string>;
  submitLabel: string;
  saving: boolean;
  onSubmit: (values: Record<string, string>) => void;
  onClose: () => void;
}

/**
 * The field-values modal of a workflow: one input per field of the workflow's templates, in order;
 * text, number or select (the first option is the default). Every value is required.
 */
export function FieldValuesModal({ opened, title, onClose, ...rest }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      {/* Mounted only while open, so each opening starts from the given values. */}
      {opened && <FieldValuesForm {...rest} onClose={onClose} />}
    </Modal>
  );
}

function FieldValuesForm({
  fields,
  values: current,
  submitLabel,
  saving,
  onSubmit,
  onClose,
}: Omit<Props, 'opened' | 'title'>) {
  const { t } = useTranslation('customer');
  const ordered = [...fields].sort((a, b) => a.order - b.order);
  const [values, setValues] = useState(() => initialValues(ordered, current));
  const [invalid, setInvalid] = useState<string[]>([]);
  const missing = new Set(invalid);

  const set = (name: string, value: string) => {
    setValues((prev) => ({ ...prev, [name]: value }));
    setInvalid((prev) => prev.filter((n) => n !== name));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = emptyFields(values);
    setInvalid(empty);
    if (empty.length === 0) onSubmit(values);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {ordered.length === 0 && <Text c="dimmed">{t('workflows.values.noFields')}</Text>}
        {ordered.map((field) => {
          const label = field.label || field.name;
          const error = missing.has(field.name) ? t('workflows.values.required') : undefined;
          const value = values[field.name] ?? '';
          if (field.type === 'select') {
            return (
              <Select
                key={field.name}
                label={label}
                required
                data={field.options}
                value={value || null}
                onChange={(v) => set(field.name, v ?? '')}
                allowDeselect={false}
                error={error}
              />
            );
          }
          if (field.type === 'number') {
            return (
              <NumberInput
                key={field.name}
                label={label}
                required
                value={value}
                onChange={(v) => set(field.name, String(v))}
                error={error}
              />
            );
          }
          return (
            <TextInput
              key={field.name}
              label={label}
              required
              value={value}
              onChange={(e) => set(field.name, e.currentTarget.value)}
              error={error}
            />
          );
        })}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t('workflows.values.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
