import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { isReservedSlug, ORGANIZATION_SLUG_PATTERN } from '@avatar-studio/contracts';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconDeviceFloppy, IconInfoCircle, IconTrash } from '@tabler/icons-react';
import {
  ApiError,
  api,
  can,
  notifyError,
  notifySuccess,
  PageLoader,
  unwrap,
  useSession,
} from '@avatar-studio/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Notice } from '../admin-panel/Notice';
import { numericId } from '../admin-panel/format';
import { ORG_NS } from '../i18n';
import {
  organizationKeys,
  useOrganizationSettings,
  type OrganizationFields,
  type OrganizationView,
} from './api';
import { DeleteOrganizationModal } from './DeleteOrganizationModal';
import { ThumbnailField, WelcomeVideoField } from './MediaFields';

export const SECRET_FIELDS = ['stripe_secret', 'stripe_webhook_secret', 'openai_api_key'] as const;
const TEXT_FIELDS = ['name', 'tagline', 'thumbnail', 'welcome_video', 'domain', 'stripe_public'] as const;

type FormValues = Record<(typeof TEXT_FIELDS)[number] | (typeof SECRET_FIELDS)[number] | 'slug', string>;

function toValues(org: OrganizationView | null): FormValues {
  return {
    name: org?.name ?? '',
    slug: org?.slug ?? '',
    tagline: org?.tagline ?? '',
    thumbnail: org?.thumbnail ?? '',
    welcome_video: org?.welcome_video ?? '',
    domain: org?.domain ?? '',
    stripe_public: org?.stripe_public ?? '',
    stripe_secret: org?.stripe_secret ?? '',
    stripe_webhook_secret: org?.stripe_webhook_secret ?? '',
    openai_api_key: org?.openai_api_key ?? '',
  };
}

/**
 * The body to send. Every plain field goes as it is ('' clears it). A secret is shown masked and goes only
 * when it was changed, so an untouched key is kept; emptying it sends '' (removes it).
 */
export function settingsBody(values: FormValues, initial: FormValues, creating: boolean): OrganizationFields {
  const body: OrganizationFields = { name: values.name.trim() };
  for (const field of TEXT_FIELDS) if (field !== 'name') body[field] = values[field].trim();
  // Left empty on create, the server makes the slug from the name; on edit it goes only when changed.
  const slug = values.slug.trim().toLowerCase();
  if (slug && slug !== initial.slug) body.slug = slug;
  for (const field of SECRET_FIELDS) {
    const value = values[field].trim();
    if (creating ? value !== '' : values[field] !== initial[field]) body[field] = value;
  }
  return body;
}

/** /organizations/organization-settings[/{organization_id}]: create (no id, staff) or edit an organization. */
export function OrganizationSettings() {
  const { organization_id } = useParams();
  const id = numericId(organization_id);
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'organizations' });
  const { staffRole } = useSession();
  const settings = useOrganizationSettings(id);

  if (id === null) {
    if (!can({ staffRole, orgRole: null }, 'organization.create')) {
      return (
        <Notice
          title={t('access.title')}
          body={t('access.createOnly')}
          linkTo="/organizations"
          linkLabel={t('settings.back')}
        />
      );
    }
    return <SettingsForm organization={null} />;
  }
  if (settings.isPending) return <PageLoader />;
  if (settings.isError) {
    const error = settings.error;
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
      return (
        <Notice
          title={error.status === 404 ? t('settings.editTitle') : t('access.title')}
          body={error.status === 404 ? t('settings.notFound') : error.message}
          linkTo="/organizations"
          linkLabel={t('settings.back')}
        />
      );
    }
    return (
      <Alert color="red" title={t('settings.editTitle')}>
        {error.message}
      </Alert>
    );
  }
  // A new key after every save: the form starts again from what the server kept (secrets masked anew).
  return (
    <SettingsForm
      key={`${settings.data.organization_id}-${settings.data.updatedAt}`}
      organization={settings.data}
    />
  );
}

