import {
  ActionIcon,
  Alert,
  Anchor,
  Autocomplete,
  Button,
  Card,
  Container,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  ApiError,
  ConfirmModal,
  notifyError,
  notifySuccess,
  PageLoader,
  useSession,
} from '@avatar-studio/shared';
import {
  FIELD_TYPES,
  MESSAGES,
  TEMPLATE_LANGUAGES,
  canChangeTemplate,
  deriveFields,
  draftOf,
  fieldHasError,
  formVisibility,
  missesRequiredText,
  sortedFields,
  splitTags,
  validateTemplate,
  type FieldDraft,
  type FieldType,
  type FormErrors,
  type Template,
  type TemplateFormValues,
  type TemplateLanguage,
  type Viewer,
} from './model';
import { useDeleteTemplate, useSaveTemplate, useTemplate, useTemplateTypes, type TemplateBody } from './api';

/** The translation key of each spec message, so that the server's English sentences are shown translated too. */
const MESSAGE_KEYS: Record<string, string> = {
  [MESSAGES.empty]: 'templates.validation.empty',
  [MESSAGES.incomplete]: 'templates.validation.incomplete',
  [MESSAGES.repeatedFields]: 'templates.validation.repeatedFields',
  [MESSAGES.labelTooLong]: 'templates.validation.labelTooLong',
  [MESSAGES.selectNeedsOption]: 'templates.validation.selectNeedsOption',
};

/** /templates/create-template and /templates/edit-template/{template_id}. */
export function TemplateFormPage() {
  const { t } = useTranslation('customer');
  const session = useSession();
  const viewer: Viewer = { userId: session.user?.user_id ?? null, staffRole: session.staffRole };
  const raw = useParams<{ template_id?: string }>().template_id;
  const id = raw === undefined ? null : Number(raw);
  const template = useTemplate(id ?? 0);

  if (id === null) return <TemplateForm viewer={viewer} />;
  if (!Number.isInteger(id) || id <= 0 || template.isError) return <Problem text={t('templates.notFound')} />;
  if (!template.data) return <PageLoader />;
  if (!canChangeTemplate(template.data, viewer)) return <Problem text={t('templates.form.notAllowed')} />;
  return <TemplateForm key={id} viewer={viewer} template={template.data} />;
}

function Problem({ text }: { text: string }) {
  const { t } = useTranslation('customer');
  return (
    <Container size="md" py="lg">
      <Alert color="red">{text}</Alert>
      <Button component={Link} to="/templates" variant="subtle" mt="md">
        {t('templates.apply.browse')}
      </Button>
    </Container>
  );
}

function startValues(template: Template | undefined, uiLanguage: string): TemplateFormValues {
  if (!template)
    return {
      name: '',
      description: '',
      content: '',
      type: '',
      tags: [],
      language: (TEMPLATE_LANGUAGES as readonly string[]).includes(uiLanguage)
        ? (uiLanguage as TemplateLanguage)
        : 'en',
      public: false,
      editable: false,
      show_prompt: true,
      fields: [],
    };
  return {
    name: template.name,
    description: template.description,
    content: template.content ?? '',
    type: template.type,
    tags: splitTags(template.tags),
    language: template.language,
    public: template.public,
    editable: template.editable,
    show_prompt: template.show_prompt,
    fields: sortedFields(template.fields).map(draftOf),
  };
}

