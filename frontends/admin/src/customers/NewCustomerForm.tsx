import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { api, notifyError, notifySuccess, unwrap } from '@avatar-studio/shared';
import { CUSTOMERS_QUERY_KEY } from './CustomersPage';
import { IdentityFields, identityErrors, type IdentityErrors } from './IdentityFields';

/** /admin/users/new: a customer made by staff; the server emails them a password recovery afterwards. */
export function NewCustomerForm() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ name: '', last_name: '', email: '', phone: '' });
  const [errors, setErrors] = useState<IdentityErrors>({});
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
    const found = identityErrors(values, t);
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
            <IdentityFields values={values} errors={errors} set={set} />
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
