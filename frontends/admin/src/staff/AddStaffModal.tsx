import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { STAFF_ROLES, api, notifyError, notifySuccess, unwrap, type StaffRole } from '@avatar-studio/shared';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

interface AddStaffValues {
  email: string;
  role: StaffRole;
}

/** Staff form: an existing user's email and a role, admin or manager (admin by default). */
export function AddStaffModal({
  opened,
  onClose,
  onAdded,
}: {
  opened: boolean;
  onClose(): void;
  onAdded(): void | Promise<unknown>;
}) {
  const { t } = useTranslation('admin');
  const form = useForm<AddStaffValues>({
    initialValues: { email: '', role: 'admin' },
    validate: {
      email: (value) => (EMAIL_PATTERN.test(value.trim()) ? null : t('staff.form.invalidEmail')),
    },
  });

  const close = () => {
    form.reset();
    onClose();
  };

  const add = useMutation({
    mutationFn: (values: AddStaffValues) =>
      unwrap(
        api.POST('/api/staff', { body: { email: values.email.trim().toLowerCase(), role: values.role } }),
      ),
    onSuccess: async () => {
      notifySuccess(t('staff.added'));
      close();
      await onAdded();
    },
    onError: (error) => notifyError(error),
  });

  return (
    <Modal opened={opened} onClose={close} title={t('staff.form.title')} centered>
      <form onSubmit={form.onSubmit((values) => add.mutate(values))} noValidate>
        <Stack>
          <TextInput
            label={t('staff.form.email')}
            description={t('staff.form.emailHint')}
            type="email"
            autoComplete="off"
            required
            data-autofocus
            {...form.getInputProps('email')}
          />
          <Select
            label={t('staff.form.role')}
            data={STAFF_ROLES.map((role) => ({ value: role, label: t(`staff.roles.${role}`) }))}
            allowDeselect={false}
            {...form.getInputProps('role')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('staff.form.cancel')}
            </Button>
            <Button type="submit" loading={add.isPending}>
              {t('staff.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
