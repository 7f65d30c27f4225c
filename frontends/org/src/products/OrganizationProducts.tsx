import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import {
  formatMoney,
  formatNumber,
  notifyError,
  PageLoader,
  useDebouncedValue,
  type CurrentOrganization,
} from '@avatar-studio/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ORG_NS } from '../i18n';
import { useOrganizationProducts, type Product } from './api';
import { PRODUCTS, ProductsGate } from './Gate';

/** /organization/admin/products: the products the current organization sells (its Admins). */
export function OrganizationProducts() {
  return (
    <ProductsGate>
      {(organization) => <Products key={organization.organization_id} organization={organization} />}
    </ProductsGate>
  );
}

function Products({ organization }: { organization: CurrentOrganization }) {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'products' });
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const products = useOrganizationProducts(organization.organization_id, query);

  useEffect(() => {
    if (products.error) notifyError(products.error);
  }, [products.error]);

  const billing = (p: Product) =>
    p.is_subscription && p.subscription_period
      ? t('every', {
          count: p.subscription_interval ?? 1,
          period: t(`periods.${p.subscription_period as 'day' | 'month' | 'year'}`),
        })
      : t('oneOff');

  const rows = products.data?.products ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={1} size="h2">
            {t('title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('subtitle', { organization: organization.name })}
          </Text>
        </div>
        <Button component={Link} to={`${PRODUCTS}/new`} leftSection={<IconPlus size={16} aria-hidden />}>
          {t('create')}
        </Button>
      </Group>
      <TextInput
        label={t('search')}
        placeholder={t('search')}
        type="search"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={320}
      />
      {products.isPending ? (
        <PageLoader />
      ) : rows.length === 0 ? (
        products.isError ? null : (
          <Alert variant="light" color="gray">
            {t('empty')}
          </Alert>
        )
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.name')}</Table.Th>
                <Table.Th ta="right">{t('columns.price')}</Table.Th>
                <Table.Th ta="right">{t('columns.words')}</Table.Th>
                <Table.Th>{t('columns.billing')}</Table.Th>
                <Table.Th>{t('columns.available')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.product_id}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`${PRODUCTS}/${p.product_id}`}
                      aria-label={t('edit', { name: p.name })}
                    >
                      {p.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(p.price / 100)}</Table.Td>
                  <Table.Td ta="right">
                    {p.word_amount === null ? t('unlimited') : formatNumber(p.word_amount)}
                  </Table.Td>
                  <Table.Td>{billing(p)}</Table.Td>
                  <Table.Td>
                    <Badge color={p.available ? 'teal' : 'gray'} variant="light">
                      {p.available ? t('yes') : t('no')}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
