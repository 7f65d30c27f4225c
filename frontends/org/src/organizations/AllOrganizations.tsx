import {
  ActionIcon,
  Alert,
  Avatar,
  Group,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconBuildingCommunity, IconSearch, IconSettings } from '@tabler/icons-react';
import { notifyError, PageLoader, useCan, useDebouncedValue } from '@avatar-studio/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Notice } from '../admin-panel/Notice';
import { formatDate } from '@avatar-studio/shared';
import { ORG_NS } from '../i18n';
import { useAllOrganizations } from './api';
import { SETTINGS_PATH } from './OrganizationsList';

/** /organizations/all (the spec's admin/organizations): every organization, for staff. */
export function AllOrganizations() {
  const { t, i18n } = useTranslation(ORG_NS, { keyPrefix: 'organizations' });
  const allowed = useCan('organization.listAll');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const [page, setPage] = useState(1);
  const organizations = useAllOrganizations(query, page, allowed);

  // A new search starts at the first page.
  useEffect(() => setPage(1), [query]);
  useEffect(() => {
    if (organizations.error) notifyError(organizations.error);
  }, [organizations.error]);

  if (!allowed) {
    return (
      <Notice
        title={t('access.title')}
        body={t('access.staffOnly')}
        linkTo="/organizations"
        linkLabel={t('list.title')}
      />
    );
  }

  const data = organizations.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('all.title')}
        </Title>
        {data ? (
          <Text c="dimmed" size="sm">
            {t('all.total', { count: data.total })}
          </Text>
        ) : null}
      </Group>
      <TextInput
        aria-label={t('all.search')}
        placeholder={t('all.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={420}
        type="search"
      />
      {organizations.isPending ? (
        <PageLoader />
      ) : !data || data.organizations.length === 0 ? (
        organizations.isError ? null : (
          <Alert variant="light" color="gray">
            {t('all.empty')}
          </Alert>
        )
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('all.name')}</Table.Th>
                  <Table.Th>{t('all.domain')}</Table.Th>
                  <Table.Th ta="right">{t('all.members')}</Table.Th>
                  <Table.Th>{t('all.created')}</Table.Th>
                  <Table.Th ta="right">{t('all.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.organizations.map((org) => (
                  <Table.Tr key={org.organization_id}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar src={org.thumbnail} radius="sm" size="md" alt="">
                          <IconBuildingCommunity size={18} aria-hidden />
                        </Avatar>
                        <div>
                          <Text fw={500}>{org.name}</Text>
                          {org.tagline ? (
                            <Text size="xs" c="dimmed" lineClamp={1}>
                              {org.tagline}
                            </Text>
                          ) : null}
                        </div>
                      </Group>
                    </Table.Td>
                    <Table.Td>{org.domain ?? ''}</Table.Td>
                    <Table.Td ta="right">{org.users_count}</Table.Td>
                    <Table.Td>{formatDate(org.createdAt, i18n.language)}</Table.Td>
                    <Table.Td ta="right">
                      <Tooltip label={t('all.settings')}>
                        <ActionIcon
                          component={Link}
                          to={`${SETTINGS_PATH}/${org.organization_id}`}
                          variant="subtle"
                          aria-label={t('all.settingsOf', { name: org.name })}
                        >
                          <IconSettings size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 ? (
            <Pagination
              total={pages}
              value={page}
              onChange={setPage}
              siblings={1}
              boundaries={1}
              aria-label={t('all.pages')}
            />
          ) : null}
        </>
      )}
    </Stack>
  );
}
