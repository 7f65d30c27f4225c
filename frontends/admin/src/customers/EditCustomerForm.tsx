import { Anchor, Button, Group, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { NotFound, PageLoader, api, notifyError, notifySuccess, unwrap } from '@avatar-studio/shared';
import { numericId } from '../common/money';
import { CUSTOMER_QUERY_KEY } from './CustomerPage';
import { CUSTOMERS_QUERY_KEY } from './CustomersPage';
import { IdentityFields, identityErrors } from './IdentityFields';

const BIRTHDAY = /^\d{4}-\d{2}-\d{2}$/;

type Values = {
  name: string;
  last_name: string;
  email: string;
  phone: string;
  company: string;
  birthday: string;
  lang: 'en' | 'es';
  instagram: string;
};

/** /admin/users/{id}/edit: a staff admin changes a customer's profile fields. */
export function EditCustomerPage() {
  const { user_id: raw } = useParams();
  const userId = numericId(raw);
  const customer = useQuery({
    queryKey: [...CUSTOMER_QUERY_KEY, userId],
    queryFn: () => unwrap(api.GET('/api/users/{user_id}/admin', { params: { path: { user_id: userId! } } })),
    enabled: userId !== null,
  });
  if (userId === null) return <NotFound />;
  if (customer.isPending) return <PageLoader />;
  if (customer.isError) return <NotFound />;
  const { user } = customer.data;
  return (
    <EditCustomerForm
      key={userId}
      userId={userId}
      initial={{
        name: user.name,
        last_name: user.last_name,
        email: user.email,
        phone: user.phone ?? '',
        company: user.company ?? '',
        birthday: user.birthday ?? '',
        lang: user.lang === 'es' ? 'es' : 'en',
        instagram: user.instagram ?? '',
      }}
    />
  );
}

function EditCustomerForm({ userId, initial }: { userId: number; initial: Values }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const set = (key: keyof Values) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [key]: value }));
  };
  const fullName = `${initial.name} ${initial.last_name}`.trim();

  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/users/{user_id}/admin', {
          params: { path: { user_id: userId } },
          body: {
            name: values.name.trim(),
            last_name: values.last_name.trim(),
            email: values.email.trim().toLowerCase(),
            phone: values.phone.trim() || null,
            company: values.company.trim() || null,
            birthday: values.birthday.trim() || null,
            lang: values.lang,
            instagram: values.instagram.trim() || null,
          },
        }),
      ),
    onSuccess: async () => {
      notifySuccess(t('customers.edit.saved'));
      await queryClient.invalidateQueries({ queryKey: [...CUSTOMER_QUERY_KEY, userId] });
      await queryClient.invalidateQueries({ queryKey: CUSTOMERS_QUERY_KEY });
      navigate(`/admin/users/${userId}`);
    },
    onError: (error) => notifyError(error),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found: typeof errors = identityErrors(values, t);
    if (values.birthday.trim() && !BIRTHDAY.test(values.birthday.trim()))
      found.birthday = t('customers.edit.invalidBirthday');
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };

  return (
    <Stack gap="md" p="md" maw={560}>
      <Anchor component={Link} to={`/admin/users/${userId}`} size="sm">
        {t('customers.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('customers.edit.title', { name: fullName })}
      </Title>
      <Paper withBorder p="md" radius="md">
        <form onSubmit={submit} noValidate>
          <Stack>
            <IdentityFields values={values} errors={errors} set={set} />
            <TextInput label={t('customers.edit.company')} value={values.company} onChange={set('company')} />
            <TextInput
              label={t('customers.edit.birthday')}
              placeholder="YYYY-MM-DD"
              value={values.birthday}
              onChange={set('birthday')}
              error={errors.birthday}
            />
            <Select
              label={t('customers.edit.language')}
              data={[
                { value: 'en', label: t('customers.edit.languages.en') },
                { value: 'es', label: t('customers.edit.languages.es') },
              ]}
              value={values.lang}
              allowDeselect={false}
              onChange={(lang) =>
                lang && setValues((current) => ({ ...current, lang: lang as Values['lang'] }))
              }
            />
            <TextInput
              label={t('customers.edit.instagram')}
              value={values.instagram}
              onChange={set('instagram')}
            />
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={`/admin/users/${userId}`}>
                {t('customers.edit.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t('customers.edit.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
