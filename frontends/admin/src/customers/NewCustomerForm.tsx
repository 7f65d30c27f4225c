import { Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { api, notifyError, notifySuccess, unwrap } from '@avatar-studio/shared';
import { isValidPhone } from '@avatar-studio/contracts/phone';
import { CUSTOMERS_QUERY_KEY } from './CustomersPage';

// Linear: two runs of distinct characters around one @ (the server checks the address fully).
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** /admin/users/new: a customer made by staff; the server emails them a password recovery afterwards. */
export function NewCustomerForm() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ name: '', last_name: '', email: '', phone: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});
  const set = (key: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [key]: value }));
  };

  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/users/admin/user', {
          body: {
            name: values.name.trim(),
            last_name: values.last_name.trim(),
            email: values.email.trim().toLowerCase(),
            ...(values.phone.trim() ? { phone: values.phone.trim() } : {}),
          },
        }),
      ),
    onSuccess: async (data) => {
      notifySuccess(
        data.recovery_sent ? t('customers.create.created') : t('customers.create.createdNoEmail'),
      );
      await queryClient.invalidateQueries({ queryKey: CUSTOMERS_QUERY_KEY });
      navigate(`/admin/users/${data.user.user_id}`);
    },
    onError: (error) => notifyError(error),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!values.name.trim()) found.name = t('customers.create.invalidName');
    if (!values.last_name.trim()) found.last_name = t('customers.create.invalidLastName');
    if (!EMAIL.test(values.email.trim())) found.email = t('customers.create.invalidEmail');
    if (values.phone.trim() && !isValidPhone(values.phone)) found.phone = t('customers.create.invalidPhone');
    setErrors(found);
    if (Object.keys(found).length === 0) create.mutate();
  };

  return (
    <Stack gap="md" p="md" maw={560}>
      <Anchor component={Link} to="/admin/users" size="sm">
        {t('customers.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('customers.create.title')}
      </Title>
      <Paper withBorder p="md" radius="md">
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t('customers.create.name')}
              value={values.name}
              onChange={set('name')}
              error={errors.name}
              required
            />
            <TextInput
              label={t('customers.create.lastName')}
              value={values.last_name}
              onChange={set('last_name')}
              error={errors.last_name}
              required
            />
            <TextInput
              label={t('customers.create.email')}
              type="email"
              value={values.email}
              onChange={set('email')}
              error={errors.email}
              required
            />
            <TextInput
              label={t('customers.create.phone')}
              value={values.phone}
              onChange={set('phone')}
              error={errors.phone}
            />
            <Text size="sm" c="dimmed">
              {t('customers.create.hint')}
            </Text>
            <Group justify="flex-end">
              <Button type="submit" loading={create.isPending}>
                {t('customers.create.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
