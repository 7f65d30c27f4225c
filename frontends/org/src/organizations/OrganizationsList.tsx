import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconPlus, IconSearch, IconSettings, IconUsers } from '@tabler/icons-react';
import {
  can,
  membershipRole,
  notifyError,
  PageLoader,
  useCan,
  useDebouncedValue,
  useOrganization,
  useSession,
  type Membership,
} from '@avatar-studio/shared';
import { useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useMyOrganizations, type MyOrganization } from './api';
import { OrganizationThumbnail } from './OrganizationThumbnail';
import { ORG_NS } from '../i18n';

export const ADMIN_PANEL_PATH = '/organization/admin-panel';
export const SETTINGS_PATH = '/organizations/organization-settings';

/** /organizations: the caller's organizations. */
export function OrganizationsList() {
  const { t } = useTranslation(ORG_NS, { keyPrefix: 'organizations.list' });
  const { staffRole } = useSession();
  const { current, choose } = useOrganization();
  const navigate = useNavigate();
  const canCreate = useCan('organization.create');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim());
  const organizations = useMyOrganizations(query);

  useEffect(() => {
    if (organizations.error) notifyError(organizations.error);
  }, [organizations.error]);

  const roleIn = (org: MyOrganization) => membershipRole(org as unknown as Membership);
  const openAdminPanel = (event: MouseEvent, org: MyOrganization) => {
    event.stopPropagation();
    if (current?.organization_id !== org.organization_id) choose(org.organization_id);
    navigate(ADMIN_PANEL_PATH);
  };

  const list = organizations.data ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        {canCreate ? (
          <Button component={Link} to={SETTINGS_PATH} leftSection={<IconPlus size={16} aria-hidden />}>
            {t('create')}
          </Button>
        ) : null}
      </Group>
      <TextInput
        aria-label={t('search')}
        placeholder={t('search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={420}
        type="search"
      />
      {organizations.isPending ? (
        <PageLoader />
      ) : list.length === 0 ? (
        organizations.isError ? null : (
          <Alert variant="light" color="gray">
            {query ? t('noResults') : t('empty')}
          </Alert>
        )
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="md">
          {list.map((org) => {
            const role = roleIn(org);
            const actor = { staffRole, orgRole: role };
            const isCurrent = current?.organization_id === org.organization_id;
            const showAdminButtons = can(actor, 'organization.adminPanel');
            return (
              <Card
                key={org.organization_id}
                withBorder
                padding="md"
                radius="md"
                onClick={() => choose(org.organization_id)}
                style={{
                  cursor: 'pointer',
                  borderColor: isCurrent ? 'var(--mantine-primary-color-filled)' : undefined,
                }}
                data-testid={`organization-${org.organization_id}`}
              >
                <Card.Section>
                  <OrganizationThumbnail src={org.thumbnail} alt={t('thumbnailAlt', { name: org.name })} />
                </Card.Section>
                <Stack gap={4} mt="sm">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <UnstyledButton
                      onClick={(event) => {
                        event.stopPropagation();
                        choose(org.organization_id);
                      }}
                      aria-label={t('select', { name: org.name })}
                      aria-pressed={isCurrent}
                    >
                      <Text fw={600} lineClamp={1}>
                        {org.name}
                      </Text>
                    </UnstyledButton>
                    {isCurrent ? (
                      <Badge size="sm" variant="filled">
                        {t('current')}
                      </Badge>
                    ) : null}
                  </Group>
                  {org.tagline ? (
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {org.tagline}
                    </Text>
                  ) : null}
                </Stack>
                {showAdminButtons ? (
                  <Group mt="md" gap="xs">
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconUsers size={14} aria-hidden />}
                      onClick={(event) => openAdminPanel(event, org)}
                    >
                      {t('adminPanel')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      leftSection={<IconSettings size={14} aria-hidden />}
                      component={Link}
                      to={`${SETTINGS_PATH}/${org.organization_id}`}
                      onClick={(event: MouseEvent) => event.stopPropagation()}
                    >
                      {t('settings')}
                    </Button>
                  </Group>
                ) : null}
              </Card>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
