import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft } from '@tabler/icons-react';
import {
  ApiError,
  api,
  notifyError,
  notifySuccess,
  ORG_ROLE_IDS,
  ORG_ROLES,
  PageLoader,
  unwrap,
  type CurrentOrganization,
} from '@avatar-studio/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ORG_NS } from '../i18n';
import { memberKeys, useMembership, type Membership, type UserTypeId } from './api';
import { numericId } from './format';
import { ADMIN_PANEL, OrganizationGate } from './Gate';
import { Notice } from './Notice';

/** Same pattern as the server's email check, enough to catch typing mistakes before sending. */
// The lookahead keeps the match linear (a run of dots before a space was retried dot by dot); same addresses.
const EMAIL = /^[^\s@]+@(?=[^\s@]+$)[^\s@]+\.[^\s@]+$/;
const MEMBER: UserTypeId = 3;

interface FormValues {
  name: string;
  last_name: string;
  email: string;
  user_type_id: string;
}

/**
 * /organization/admin-panel/{userId}: invite someone by email (a non-numeric id such as "new") or change a
 * member's role (Admin). Never another person's name or email.
 */
export function UserForm() {
  const { userId } = useParams();
  const id = numericId(userId);
  return (
    <OrganizationGate
      permission={id === null ? 'organization.users.add' : 'organization.users.edit'}
      denied="edit"
    >
      {(organization) => (
        <FormLoader key={`${organization.organization_id}-${id}`} organization={organization} id={id} />
      )}
    </OrganizationGate>
  );
}

function FormLoader({ organization, id }: { organization: CurrentOrganization; id: number | null }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'adminPanel' });
  const membership = useMembership(organization.organization_id, id);
  if (id === null) return <MemberForm organization={organization} member={null} />;
  if (membership.isPending) return <PageLoader />;
  const notFound =
    (membership.isError && membership.error instanceof ApiError && membership.error.status === 404) ||
    (membership.data && membership.data.organization_id !== organization.organization_id);
  if (notFound) {
    return (
      <Notice
        title={t('form.editTitle')}
        body={t('detail.notFound')}
        linkTo={ADMIN_PANEL}
        linkLabel={t('detail.back')}
      />
    );
  }
  if (membership.isError) return <Alert color="red">{membership.error.message}</Alert>;
  return <MemberForm organization={organization} member={membership.data} />;
}

function MemberForm({
  organization,
  member,
}: {
  organization: CurrentOrganization;
  member: Membership | null;
}) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'adminPanel' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const adding = member === null;

  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: {
      name: member?.user.name ?? '',
      last_name: member?.user.last_name ?? '',
      email: member?.user.email ?? '',
      user_type_id: String(member?.user_type_id ?? MEMBER),
    },
    validate: {
      name: (value) => (!adding || value.trim() ? null : t('form.nameInvalid')),
      email: (value) => (!adding || EMAIL.test(value.trim()) ? null : t('form.emailInvalid')),
    },
  });

  const invite = useMutation({
    mutationFn: (values: FormValues) =>
      unwrap(
        api.POST('/api/user-organizations', {
          body: {
            organization_id: organization.organization_id,
            name: values.name.trim(),
            last_name: values.last_name.trim(),
            email: values.email.trim().toLowerCase(),
            user_type_id: Number(values.user_type_id) as UserTypeId,
          },
        }),
      ),
    onSuccess: ({ invitation }) => {
      notifySuccess(t('form.invited', { email: invitation.email }));
      navigate(ADMIN_PANEL);
    },
    onError: (error) => showErrors(error),
  });

  // An Admin changes the membership only: the person's name and email are theirs to edit.
  const changeRole = useMutation({
    mutationFn: (values: FormValues) =>
      unwrap(
        api.PUT('/api/user-organizations', {
          body: {
            user_organization_id: member!.user_organization_id,
            user_type_id: Number(values.user_type_id) as UserTypeId,
          },
        }),
      ),
    onSuccess: async ({ user_organization }) => {
      notifySuccess(t('form.saved'));
      queryClient.setQueryData(
        memberKeys.one(organization.organization_id, user_organization.user_organization_id),
        user_organization,
      );
      await queryClient.invalidateQueries({ queryKey: memberKeys.all(organization.organization_id) });
      navigate(`${ADMIN_PANEL}/users/${user_organization.user_organization_id}`);
    },
    onError: (error) => showErrors(error),
  });

  function showErrors(error: Error) {
    if (error instanceof ApiError && error.errors?.length) {
      for (const { field, message } of error.errors) {
        if (field in form.values) form.setFieldError(field, message);
      }
    }
    notifyError(error);
  }

  const save = adding ? invite : changeRole;

  const back = adding ? ADMIN_PANEL : `${ADMIN_PANEL}/users/${member.user_organization_id}`;
  return (
    <Stack gap="lg" maw={640}>
      <Anchor component={Link} to={back} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('detail.back')}
        </Group>
      </Anchor>
      <div>
        <Title order={1} size="h2">
          {adding ? t('form.addTitle') : t('form.editTitle')}
        </Title>
        <Text c="dimmed" size="sm">
          {organization.name}
        </Text>
      </div>
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
          <Stack>
            {adding ? (
              <>
                <TextInput
                  label={t('form.email')}
                  type="email"
                  withAsterisk
                  autoComplete="off"
                  description={t('form.inviteHint')}
                  {...form.getInputProps('email')}
                />
                <Group grow align="flex-start" wrap="wrap">
                  <TextInput
                    label={t('form.name')}
                    withAsterisk
                    autoComplete="off"
                    description={t('form.nameHint')}
                    {...form.getInputProps('name')}
                  />
                  <TextInput
                    label={t('form.last_name')}
                    autoComplete="off"
                    {...form.getInputProps('last_name')}
                  />
                </Group>
              </>
            ) : (
              <div>
                <Text fw={600}>{[member.user.name, member.user.last_name].filter(Boolean).join(' ')}</Text>
                <Text size="sm" c="dimmed">
                  {member.user.email}
                </Text>
                <Text size="xs" c="dimmed" mt={4}>
                  {t('form.profileLocked')}
                </Text>
              </div>
            )}
            <NativeSelect
              label={t('form.userType')}
              data={ORG_ROLES.map((role) => ({
                value: String(ORG_ROLE_IDS[role]),
                label: t(`roles.${role}`),
              }))}
              {...form.getInputProps('user_type_id')}
            />
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={back}>
                {t('form.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t('form.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