function SettingsForm({ organization }: { organization: OrganizationView | null }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'organizations.settings' });
  const { staffRole } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const creating = organization === null;
  const actor = { staffRole, orgRole: organization?.user_type?.name ?? null };
  const editable = creating ? can(actor, 'organization.create') : can(actor, 'organization.edit');
  const deletable = !creating && can(actor, 'organization.delete');
  const [deleting, setDeleting] = useState(false);
  const [initial] = useState(() => toValues(organization));

  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: {
      name: (value) => (value.trim() ? null : t('nameRequired')),
      slug: (value) => {
        const slug = value.trim().toLowerCase();
        if (!slug || slug === initial.slug) return null;
        if (slug.length > 120 || !ORGANIZATION_SLUG_PATTERN.test(slug)) return t('slugInvalid');
        return isReservedSlug(slug) ? t('slugReserved', { slug }) : null;
      },
    },
  });

  const save = useMutation({
    mutationFn: async (values: FormValues) => {
      const body = settingsBody(values, initial, creating);
      if (creating) return (await unwrap(api.POST('/api/organizations', { body }))).organization;
      return (
        await unwrap(
          api.PUT('/api/organizations', { body: { ...body, organization_id: organization.organization_id } }),
        )
      ).organization;
    },
    onSuccess: async (saved) => {
      notifySuccess(t('saved'));
      queryClient.setQueryData(organizationKeys.one(saved.organization_id), saved);
      await queryClient.invalidateQueries({ queryKey: organizationKeys.mine });
      await queryClient.invalidateQueries({ queryKey: ['organizations', 'all'] });
      if (creating)
        navigate(`/organizations/organization-settings/${saved.organization_id}`, { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.errors?.length) {
        for (const { field, message } of error.errors)
          if (field in initial) form.setFieldError(field, message);
      }
      notifyError(error);
    },
  });

  const submit = form.onSubmit(
    (values) => save.mutate(values),
    (errors) => {
      const first = Object.values(errors).find(Boolean);
      if (typeof first === 'string') notifyError(first);
    },
  );

  const secretInput = (field: (typeof SECRET_FIELDS)[number]) => (
    <TextInput
      label={t(field)}
      autoComplete="off"
      spellCheck={false}
      disabled={!editable}
      // Masked values are not secrets; a typed key must not be kept by the browser's autofill either.
      data-1p-ignore
      {...form.getInputProps(field)}
    />
  );

  return (
    <Stack gap="lg" maw={820}>
      <Group gap="xs">
        <Anchor component={Link} to="/organizations" size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} aria-hidden />
            {t('back')}
          </Group>
        </Anchor>
      </Group>
      <Title order={1} size="h2">
        {creating ? t('createTitle') : t('editTitle')}
      </Title>
      {!editable ? (
        <Alert variant="light" icon={<IconInfoCircle size={18} aria-hidden />}>
          {t('readOnly')}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Paper withBorder p="lg" radius="md">
            <Stack>
              <Title order={2} size="h4">
                {t('general')}
              </Title>
              <TextInput
                label={t('name')}
                withAsterisk
                disabled={!editable}
                {...form.getInputProps('name')}
              />
              <Textarea
                label={t('tagline')}
                autosize
                minRows={1}
                maxRows={4}
                disabled={!editable}
                {...form.getInputProps('tagline')}
              />
              <ThumbnailField
                value={form.values.thumbnail}
                onChange={(src) => form.setFieldValue('thumbnail', src)}
                disabled={!editable}
              />
              <WelcomeVideoField
                value={form.values.welcome_video}
                onChange={(value) => form.setFieldValue('welcome_video', value)}
                disabled={!editable}
                error={form.errors.welcome_video}
              />
              <TextInput
                label={t('slug')}
                description={t('slugHint')}
                placeholder="acme-co"
                disabled={!editable}
                {...form.getInputProps('slug')}
              />
              <TextInput
                label={t('domain')}
                description={t('domainHint')}
                placeholder="app.example.com"
                disabled={!editable}
                {...form.getInputProps('domain')}
              />
            </Stack>
          </Paper>
          <Paper withBorder p="lg" radius="md">
            <Stack>
              <Title order={2} size="h4">
                {t('keys')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('keysHint')}
              </Text>
              <TextInput
                label={t('stripe_public')}
                autoComplete="off"
                spellCheck={false}
                disabled={!editable}
                {...form.getInputProps('stripe_public')}
              />
              {secretInput('stripe_secret')}
              {secretInput('stripe_webhook_secret')}
              {secretInput('openai_api_key')}
            </Stack>
          </Paper>
          {editable || deletable ? (
            <>
              <Divider />
              <Group justify="space-between">
                {deletable ? (
                  <Button
                    variant="outline"
                    color="red"
                    // Red 9 text keeps 4.5:1 contrast on the page (red 6 reaches 3.3:1).
                    c="red.9"
                    leftSection={<IconTrash size={16} aria-hidden />}
                    onClick={() => setDeleting(true)}
                  >
                    {t('delete')}
                  </Button>
                ) : (
                  <span />
                )}
                {editable ? (
                  <Button
                    type="submit"
                    loading={save.isPending}
                    leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                  >
                    {t('save')}
                  </Button>
                ) : null}
              </Group>
            </>
          ) : null}
        </Stack>
      </form>
      {deletable && organization ? (
        <DeleteOrganizationModal
          organization={organization}
          opened={deleting}
          onClose={() => setDeleting(false)}
        />
      ) : null}
    </Stack>
  );
}