function TemplateForm({ template, viewer }: { template?: Template; viewer: Viewer }) {
  const { t, i18n } = useTranslation('customer');
  const navigate = useNavigate();
  const visible = formVisibility(template, viewer);
  const [values, setValues] = useState<TemplateFormValues>(() => startValues(template, i18n.language));
  /** After the first save attempt every change re-checks the form, so marks disappear as they are fixed. */
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors>({});
  const [deleting, setDeleting] = useState(false);
  const errors: FormErrors = {
    ...(checked ? validateTemplate(values, visible.content) : {}),
    ...serverErrors,
  };
  /** A spec message in the interface language; any other server sentence as it is. */
  const say = (message: string) => (MESSAGE_KEYS[message] ? t(MESSAGE_KEYS[message]) : message);
  const text = (key: string) => (errors[key] === undefined ? undefined : say(errors[key]));

  const types = useTemplateTypes();

  const change = (next: Partial<TemplateFormValues>) => {
    setValues((prev) => ({ ...prev, ...next }));
    setServerErrors({});
  };
  const changeContent = (content: string) =>
    change({ content, fields: deriveFields(content, values.fields) });
  const changeField = (index: number, next: Partial<FieldDraft>) =>
    change({ fields: values.fields.map((f, i) => (i === index ? { ...f, ...next } : f)) });

  const save = useSaveTemplate(template?.template_id ?? null, {
    onSaved: () => {
      notifySuccess(t(template ? 'templates.saved' : 'templates.created'));
      navigate('/templates');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.errors?.length) {
        setServerErrors(Object.fromEntries(error.errors.map((e) => [e.field, e.message])));
        notifyError(say(error.message));
      } else notifyError(error);
    },
  });
  const saveValues = () => {
    const body: TemplateBody = {
      name: values.name.trim(),
      description: values.description.trim(),
      // A hidden prompt is left out: the server keeps the stored one.
      ...(visible.content ? { content: values.content } : {}),
      type: values.type.trim(),
      tags: values.tags.join(','),
      language: values.language,
      // Hidden toggles carry the stored values: the server refuses only a change made by someone not allowed.
      public: values.public,
      editable: values.editable,
      show_prompt: values.show_prompt,
      fields: values.fields.map((f) => ({
        name: f.name,
        label: f.label.trim(),
        type: f.type,
        order: f.order,
        ...(f.type === 'select' ? { options: f.options.map((o) => o.trim()) } : {}),
      })),
    };
    save.mutate(body);
  };

  const remove = useDeleteTemplate({
    onDeleted: () => {
      notifySuccess(t('templates.deleted'));
      navigate('/templates');
    },
    onFailed: () => setDeleting(false),
  });

  const submit = () => {
    setChecked(true);
    const found = validateTemplate(values, visible.content);
    const messages = Object.values(found);
    if (messages.length > 0) {
      // A missing required text gives its fixed alert; otherwise the first problem is named.
      const alert = missesRequiredText(found) ? MESSAGES.incomplete : messages[0];
      notifyError(say(alert));
      return;
    }
    saveValues();
  };

  return (
    <Container size="lg" py="lg">
      <Anchor component={Link} to="/templates" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('templates.apply.browse')}
        </Group>
      </Anchor>
      <Title order={1} size="h2" my="md">
        {template ? t('templates.form.editTitle') : t('templates.form.createTitle')}
      </Title>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t('templates.form.name')}
            required
            value={values.name}
            onChange={(e) => change({ name: e.currentTarget.value })}
            error={text('name')}
          />
          <Textarea
            label={t('templates.form.description')}
            required
            autosize
            minRows={2}
            value={values.description}
            onChange={(e) => change({ description: e.currentTarget.value })}
            error={text('description')}
          />
          {visible.content ? (
            <Textarea
              label={t('templates.form.content')}
              description={t('templates.form.contentHint')}
              required
              autosize
              minRows={5}
              value={values.content}
              onChange={(e) => changeContent(e.currentTarget.value)}
              error={text('content')}
            />
          ) : (
            <Text size="sm" c="dimmed">
              {t('templates.form.contentHidden')}
            </Text>
          )}

          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('templates.form.fields')}
            </Title>
            {values.fields.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('templates.form.noFields')}
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                {values.fields.map((field, index) => (
                  <FieldCard
                    key={field.name}
                    field={field}
                    invalid={fieldHasError(errors, index)}
                    error={(key) => text(`fields.${index}${key}`)}
                    onChange={(next) => changeField(index, next)}
                  />
                ))}
              </SimpleGrid>
            )}
          </Stack>

          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Autocomplete
              label={t('templates.form.type')}
              value={values.type}
              onChange={(type) => change({ type })}
              data={types.data?.types.map((x) => x.type) ?? []}
              error={text('type')}
            />
            <TagsInput
              label={t('templates.form.tags')}
              description={t('templates.form.tagsHint')}
              value={values.tags}
              onChange={(tags) => change({ tags })}
              splitChars={[',']}
              acceptValueOnBlur
              clearable
            />
            <Select
              label={t('templates.form.language')}
              value={values.language}
              onChange={(language) => language && change({ language: language as TemplateLanguage })}
              allowDeselect={false}
              data={TEMPLATE_LANGUAGES.map((l) => ({ value: l, label: t(`templates.language.${l}`) }))}
            />
          </SimpleGrid>

          <Group gap="xl">
            {visible.public && (
              <Switch
                label={t('templates.form.public')}
                checked={values.public}
                onChange={(e) => change({ public: e.currentTarget.checked })}
              />
            )}
            {visible.editableAndShowPrompt && (
              <>
                <Switch
                  label={t('templates.form.editable')}
                  description={t('templates.form.editableHint')}
                  checked={values.editable}
                  onChange={(e) => change({ editable: e.currentTarget.checked })}
                />
                <Switch
                  label={t('templates.form.showPrompt')}
                  description={t('templates.form.showPromptHint')}
                  checked={values.show_prompt}
                  onChange={(e) => change({ show_prompt: e.currentTarget.checked })}
                />
              </>
            )}
          </Group>

          <Group justify="space-between">
            <Group>
              <Button type="submit" loading={save.isPending}>
                {t('templates.form.save')}
              </Button>
              <Button variant="default" component={Link} to="/templates">
                {t('templates.form.cancel')}
              </Button>
            </Group>
            {template && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setDeleting(true)}
              >
                {t('templates.form.delete')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>

      {template && (
        <ConfirmModal
          opened={deleting}
          onClose={() => setDeleting(false)}
          title={t('templates.deleteTitle')}
          body={t('templates.deleteBody', { name: template.name })}
          cancelLabel={t('templates.cancel')}
          confirmLabel={t('templates.form.delete')}
          loading={remove.isPending}
          onConfirm={() => remove.mutate(template.template_id)}
        />
      )}
    </Container>
  );
}

