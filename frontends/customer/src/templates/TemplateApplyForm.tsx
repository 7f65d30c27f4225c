import { Button, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { initialValues, missingValues, sortedFields, type Template, type TemplateField } from './model';

/**
 * The apply form of one template (on the apply screen and in the template panel beside a conversation): one input per
 * field in field order, a select starting on its first option. Every value must be non-empty before
 * `onGenerate` is called with the values by field name.
 */
export function TemplateApplyForm({
  template,
  generating,
  submitLabel,
  onGenerate,
}: {
  template: Template;
  generating: boolean;
  /** The submit button's text when it does not generate at once (Generate otherwise). */
  submitLabel?: string;
  onGenerate: (values: Record<string, string>) => void;
}) {
  const { t } = useTranslation('customer');
  const fields = sortedFields(template.fields);
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(template.fields));
  const [missing, setMissing] = useState<string[]>([]);

  const change = (name: string, value: string) => {
    setValues((prev) => ({ ...prev, [name]: value }));
    // Editing re-evaluates the field: a filled one is no longer marked.
    if (value.trim()) setMissing((prev) => prev.filter((n) => n !== name));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = missingValues(template.fields, values);
    setMissing(empty);
    if (empty.length > 0 || generating) return;
    onGenerate(Object.fromEntries(fields.map((f) => [f.name, values[f.name].trim()])));
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {fields.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('templates.apply.noFields')}
          </Text>
        )}
        {fields.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={values[field.name] ?? ''}
            error={missing.includes(field.name) ? t('templates.validation.empty') : undefined}
            onChange={(value) => change(field.name, value)}
          />
        ))}
        <Button
          type="submit"
          loading={generating}
          leftSection={<IconSparkles size={16} aria-hidden />}
          mr="auto"
        >
          {submitLabel ?? t('templates.apply.generate')}
        </Button>
      </Stack>
    </form>
  );
}

function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: TemplateField;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const common = { label: field.label, error, required: true, withAsterisk: true };
  if (field.type === 'select')
    return (
      <Select
        {...common}
        data={[...new Set(field.options)]}
        value={value || null}
        onChange={(v) => onChange(v ?? '')}
        allowDeselect={false}
      />
    );
  if (field.type === 'number')
    return (
      <NumberInput
        {...common}
        value={value}
        onChange={(v) => onChange(typeof v === 'number' ? String(v) : v)}
      />
    );
  return <TextInput {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)} />;
}