/** One derived field's settings; the card turns red while any of its settings is invalid. */
function FieldCard({
  field,
  invalid,
  error,
  onChange,
}: {
  field: FieldDraft;
  invalid: boolean;
  error: (key: string) => string | undefined;
  onChange: (next: Partial<FieldDraft>) => void;
}) {
  const { t } = useTranslation('customer');
  const setOption = (index: number, value: string) =>
    onChange({ options: field.options.map((o, i) => (i === index ? value : o)) });
  return (
    <Card
      withBorder
      padding="sm"
      component="fieldset"
      aria-label={t('templates.form.field.card', { name: field.name })}
      aria-invalid={invalid}
      data-invalid={invalid || undefined}
      style={{
        margin: 0,
        borderColor: invalid ? 'var(--mantine-color-red-6)' : undefined,
        borderWidth: invalid ? 2 : undefined,
      }}
    >
      <Stack gap="xs">
        <Text size="sm" fw={600} c="dimmed">
          [{field.name}]
        </Text>
        <TextInput
          label={t('templates.form.field.label')}
          required
          value={field.label}
          onChange={(e) => onChange({ label: e.currentTarget.value })}
          error={error('.label')}
        />
        <Group grow>
          <Select
            label={t('templates.form.field.type')}
            value={field.type}
            allowDeselect={false}
            onChange={(type) =>
              type &&
              onChange({
                type: type as FieldType,
                // A new select starts with one empty option to fill in.
                options: type === 'select' && field.options.length === 0 ? [''] : field.options,
              })
            }
            data={FIELD_TYPES.map((x) => ({ value: x, label: t(`templates.form.field.types.${x}`) }))}
          />
          <NumberInput
            label={t('templates.form.field.order')}
            min={1}
            max={10000}
            allowDecimal={false}
            allowNegative={false}
            value={field.order}
            onChange={(order) => typeof order === 'number' && order >= 1 && onChange({ order })}
          />
        </Group>
        {field.type === 'select' && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('templates.form.field.options')}
            </Text>
            {field.options.map((option, index) => (
              <Group key={index} gap={4} wrap="nowrap" align="flex-start">
                <TextInput
                  aria-label={t('templates.form.field.option', { index: index + 1 })}
                  value={option}
                  onChange={(e) => setOption(index, e.currentTarget.value)}
                  error={error(`.options.${index}`)}
                  style={{ flex: 1 }}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={6}
                  aria-label={t('templates.form.field.removeOption', { index: index + 1 })}
                  onClick={() => onChange({ options: field.options.filter((_, i) => i !== index) })}
                >
                  <IconTrash size={14} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
            <Button
              variant="subtle"
              size="xs"
              mr="auto"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => onChange({ options: [...field.options, ''] })}
            >
              {t('templates.form.field.addOption')}
            </Button>
          </Stack>
        )}
        {/* Outside the select block: the server may refuse options of a field the form shows as another type. */}
        {error('.options') && (
          <Text size="xs" c="red">
            {error('.options')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
